/**
 * loopgate's own report channel: for a gate command that runs a test runner loopgate knows, the
 * same command with loopgate's report option added, so the runner writes its results to a file
 * loopgate chose (outside the checkout, fresh each run). Counts and outcomes are then read from
 * that file only, never from console text another process could print.
 */
import { baseName, commandSegments, quoted, simpleWords, withoutPrefix } from './command-words.js'
import { managerCall, scriptArguments } from './package-scripts.js'
import { unittestCommand, type WriterKind } from './result-writer.js'
import { preloadEnv } from './runner-preload.js'

export type ChannelRunner = 'pytest' | 'jest' | 'vitest' | 'mocha' | 'node:test' | 'unittest' | 'django'

interface ReportChannel {
  runner: ChannelRunner
  /** The gate command with the report option added. */
  command: string
  /** Options the runner reads from its environment, added to the gate's (see channelEnv). */
  env?: Record<string, string>
  /** The result writer loopgate places beside the report, for a runner that has no report of its own. */
  writer?: WriterKind
  /** The runner's filter options (`extra`) could not be passed: the command runs every test. */
  unfiltered?: boolean
}

/** The report option each runner takes on its command line (the file loopgate reads after the run), as shell words or raw. */
function reportArgs(runner: ChannelRunner, file: string, raw = false): string[] {
  const f = raw ? file : quoted(file)
  switch (runner) {
    case 'pytest':
      return [`--junitxml=${f}`, '-o', 'junit_family=xunit2']
    case 'jest':
      return ['--json', `--outputFile=${f}`]
    case 'vitest':
      return ['--reporter=default', '--reporter=json', `--outputFile.json=${f}`]
    case 'mocha':
      return ['--reporter=xunit', `--reporter-option=output=${f}`]
    case 'node:test':
      return ['--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=junit', `--test-reporter-destination=${f}`]
    case 'unittest':
    case 'django':
      return []
  }
}

/**
 * The runners that read their report option from the environment too, wherever a script puts its
 * files; jest, vitest and mocha through loopgate's preload, when there is one.
 */
function reportEnv(runner: ChannelRunner, file: string, preload?: string): Record<string, string> | null {
  if ((runner === 'jest' || runner === 'vitest' || runner === 'mocha') && preload) return preloadEnv(preload, runner, reportArgs(runner, file, true))
  if (runner === 'pytest') return { PYTEST_ADDOPTS: `--junitxml=${quoted(file)} -o junit_family=xunit2` }
  // node reads NODE_OPTIONS in every process; only a test runner's reads the reporters.
  const f = `"${file.replace(/["\\]/g, '\\$&')}"`
  if (runner === 'node:test')
    return { NODE_OPTIONS: `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=${f}` }
  return null
}

const JS_RUNNERS: Record<string, ChannelRunner> = { jest: 'jest', vitest: 'vitest', mocha: 'mocha', _mocha: 'mocha' }
const PYTHON = /^python(?:3(?:\.\d+)?)?$/

/** The runner a node script path starts (`node_modules/jest/bin/jest.js`, `node_modules/.bin/vitest`). */
function runnerOfScript(script: string): ChannelRunner | null {
  const bin = /(?:^|\/)node_modules\/(?:\.bin\/([\w-]+)|(jest|vitest|mocha)\/(?:bin\/[\w.-]+|vitest\.mjs))$/.exec(script)
  const name = bin?.[1] ?? bin?.[2]
  return name ? (JS_RUNNERS[name] ?? null) : null
}

/** `python -m unittest …`, `python manage.py test …`: the runner and the index of its first argument. */
function pythonRunner(program: string, rest: string[], at: number): { runner: ChannelRunner; at: number } | null {
  if (!PYTHON.test(program)) return null
  if (rest[0] === '-m' && rest[1] === 'pytest') return { runner: 'pytest', at: Infinity }
  if (rest[0] === '-m' && rest[1] === 'unittest') return { runner: 'unittest', at: at + 3 }
  if (baseName(rest[0] ?? '') === 'manage.py' && rest[1] === 'test') return { runner: 'django', at: at + 3 }
  return null
}

/**
 * Which runner a simple command (words, no shell syntax) starts, and where loopgate's options go:
 * `at` is the index they are inserted at (node reads options only before its first file).
 */
export function runnerOf(words: string[]): { runner: ChannelRunner; at: number } | null {
  const { at: i, words: command } = withoutPrefix(words)
  const program = command[0] === undefined ? '' : baseName(command[0])
  const rest = command.slice(1)
  const end = (runner: ChannelRunner | null): { runner: ChannelRunner; at: number } | null => (runner ? { runner, at: words.length } : null)
  if (program === 'pytest' || program === 'py.test') return end('pytest')
  const python = pythonRunner(program, rest, i)
  if (python) return python.at === Infinity ? end(python.runner) : python
  if (JS_RUNNERS[program] && !command[0].includes('/')) return end(JS_RUNNERS[program])
  if (runnerOfScript(command[0] ?? '')) return end(runnerOfScript(command[0]))
  if (program !== 'node') return null
  if (rest.some((w) => w.startsWith('--test-reporter'))) return null
  const test = rest.indexOf('--test')
  if (test >= 0 && rest.slice(0, test).every((w) => w.startsWith('-'))) return { runner: 'node:test', at: i + 1 + test + 1 }
  const script = rest.find((w) => !w.startsWith('-'))
  return end(script && rest.slice(0, rest.indexOf(script)).every((w) => w.startsWith('-')) ? runnerOfScript(script) : null)
}

