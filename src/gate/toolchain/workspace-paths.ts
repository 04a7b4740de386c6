import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Larger files are not a `.pth`, finder or script. */
const TEXT_FILE_LIMIT = 1024 * 1024

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The spellings of the workspace's path (as given, and with links resolved). */
function workspaceSpellings(workspace: string): string[] {
  const given = path.resolve(workspace)
  let real = given
  try {
    real = realpathSync(given)
  } catch {
    // a workspace that does not resolve is only spelled as given
  }
  return [...new Set([given, real])].sort((a, b) => b.length - a.length)
}

/** The workspace's path as a whole path component: `/ws` or `/ws/...`, never `/ws2`. */
function workspacePattern(workspace: string): RegExp {
  const alternatives = workspaceSpellings(workspace).map(escapeRegExp).join('|')
  return new RegExp(`(?:${alternatives})(?=$|[/\\s'"\\]\\[,;:)}])`, 'gm')
}

/** The entries of a virtualenv that can name a path Python imports or a script runs. */
function venvPathFiles(root: string): string[] {
  const out: string[] = []
  const list = (rel: string): string[] => {
    try {
      return readdirSync(path.join(root, rel))
    } catch {
      return []
    }
  }
  out.push('pyvenv.cfg')
  for (const name of list('bin')) out.push(`bin/${name}`)
  for (const lib of ['lib', 'lib64', 'Lib']) {
    for (const py of list(lib)) {
      const site = `${lib}/${py}/site-packages`
      for (const name of list(site)) {
        if (/\.(pth|egg-link|py)$/.test(name) || name.startsWith('__editable__')) out.push(`${site}/${name}`)
        if (name.endsWith('.dist-info')) out.push(`${site}/${name}/direct_url.json`)
      }
    }
    if (lib === 'Lib') for (const name of list(`${lib}/site-packages`)) if (/\.(pth|egg-link|py)$/.test(name)) out.push(`${lib}/site-packages/${name}`)
  }
  return out
}

/** Every symlink under `root` (not followed), relative to it. */
function symlinksUnder(root: string): string[] {
  const out: string[] = []
  const walk = (rel: string): void => {
    let entries
    try {
      entries = readdirSync(path.join(root, rel), { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name
      if (e.isSymbolicLink()) out.push(child)
      else if (e.isDirectory()) walk(child)
    }
  }
  walk('')
  return out
}

interface Redirect {
  /** The copy's root (a dependency folder). */
  copy: string
  /** The dependency folder's name, for the note (`.venv`). */
  name: string
  /** The workspace the folder was copied from. */
  workspace: string
  /** Where the gate's checkout is: paths into the workspace are made to name it instead. */
  checkout: string
  /** Whether text files of a virtualenv are rewritten too (not only symlinks). */
  virtualenv: boolean
}

/**
 * Makes a pristine dependency copy name the gate's checkout wherever it named the workspace: an
 * editable install's `.pth` line, `__editable__` finder or `.egg-link`, a script's `#!` line, an
 * absolute symlink. Without this the gate would import the agent's live workspace (gitignored
 * files included) instead of the commit under test. Returns the entries rewritten, relative to
 * the workspace (`.venv/lib/python3.11/site-packages/calc.pth`).
 */
export function redirectWorkspacePaths(r: Redirect): string[] {
  const pattern = workspacePattern(r.workspace)
  const spellings = workspaceSpellings(r.workspace)
  const rewritten: string[] = []
  for (const rel of symlinksUnder(r.copy)) {
    const link = path.join(r.copy, rel)
    const target = readlinkSync(link)
    if (!path.isAbsolute(target)) continue
    const inside = spellings.find((ws) => target === ws || target.startsWith(`${ws}/`))
    if (inside === undefined) continue
    unlinkSync(link)
    symlinkSync(path.join(r.checkout, path.relative(inside, target)), link)
    rewritten.push(`${r.name}/${rel}`)
  }
  if (!r.virtualenv) return rewritten
  for (const rel of venvPathFiles(r.copy)) {
    const file = path.join(r.copy, rel)
    let st
    try {
      st = lstatSync(file)
    } catch {
      continue
    }
    if (!st.isFile() || st.size > TEXT_FILE_LIMIT) continue
    const data = readFileSync(file)
    if (data.includes(0)) continue
    const text = data.toString('utf8')
    pattern.lastIndex = 0
    if (!pattern.test(text)) continue
    pattern.lastIndex = 0
    writeFileSync(
      file,
      text.replace(pattern, () => r.checkout)
    )
    rewritten.push(`${r.name}/${rel}`)
  }
  return rewritten
}

/** Whether a dependency folder is a virtualenv (its `pyvenv.cfg`). */
export function isVirtualenv(dir: string): boolean {
  try {
    return lstatSync(path.join(dir, 'pyvenv.cfg')).isFile()
  } catch {
    return false
  }
}

/**
 * Virtualenvs outside the workspace whose `bin` is on the gate's PATH and that name the workspace
 * (an editable install made into a runner-wide virtualenv): the gate cannot redirect those, so it
 * refuses them. Returns one phrase per file found (`/opt/venv/lib/…/calc.pth`).
 */
export function outsideVenvsNamingWorkspace(pathVar: string | undefined, workspace: string): string[] {
  const pattern = workspacePattern(workspace)
  const spellings = workspaceSpellings(workspace)
  const found: string[] = []
  for (const bin of new Set((pathVar ?? '').split(':').filter((d) => path.isAbsolute(d)))) {
    const venv = path.dirname(bin)
    if (spellings.some((ws) => venv === ws || venv.startsWith(`${ws}/`)) || !isVirtualenv(venv)) continue
    for (const rel of venvPathFiles(venv)) {
      if (rel.startsWith('bin/') || rel === 'pyvenv.cfg') continue
      const file = path.join(venv, rel)
      try {
        const st = lstatSync(file)
        if (!st.isFile() || st.size > TEXT_FILE_LIMIT) continue
        pattern.lastIndex = 0
        if (pattern.test(readFileSync(file, 'utf8'))) found.push(file)
      } catch {
        continue
      }
    }
  }
  return found
}
