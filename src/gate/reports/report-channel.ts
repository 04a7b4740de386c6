/**
 * loopgate's own report channel: for a gate command that runs a test runner loopgate knows, the
 * same command with loopgate's report option added, so the runner writes its results to a file
 * loopgate chose (outside the checkout, fresh each run). Counts and outcomes are then read from
 * that file only, never from console text another process could print.
 */

export type ChannelRunner = 'pytest' | 'jest' | 'vitest' | 'mocha' | 'node:test'

export interface ReportChannel {
  runner: ChannelRunner
  /** The gate command with the report option added. */
  command: string
}

/** Shell syntax that makes appending arguments unsafe (lists, pipes, redirections, expansions, comments). */
const UNSAFE = /[;&|<>()`$\\\n#]/

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/

function quoted(file: string): string {
  return `'${file.replace(/'/g, `'\\''`)}'`
}

/** The report option each runner takes (the file loopgate reads after the run). */
function reportArgs(runner: ChannelRunner, file: string): string[] {
  const f = quoted(file)
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
  }
}

const base = (word: string): string => word.slice(word.lastIndexOf('/') + 1)

const JS_RUNNERS: Record<string, ChannelRunner> = { jest: 'jest', vitest: 'vitest', mocha: 'mocha', _mocha: 'mocha' }

/** The runner a node script path starts (`node_modules/jest/bin/jest.js`, `node_modules/.bin/vitest`). */
function runnerOfScript(script: string): ChannelRunner | null {
  const bin = /(?:^|\/)node_modules\/(?:\.bin\/([\w-]+)|(jest|vitest|mocha)\/(?:bin\/[\w.-]+|vitest\.mjs))$/.exec(script)
  const name = bin?.[1] ?? bin?.[2]
  return name ? (JS_RUNNERS[name] ?? null) : null
}

/**
 * Which runner a simple command (words, no shell syntax) starts, and where loopgate's options go:
 * `at` is the index they are inserted at (node reads options only before its first file).
 */
function runnerOf(words: string[]): { runner: ChannelRunner; at: number } | null {
  let i = 0
  while (i < words.length && ENV_ASSIGNMENT.test(words[i])) i++
  const program = words[i] === undefined ? '' : base(words[i])
  const rest = words.slice(i + 1)
  if (program === 'pytest' || program === 'py.test') return { runner: 'pytest', at: words.length }
  if (/^python(?:3(?:\.\d+)?)?$/.test(program) && rest[0] === '-m' && rest[1] === 'pytest') return { runner: 'pytest', at: words.length }
  if (JS_RUNNERS[program] && !words[i].includes('/')) return { runner: JS_RUNNERS[program], at: words.length }
  if (runnerOfScript(words[i] ?? '')) return { runner: runnerOfScript(words[i])!, at: words.length }
  if (program === 'npx') {
    let j = 0
    while (j < rest.length && /^(?:--no-install|--no|-y|--yes|--offline)$/.test(rest[j])) j++
    const runner = JS_RUNNERS[rest[j] ?? '']
    return runner ? { runner, at: words.length } : null
  }
  if (program === 'node') {
    if (rest.some((w) => w.startsWith('--test-reporter'))) return null
    const test = rest.indexOf('--test')
    if (test >= 0 && rest.slice(0, test).every((w) => w.startsWith('-'))) return { runner: 'node:test', at: i + 1 + test + 1 }
    const script = rest.find((w) => !w.startsWith('-'))
    const runner = script && rest.slice(0, rest.indexOf(script)).every((w) => w.startsWith('-')) ? runnerOfScript(script) : null
    return runner ? { runner, at: words.length } : null
  }
  return null
}

function simpleWords(command: string): string[] | null {
  if (UNSAFE.test(command)) return null
  const words = command.trim().split(/\s+/).filter(Boolean)
  // a quoted word must be whole (no space inside), so inserting words keeps each one intact
  if (words.some((w) => /["']/.test(w) && !/^(["'])[^"']*\1$/.test(w))) return null
  return words.length ? words : null
}

/** `npm test`, `npm t`, `npm run test`, `npm run-script NAME`, with npm's own flags before the name. */
function npmScript(words: string[]): string | null {
  if (base(words[0]) !== 'npm') return null
  const rest = words.slice(1).filter((w) => !/^(?:--silent|-s|--quiet|-q|--if-present)$/.test(w))
  if (rest.length === 1 && (rest[0] === 'test' || rest[0] === 't')) return 'test'
  if (rest.length === 2 && (rest[0] === 'run' || rest[0] === 'run-script')) return rest[1]
  return null
}

/** The report file, and more options of the same runner to pass beside it (a rerun's filter, shell words). */
export interface ChannelArgs {
  file: string
  extra?: readonly string[]
}

/**
 * The gate command with loopgate's report option, or null when loopgate does not know the runner or
 * cannot add the option safely. `scripts` are the `package.json` scripts of the checkout (at base:
 * they are protected), for `npm test` and `npm run NAME`.
 */
export function withReportChannel(command: string, channel: string | ChannelArgs, scripts?: Record<string, unknown>): ReportChannel | null {
  const { file, extra = [] } = typeof channel === 'string' ? { file: channel } : channel
  const words = simpleWords(command)
  if (!words) return null
  const direct = runnerOf(words)
  if (direct) {
    const args = [...reportArgs(direct.runner, file), ...extra]
    return { runner: direct.runner, command: [...words.slice(0, direct.at), ...args, ...words.slice(direct.at)].join(' ') }
  }
  const name = npmScript(words)
  const script = name ? scripts?.[name] : undefined
  if (typeof script !== 'string') return null
  const inner = simpleWords(script)
  const runner = inner ? runnerOf(inner) : null
  // npm appends what follows `--` to the script: only safe where options may come last.
  if (!runner || runner.at !== inner!.length) return null
  return { runner: runner.runner, command: [...words, '--', ...reportArgs(runner.runner, file), ...extra].join(' ') }
}
