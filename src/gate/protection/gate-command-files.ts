/**
 * The files a gate command runs or configures itself with: task files of the task runner it
 * calls, the script it runs (`./scripts/test.sh`, `bash ci/run.sh`, `node tools/gate.mjs`), files
 * it preloads (`node -r ./x.cjs`) and config files it names (`--config ci/jest.json`). Only the
 * program of each simple command and its options count, never its other arguments: a build step
 * naming `src/index.ts` must not protect the source the agent is there to fix.
 */

import { dependencyPathKind } from '../dependencies/dependency-path-kind.js'

/** Task runners and the files each reads its tasks from. */
const TASK_FILES: Record<string, readonly string[]> = {
  make: ['**/Makefile', '**/makefile', '**/GNUmakefile', '**/*.mk'],
  just: ['**/justfile', '**/Justfile', '**/JUSTFILE', '**/.justfile'],
  task: ['**/Taskfile.yml', '**/Taskfile.yaml', '**/taskfile.yml', '**/taskfile.yaml', '**/Taskfile.dist.yml', '**/Taskfile.dist.yaml'],
  tox: ['**/tox.ini'],
  nox: ['**/noxfile.py'],
  rake: ['**/Rakefile', '**/rakelib/**'],
  invoke: ['**/tasks.py'],
  nx: ['**/nx.json', '**/project.json'],
  turbo: ['**/turbo.json'],
  deno: ['**/deno.json', '**/deno.jsonc']
}
const ALIASES: Record<string, string> = { gmake: 'make', inv: 'invoke', 'go-task': 'task' }

/** Words that run the rest of the command line as a command of its own. */
const WRAPPERS = new Set(['env', 'sudo', 'time', 'exec', 'command', 'nice', 'nohup', 'xvfb-run', 'npx', 'bunx', 'pnpx', 'timeout'])
/** `<tool> run|exec <command>` runs the command. */
const RUNNERS = new Set(['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye', 'pixi', 'pnpm', 'yarn', 'npm', 'bun'])
/** Interpreters whose first operand is the script they run. */
const INTERPRETER = /^(?:ba|da|z|k)?sh$|^node(?:js)?$|^python(?:\d(?:\.\d+)?)?$|^pypy\d?$|^ruby$|^perl$|^tsx$|^ts-node$|^bun$|^deno$/
/** Options whose value is a file the program reads before anything else. */
const PRELOAD_OPTIONS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '--rcfile'])
const CONFIG_OPTIONS = new Set([
  '--config',
  '--config-file',
  '--configfile',
  '--setup-file',
  '--setupFiles',
  '-f',
  '--file',
  '--makefile',
  '--justfile',
  '--taskfile'
])
/** Extensions of an operand that names a script (as opposed to a word like `test`). */
const SCRIPT_FILE = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|ps1|mk|cfg|ini|toml|json|jsonc|ya?ml)$/i
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun'])
const NPM_TEST_ALIASES = new Set(['test', 't', 'tst', 'it', 'cit', 'install-test', 'clean-install-test', 'install-ci-test'])

/** `a/./b/../c` → `a/c`; null when the path leaves the workspace. */
function normalise(rel: string): string | null {
  const parts: string[] = []
  for (const part of rel.split('/')) {
    if (!part || part === '.') continue
    if (part === '..') {
      if (parts.pop() === undefined) return null
      continue
    }
    parts.push(part)
  }
  return parts.join('/') || null
}

