import { parseArgs } from 'node:util'
import { INPUT_SPECS } from '../contract.js'

/** Options of the CLI that are not action inputs. */
const CLI_ONLY = [
  { name: 'workspace', description: 'The git repository to work in.', default: 'the current directory' },
  { name: 'temp-dir', description: 'Where the run folder (attempt log, ledger, would-be PR / issue bodies) goes.', default: '$RUNNER_TEMP or the OS temp dir' }
] as const

/** Inputs that make no sense locally: the CLI publishes nothing and holds no GitHub token. */
export const ACTION_ONLY = new Set([
  'github-token',
  'dry-run',
  'on-success',
  'on-escalate',
  'escalate-to',
  'labels',
  'reviewers',
  'draft',
  'max-open-prs',
  'max-runs-per-pr',
  'allow-pull-request-target',
  'comment-command',
  'allow-users',
  'allow-bots',
  'dependency-bots',
  'sign-commits'
])

/** Every `--name value` option of `loopgate run`: the action's inputs that apply locally, then the CLI's own. */
export const RUN_OPTIONS: readonly { name: string; description: string; default?: string }[] = [
  ...INPUT_SPECS.filter((s) => !ACTION_ONLY.has(s.name)),
  ...CLI_ONLY
]

export class UsageError extends Error {}

type Command = { kind: 'help' } | { kind: 'version' } | { kind: 'run-help' } | { kind: 'run'; flags: Map<string, string> }

/** Reads the command line: `--help`, `--version`, or `run` with its options. */
export function parseCommand(argv: string[]): Command {
  const [command, ...rest] = argv
  if (command === undefined) throw new UsageError('no command given')
  if (command === '--help' || command === '-h' || command === 'help') return { kind: 'help' }
  if (command === '--version' || command === '-V' || command === 'version') return { kind: 'version' }
  if (command !== 'run') throw new UsageError(`unknown command ${JSON.stringify(command)}`)
  const flags = parseRunOptions(rest)
  return flags === 'help' ? { kind: 'run-help' } : { kind: 'run', flags }
}

const STRING_OPTIONS = new Set(RUN_OPTIONS.map((o) => o.name))

/** Options that take no value: `--fresh` is `--resume false`. */
export const CLI_SWITCHES = [
  { name: 'fresh', description: "start from the base, not from the loop's unfinished work (--resume false)" },
  { name: 'verbose', description: 'also print the resolved protected globs' }
] as const

const SWITCH_TOKENS = new Set<string>(CLI_SWITCHES.map((s) => `--${s.name}`))

function isOptionToken(arg: string): boolean {
  if (arg === '-h' || arg === '--help' || SWITCH_TOKENS.has(arg)) return true
  if (!arg.startsWith('--')) return false
  const eq = arg.indexOf('=')
  const name = arg.slice(2, eq > 0 ? eq : undefined)
  return STRING_OPTIONS.has(name) || ACTION_ONLY.has(name)
}

/**
 * `--name value` for a value that itself starts with a dash (`--agent-args '--model x'`) is
 * ambiguous to parseArgs; a value is whatever follows unless it is one of our own options, so
 * it is rewritten to `--name=value` first. A missing value is a usage error, never "true".
 */
function joinValues(argv: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined
    if (name === undefined || !STRING_OPTIONS.has(name)) {
      out.push(arg)
      continue
    }
    const next = argv[i + 1]
    if (next === undefined || isOptionToken(next)) throw new UsageError(`option --${name} needs a value`)
    out.push(`--${name}=${next}`)
    i++
  }
  return out
}

/** The run's options: `--name value` pairs, and the switches (`--verbose` is kept as the flag `verbose`). */
function parseRunOptions(argv: string[]): Map<string, string> | 'help' {
  const switches = new Set<string>()
  for (const arg of argv) {
    if (!SWITCH_TOKENS.has(arg)) continue
    if (switches.has(arg)) throw new UsageError(`option ${arg} is given more than once`)
    switches.add(arg)
  }
  const flags = parseValueOptions(argv.filter((a) => !SWITCH_TOKENS.has(a)))
  if (flags === 'help') return flags
  if (switches.has('--fresh')) {
    if (flags.has('resume')) throw new UsageError('--fresh and --resume say the same thing: give one of them')
    flags.set('resume', 'false')
  }
  if (switches.has('--verbose')) flags.set('verbose', 'true')
  return flags
}

function parseValueOptions(argv: string[]): Map<string, string> | 'help' {
  const args = joinValues(argv)
  for (const arg of args) {
    if (arg === '--') throw new UsageError('unexpected argument: --')
    const name = arg.startsWith('--') ? arg.slice(2).split('=')[0] : undefined
    if (name !== undefined && ACTION_ONLY.has(name)) {
      throw new UsageError(`--${name} is an action input with no meaning locally (the CLI publishes nothing)`)
    }
  }
  let parsed
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(RUN_OPTIONS.map((o) => [o.name, { type: 'string' as const, multiple: true }]))
      }
    })
  } catch (err) {
    throw new UsageError(usageMessage(err))
  }
  if (parsed.values.help) return 'help'
  const flags = new Map<string, string>()
  for (const [name, value] of Object.entries(parsed.values)) {
    if (!Array.isArray(value)) continue
    if (value.length > 1) throw new UsageError(`option --${name} is given ${value.length} times`)
    flags.set(name, value[0])
  }
  return flags
}

/** parseArgs's messages speak of its own API; ours name the option as the user typed it. */
function usageMessage(err: unknown): string {
  const code = (err as { code?: string }).code
  const message = err instanceof Error ? err.message : String(err)
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message
    return `unknown option ${option}`
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /'([^']+)'/.exec(message)?.[1] ?? message
    return `unexpected argument: ${arg}`
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = /(--[a-z-]+|-[a-zA-Z])/.exec(message)?.[1] ?? 'an option'
    return `option ${option} takes no value`
  }
  return message
}
