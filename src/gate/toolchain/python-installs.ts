/**
 * The Python steps of gate-setup's install (see setup-installs.ts): a virtualenv made at the
 * root, and pip or Poetry installing into it only what the reference's requirements files or
 * lockfile pin. Installing the project itself (`pip install .`, `-e .`), a package named on the
 * command line, a path or a URL is no such step: it copies or builds the candidate's code.
 */
import { isLockfile } from '../../ecosystems/registry.js'

/** Reads a file of the checkout; null when it is not a regular file there. */
export type CheckoutReader = (rel: string) => string | null

/** What the install steps so far have set up: the virtualenv activated, Poetry's in-project setting. */
export interface PythonContext {
  read: CheckoutReader
  active: string | null
  poetryInProject: boolean
}

/** One recognised step: the root folders it writes, and whether it only activates a virtualenv. */
interface PythonStep {
  folders: string[]
  activation?: boolean
}

const VENV_DIR = '(\\.venv|venv)'
const FLAGS = '((?: --?[A-Za-z][\\w-]*(?:=\\S+)?)*)'
const PYTHON = '(?:(?:/[\\w.+-]+)+/)?python(?:3(?:\\.\\d+)?)?'
const MAKE_VENV = new RegExp(`^(?:${PYTHON} -m venv|virtualenv)${FLAGS} ${VENV_DIR}/?$`)
const ACTIVATE = new RegExp(`^(?:\\.|source) ${VENV_DIR}/bin/activate$`)
const VENV_PIP = new RegExp(`^${VENV_DIR}/bin/(?:pip3?|python3? -m pip) install(?= |$)`)
const ACTIVE_PIP = /^(?:pip3?|python3? -m pip) install(?= |$)/
/** Poetry with variables in front that change nothing of where it installs. */
const POETRY_INSTALL =
  /^((?:(?:POETRY_VIRTUALENVS_IN_PROJECT|POETRY_NO_INTERACTION|POETRY_INSTALLER_[A-Z_]+|PYTHON_KEYRING_BACKEND)=\S+ )*)poetry install(?= |$)/

/**
 * The pip options such a step may carry, spelled out whole (pip takes any unambiguous prefix of a
 * long option, so `--edit .` would be `--editable .`): those that change nothing of what is
 * installed or where, and those that take the next word as their value.
 */
const PIP_FLAGS = new Set([
  ...['-q', '-qq', '-qqq', '-v', '-vv', '-U', '--quiet', '--verbose', '--upgrade', '--no-deps', '--require-hashes', '--no-compile', '--compile'],
  ...['--no-cache-dir', '--disable-pip-version-check', '--no-input', '--prefer-binary', '--pre', '--no-color', '--no-warn-script-location'],
  ...['--no-warn-conflicts', '--no-build-isolation', '--use-pep517', '--force-reinstall', '--ignore-installed', '--no-index']
])
const PIP_VALUE_OPTIONS = new Set([
  ...['-i', '--index-url', '--extra-index-url', '--trusted-host', '--timeout', '--retries', '--progress-bar'],
  ...['--only-binary', '--no-binary', '--upgrade-strategy']
])
const REQUIREMENT_FILE = /^(?:-r|--requirement|-c|--constraint)(?:=(.+))?$/

/** The step's folders when it is a lockfile-only Python install step (or one that sets one up), else null. */
export function pythonInstallStep(step: string, ctx: PythonContext): PythonStep | null {
  const made = MAKE_VENV.exec(step)
  if (made) return { folders: [made[2]] }
  const activated = ACTIVATE.exec(step)
  if (activated) {
    ctx.active = activated[1]
    return { folders: [], activation: true }
  }
  if (/^poetry config virtualenvs\.in-project true$/.test(step)) {
    ctx.poetryInProject = true
    return { folders: [] }
  }
  const poetry = POETRY_INSTALL.exec(step)
  if (poetry) {
    const inProject = ctx.poetryInProject || /(?:^| )POETRY_VIRTUALENVS_IN_PROJECT=(?:true|1) /.test(` ${poetry[1]}`)
    return poetryInstall(step.slice(poetry[0].length), { ...ctx, poetryInProject: inProject })
  }
  const inVenv = VENV_PIP.exec(step)
  const target = inVenv ? inVenv[1] : ACTIVE_PIP.test(step) ? ctx.active : null
  if (!target) return null
  const args = step.replace(inVenv ? VENV_PIP : ACTIVE_PIP, '').trim()
  return pipInstallsLockfiles(args ? args.split(' ') : [], ctx.read) ? { folders: [target] } : null
}

/** `pip install` arguments that name only requirements and constraints files of plain pinned requirements. */
function pipInstallsLockfiles(args: string[], read: CheckoutReader): boolean {
  let files = 0
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const file = REQUIREMENT_FILE.exec(arg)
    if (file) {
      const name = file[1] ?? args[++i]
      if (!name || !requirementsFileIsPinnedOnly(name, read, new Set())) return false
      if (/^(?:-r|--requirement)/.test(arg)) files++
    } else if (PIP_VALUE_OPTIONS.has(arg)) i++
    else if (!PIP_FLAGS.has(arg) && !PIP_VALUE_OPTIONS.has(arg.split('=')[0])) return false
  }
  return files > 0
}