/** The report file, and more options of the same runner to pass beside it (a rerun's filter, shell words). */
interface ChannelArgs {
  file: string
  extra?: readonly string[]
  /** loopgate's runner preload (runner-preload.ts), for a runner a script's arguments cannot reach. */
  preload?: string
}

/** A runner started by the words themselves, with loopgate's option (or its result writer) put in place. */
function directChannel(words: string[], file: string, extra: readonly string[]): ReportChannel | null {
  const direct = runnerOf(words)
  if (!direct) return null
  const { runner, at } = direct
  if (runner === 'unittest' || runner === 'django') {
    const writer: WriterKind = runner
    const rewritten = unittestCommand(writer, { words, at, file })
    return { runner, command: rewritten.command, env: rewritten.env, writer, unfiltered: extra.length > 0 }
  }
  const args = [...reportArgs(runner, file), ...extra]
  return { runner, command: [...words.slice(0, at), ...args, ...words.slice(at)].join(' ') }
}

/**
 * The last command of a script, after its last `&&` or `;`, when it is a simple command: the
 * arguments a package manager appends to the script reach it alone.
 */
function lastCommand(script: string): string[] | null {
  const and = script.lastIndexOf('&&')
  const semicolon = script.lastIndexOf(';')
  return simpleWords(script.slice(Math.max(and < 0 ? 0 : and + 2, semicolon < 0 ? 0 : semicolon + 1)))
}

/** Whether the arguments appended to a script reach a runner as its own last ones (`tsc && jest --ci`). */
function endsWithRunner(script: string, scripts: Record<string, unknown> | undefined): boolean {
  const tail = lastCommand(script)
  if (!tail) return false
  const call = managerCall(tail, scripts)
  if (call?.kind === 'script') return false
  const words = call?.kind === 'bin' ? call.words : tail
  return runnerOf(words)?.at === words.length
}

/**
 * The runner a package script starts, through scripts it calls in turn; null when none or several.
 * `last`: the script's appended arguments reach it (never through a script it calls: npm would take
 * them as its own).
 */
function scriptRunner(script: string, scripts: Record<string, unknown> | undefined, depth: number): { runner: ChannelRunner; last: boolean } | null {
  const found: ChannelRunner[] = []
  for (const segment of commandSegments(script)) {
    const direct = runnerOf(segment)
    if (direct) found.push(direct.runner)
    const call = depth < 3 ? managerCall(segment, scripts) : null
    const inner = call?.kind === 'script' ? scriptRunner(call.script, scripts, depth + 1) : null
    if (inner) found.push(inner.runner)
    const bin = call?.kind === 'bin' ? runnerOf(call.words) : null
    if (bin) found.push(bin.runner)
  }
  return found.length === 1 ? { runner: found[0], last: endsWithRunner(script, scripts) } : null
}

/**
 * The gate command with loopgate's report option, or null when loopgate does not know the runner or
 * cannot add the option safely. `scripts` are the `package.json` scripts of the checkout (at base:
 * they are protected), for `npm test`, `pnpm run NAME`, `yarn NAME` and the like: a script that
 * ends with its runner's arguments gets the option appended; a script that starts pytest or
 * node:test anywhere in it (`node --test test/`, `tsc && pytest`) gets it through the environment.
 */
export function withReportChannel(command: string, channel: string | ChannelArgs, scripts?: Record<string, unknown>): ReportChannel | null {
  const { file, extra = [], preload } = typeof channel === 'string' ? { file: channel } : channel
  const words = simpleWords(command)
  if (!words) return null
  const call = managerCall(words, scripts)
  if (call?.kind === 'bin') {
    const bin = runnerOf(call.words)
    if (!bin || bin.at !== call.words.length || bin.runner === 'unittest' || bin.runner === 'django') return null
    return { runner: bin.runner, command: [...words, ...reportArgs(bin.runner, file), ...extra].join(' ') }
  }
  if (!call) return directChannel(words, file, extra)
  const found = scriptRunner(call.script, scripts, 0)
  if (!found || found.runner === 'unittest' || found.runner === 'django') return null
  const env = found.last && !reportEnv(found.runner, file) ? null : reportEnv(found.runner, file, preload)
  if (found.last && !env)
    return { runner: found.runner, command: [...words, ...scriptArguments(call.manager, [...reportArgs(found.runner, file), ...extra])].join(' ') }
  return env ? { runner: found.runner, command: words.join(' '), env, unfiltered: extra.length > 0 } : null
}