/** A relative workspace file a word names, or null (absolute, computed, a URL, `./...`). */
function fileOf(value: string, cwd: string): string | null {
  if (!value || value.startsWith('-') || value.startsWith('/') || value.startsWith('~') || value.endsWith('/')) return null
  if (/[$`=]|:\/\/|\.\.\./.test(value)) return null
  return normalise(`${cwd}${value}`)
}

/** Simple commands (words, quotes dropped) of a command line, each with the directory it runs in. */
function simpleCommands(line: string): { words: string[]; cwd: string }[] {
  const out: { words: string[]; cwd: string }[] = []
  let cwd = ''
  for (const part of line.split(/&&|\|\||[;&|()\n]/)) {
    const words = part
      .replace(/["']/g, ' ')
      .split(/\s+/)
      .filter((w) => w && !/^\d*[<>]/.test(w))
    if (words[0] === 'cd' || words[0] === 'pushd') {
      // A computed or absolute directory: later paths stay relative to the workspace.
      const dir = words[1] && !words[1].startsWith('/') && !words[1].includes('$') ? normalise(`${cwd}${words[1]}`) : null
      cwd = dir ? `${dir}/` : ''
      continue
    }
    if (words.length) out.push({ words, cwd })
  }
  return out
}

interface CommandFiles {
  patterns: Set<string>
  /** package.json scripts the commands run (`npm test`, `yarn lint`, `pnpm run check`). */
  scripts: Set<string>
}

function scanCommand(words: string[], cwd: string, found: CommandFiles): void {
  let i = 0
  // Assignments, wrappers and the wrappers' own options and numbers (`timeout 60`).
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]) || WRAPPERS.has(words[i]) || (i > 0 && /^-|^\d+[smhd]?$/.test(words[i])))) i++
  const program = words[i]
  if (!program) return
  const name = program.slice(program.lastIndexOf('/') + 1)
  const args = words.slice(i + 1)
  if (RUNNERS.has(name) && (args[0] === 'run' || args[0] === 'exec') && !(PACKAGE_MANAGERS.has(name) && args[0] === 'run')) {
    return scanCommand(args.slice(1), cwd, found)
  }
  if (PACKAGE_MANAGERS.has(name)) {
    const sub = args.find((a) => !a.startsWith('-'))
    if (sub === undefined) return
    const after = args.slice(args.indexOf(sub) + 1).find((a) => !a.startsWith('-'))
    const target = ['run', 'run-script', 'rum', 'urn'].includes(sub) ? after : name === 'npm' ? undefined : sub
    if (NPM_TEST_ALIASES.has(sub)) found.scripts.add('test')
    else if (target) {
      found.scripts.add(target)
      // `bun run x.ts`, `yarn node x.js`-style: a file, not a script name.
      const file = target.includes('/') || SCRIPT_FILE.test(target) ? fileOf(target, cwd) : null
      if (file) found.patterns.add(file)
    }
    return
  }
  if (program.includes('/') || SCRIPT_FILE.test(program)) {
    const file = fileOf(program, cwd)
    if (file) found.patterns.add(file)
  }
  const tool = ALIASES[name] ?? name
  for (const p of TASK_FILES[tool] ?? []) found.patterns.add(p)
  const interpreter = INTERPRETER.test(name)
  for (let k = 0; k < args.length; k++) {
    const arg = args[k]
    const [option, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    if (PRELOAD_OPTIONS.has(option) || CONFIG_OPTIONS.has(option) || (option === '-c' && !interpreter)) {
      const file = fileOf(inline ?? args[++k] ?? '', cwd)
      if (file) found.patterns.add(file)
      continue
    }
    if (!interpreter || arg.startsWith('-')) continue
    // The interpreter's first operand: `python -m tox` runs a module, `bash -c …` inline code.
    if (args[k - 1] === '-m') return scanCommand(args.slice(k), cwd, found)
    if (args[k - 1] === '-c' && /sh$/.test(name)) return scanCommand(args.slice(k), cwd, found)
    if (args[k - 1] === '-c' || args[k - 1] === '-e' || args[k - 1] === '--eval') return
    if (name === 'deno' && (arg === 'run' || arg === 'test' || arg === 'task')) continue
    const file = fileOf(arg, cwd)
    if (file) found.patterns.add(file)
    return
  }
}

/** Escapes glob characters so a derived path matches only itself. */
function literal(file: string): string {
  return file.replace(/[*?[\]{}()!+@\\]/g, (c) => `\\${c}`)
}

/**
 * A dependency file a command names (`pip install -r requirements.txt`) is not protected whole:
 * the dependency policy holds it entry by entry, as `dependency-changes` says.
 */
function scan(lines: readonly (string | undefined)[]): CommandFiles {
  const found: CommandFiles = { patterns: new Set(), scripts: new Set() }
  for (const line of lines) if (line) for (const { words, cwd } of simpleCommands(line)) scanCommand(words, cwd, found)
  for (const p of found.patterns) if (!p.startsWith('**/') && dependencyPathKind(p) !== null) found.patterns.delete(p)
  return found
}

/** The task files and script paths the gate's commands name, as patterns. */
export function gateCommandPatterns(commands: readonly (string | undefined)[]): string[] {
  return [...scan(commands).patterns].map((p) => (p.startsWith('**/') ? p : literal(p)))
}

/**
 * What the package.json scripts the gate runs (with their pre/post scripts and the scripts they
 * run in turn) name, read from the base's package.json.
 */
export function packageScriptPatterns(commands: readonly (string | undefined)[], packageJson: string | null): string[] {
  let scripts: Record<string, unknown> = {}
  try {
    const data = JSON.parse(packageJson ?? '{}') as { scripts?: unknown }
    if (data && typeof data.scripts === 'object' && data.scripts) scripts = data.scripts as Record<string, unknown>
  } catch {
    return []
  }
  const patterns = new Set<string>()
  const seen = new Set<string>()
  let pending = [...scan(commands).scripts]
  while (pending.length) {
    const bodies: string[] = []
    for (const name of pending.flatMap((n) => [`pre${n}`, n, `post${n}`])) {
      if (seen.has(name) || !Object.hasOwn(scripts, name) || typeof scripts[name] !== 'string') continue
      seen.add(name)
      bodies.push(scripts[name] as string)
    }
    const found = scan(bodies)
    for (const p of found.patterns) patterns.add(p.startsWith('**/') ? p : literal(p))
    pending = [...found.scripts].filter((s) => !seen.has(s))
  }
  return [...patterns]
}