/** A relative path inside the checkout that names a requirements or constraints file. */
const lockfilePath = (rel: string): boolean => !rel.startsWith('/') && !rel.split('/').includes('..') && isLockfile(rel)

/**
 * A requirements file of the checkout whose lines are requirements by name (pinned, ranged or
 * hashed), index options, or `-r`/`-c` of another such file: no `-e`, path, URL or find-links.
 */
function requirementsFileIsPinnedOnly(rel: string, read: CheckoutReader, seen: Set<string>): boolean {
  if (!lockfilePath(rel)) return false
  if (seen.has(rel)) return true
  seen.add(rel)
  const text = read(rel)
  if (text === null) return false
  const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/') + 1) : ''
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)
  for (const raw of lines) {
    const line = raw.replace(/(?:^|\s)#.*$/, '').trim()
    if (!line) continue
    const nested = /^(?:-r|--requirement|-c|--constraint)(?:\s+|=)(\S+)$/.exec(line)
    if (nested) {
      if (!requirementsFileIsPinnedOnly(`${dir}${nested[1]}`, read, seen)) return false
    } else if (line.startsWith('-')) {
      if (!/^(?:-i|--index-url|--extra-index-url|--trusted-host|--prefer-binary|--only-binary|--require-hashes|--pre)(?:\s|=|$)/.test(line)) return false
    } else if (!pinnedRequirement(line)) return false
  }
  return true
}

/** A requirement by name: no URL, path or archive file (which pip takes for a file in the tree). */
function pinnedRequirement(line: string): boolean {
  const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(line)
  if (!name || /\.(?:whl|zip|tar|tgz|tar\.gz|tar\.bz2|tbz|tar\.xz|txz)$/i.test(name[0])) return false
  return !/[@/\\]/.test(line.replace(/--hash=\S+/g, ''))
}

/** `poetry install --no-root` into the project's own `.venv`, from the reference's poetry.lock (`root`: the install of the project itself, without `--no-root`). */
function poetryInstall(rest: string, ctx: PythonContext, root = false): PythonStep | null {
  const args = (rest.trim() ? rest.trim().split(' ') : []).filter((a) => !(root && a === '--only-root'))
  if (args.includes('--no-root') === root || ctx.read('poetry.lock') === null) return null
  const inProject = ctx.poetryInProject || /^\s*in-project\s*=\s*true\s*$/m.test(ctx.read('poetry.toml') ?? '')
  if (!inProject) return null
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (['--with', '--without', '--only', '-E', '--extras'].includes(arg)) i++
    else if (!/^(?:--no-root|--sync|-n|--no-interaction|--no-ansi|-q|--quiet|-v|--all-extras|--compile|--(?:with|without|only|extras)=\S+)$/.test(arg))
      return null
  }
  return { folders: ['.venv'] }
}

/** A step after a Python install that would write into its virtualenv (`pip install -e .`): the later runs get a writable copy of it. */
export const WRITES_VIRTUALENV = /(?:^|[\s/])(?:pip3?|poetry|uv|pdm|hatch|flit|virtualenv)(?=$|[\s;&|)])|setup\.py|-m venv\b/

/** The project itself, editable, with its extras: `.`, `./`, `.[test]`, quoted or not. */
const EDITABLE_TARGET = /^(['"]?)\.\/?(?:\[[A-Za-z0-9_.,-]+\])?\1$/

/**
 * The project's own editable install into the virtualenv the install steps made (`.venv/bin/pip
 * install -e '.[test]'`, `pip install -e .` after the activation, `poetry install` in-project from
 * poetry.lock): what it puts in the virtualenv names the checkout's own path (a `.pth`, an import
 * finder, entry-point scripts), so a candidate on the same project files imports its own code
 * through it. Its folders, or null. A non-editable install (`pip install .`) copies the
 * commit's code into the virtualenv and is no such step.
 */
export function projectInstallStep(step: string, ctx: PythonContext): string[] | null {
  const poetry = POETRY_INSTALL.exec(step)
  if (poetry) {
    const inProject = ctx.poetryInProject || /(?:^| )POETRY_VIRTUALENVS_IN_PROJECT=(?:true|1) /.test(` ${poetry[1]}`)
    return poetryInstall(step.slice(poetry[0].length), { ...ctx, poetryInProject: inProject }, true)?.folders ?? null
  }
  const inVenv = VENV_PIP.exec(step)
  const target = inVenv ? inVenv[1] : ACTIVE_PIP.test(step) ? ctx.active : null
  if (!target) return null
  const args = step
    .replace(inVenv ? VENV_PIP : ACTIVE_PIP, '')
    .trim()
    .split(' ')
  let editable = 0
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const value = /^--editable=(.*)$/.exec(arg)?.[1] ?? (arg === '-e' || arg === '--editable' ? args[++i] : undefined)
    if (value !== undefined) {
      if (!EDITABLE_TARGET.test(value)) return null
      editable++
    } else if (PIP_VALUE_OPTIONS.has(arg)) i++
    else if (!PIP_FLAGS.has(arg) && !PIP_VALUE_OPTIONS.has(arg.split('=')[0])) return null
  }
  return editable === 1 ? [target] : null
}
