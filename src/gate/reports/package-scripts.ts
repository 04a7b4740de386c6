import { baseName, withoutPrefix } from './command-words.js'

type ScriptManager = 'npm' | 'pnpm' | 'yarn'

/** A package manager's call as the gate command reads it. */
type ManagerCall =
  /** A `package.json` script: `npm test`, `pnpm run unit`, `yarn test`. */
  | { kind: 'script'; manager: ScriptManager; name: string; script: string }
  /** A program from the project's `node_modules/.bin`: `pnpm vitest run`, `yarn exec jest`, `npx mocha`. */
  | { kind: 'bin'; manager: ScriptManager; words: string[] }

/** Flags of the managers' own that change nothing loopgate reads (output and a missing script). */
const QUIET = /^(?:--silent|-s|--quiet|-q|--if-present|--loglevel=\w+|--reporter=silent)$/
const NPX_FLAGS = /^(?:--no-install|--no|-y|--yes|--offline)$/

/**
 * `npm test`, `npm t`, `npm run NAME`, `npm run-script NAME`; `pnpm test`, `pnpm run NAME`,
 * `pnpm NAME`, `pnpm exec BIN`, `pnpm BIN`; `yarn test`, `yarn run NAME`, `yarn NAME`, `yarn exec
 * BIN`, `yarn BIN`; `npx BIN`. A script is looked up in `scripts` (the checkout's `package.json`);
 * a name that is no script is a program for pnpm and yarn, which run it from `node_modules/.bin`.
 * Recursive and filtered forms (`pnpm -r test`, `yarn workspaces foreach`) are none of these.
 */
export function managerCall(command: string[], scripts: Record<string, unknown> | undefined): ManagerCall | null {
  const { words } = withoutPrefix(command)
  const program = baseName(words[0] ?? '')
  if (program === 'npx') {
    let i = 1
    while (i < words.length && NPX_FLAGS.test(words[i])) i++
    return i < words.length ? { kind: 'bin', manager: 'npm', words: words.slice(i) } : null
  }
  if (program !== 'npm' && program !== 'pnpm' && program !== 'yarn') return null
  const manager: ScriptManager = program
  const rest = words.slice(1).filter((w) => !QUIET.test(w))
  if (rest.length === 0 || rest[0].startsWith('-')) return null
  const script = (name: string | undefined): ManagerCall | null => {
    const text = name === undefined ? undefined : scripts?.[name]
    return typeof text === 'string' ? { kind: 'script', manager, name: name!, script: text } : null
  }
  const [first, second] = rest
  if (manager === 'npm') {
    if ((first === 'test' || first === 't' || first === 'tst') && rest.length === 1) return script('test')
    if ((first === 'run' || first === 'run-script') && rest.length === 2) return script(second)
    if (first === 'exec' && second === '--' && rest.length > 2) return { kind: 'bin', manager, words: rest.slice(2) }
    return null
  }
  if (first === 'run' || first === 'run-script') return rest.length === 2 ? script(second) : null
  if (first === 'exec') return rest.length > 1 ? { kind: 'bin', manager, words: rest.slice(1) } : null
  if ((first === 't' || first === 'test') && rest.length === 1 && manager === 'pnpm') return script('test')
  if (rest.length === 1 && script(first)) return script(first)
  // pnpm and yarn run a script of that name when there is one, else the program.
  return scripts && typeof scripts[first] === 'string' ? null : { kind: 'bin', manager, words: rest }
}

/**
 * How the manager passes more arguments to a script: npm after `--`, pnpm and Yarn as they are
 * (both would hand a `--` on to the script).
 */
export function scriptArguments(manager: ScriptManager, args: string[]): string[] {
  return manager === 'npm' ? ['--', ...args] : args
}
