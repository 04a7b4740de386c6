import { agentSpecs } from '../agents/registry.js'
import { INPUT_SPECS } from '../contract.js'
import { ConfigError, readSettings } from '../inputs.js'
import type { IterationRecord } from '../loop/engine.js'
import { exitCodeFor, stopReasonEntry, STOP_REASONS } from '../loop/stop-reasons.js'
import { DryRunPublisher } from '../publish/dry-run.js'
import { defaultRunId, defaultTempDir, executeRun } from '../run.js'

const CLI_ONLY = [
  { name: 'workspace', description: 'The git repository to work in.', default: 'the current directory' },
  { name: 'temp-dir', description: 'Where the run folder (attempt log, ledger, would-be PR / issue bodies) goes.', default: '$RUNNER_TEMP or the OS temp dir' }
]
/** Inputs that make no sense locally: the CLI publishes nothing and holds no GitHub token. */
const ACTION_ONLY = new Set(['github-token', 'dry-run', 'on-success', 'on-escalate', 'escalate-to', 'labels', 'reviewers', 'draft', 'max-open-prs', 'max-runs-per-pr', 'allow-pull-request-target', 'comment-command'])

export class UsageError extends Error {}

/** Parses `--name value`, `--name=value` and bare `--flag` (true) into input names. */
export function parseFlags(argv: string[]): Map<string, string> {
  const known = new Set([...INPUT_SPECS.map((s) => s.name), ...CLI_ONLY.map((s) => s.name), 'help'])
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument: ${arg}`)
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2)
    if (!known.has(name)) throw new UsageError(`unknown option --${name} (see loopgate run --help)`)
    if (eq > 0) flags.set(name, arg.slice(eq + 1))
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags.set(name, argv[++i])
    else flags.set(name, 'true')
  }
  return flags
}

export function helpText(): string {
  const options = [...INPUT_SPECS.filter((s) => !ACTION_ONLY.has(s.name)), ...CLI_ONLY]
  const width = Math.max(...options.map((o) => o.name.length)) + 2
  const lines = [
    'loopgate run — the bounded agent loop on your machine (publishes nothing)',
    '',
    'usage: loopgate run --gate-command CMD (--prompt TEXT | --prompt-file FILE) [options]',
    '',
    'options (the action\'s inputs, same defaults):'
  ]
  for (const o of options) {
    const def = 'default' in o && o.default !== undefined ? ` [default: ${o.default}]` : ''
    lines.push(`  --${o.name.padEnd(width)}${o.description}${def}`)
  }
  const keys = agentSpecs().flatMap((spec) => (spec.apiKey ? [spec.apiKey] : []))
  const keyFlags = keys.map((k) => `--${k.input}`).join(' / ')
  lines.push('', `API keys: ${keyFlags}, or ${keys.map((k) => k.env).join(' / ')} in the environment.`, '', 'exit status (one per stop reason):')
  for (const reason of STOP_REASONS) lines.push(`  ${String(exitCodeFor(reason)).padStart(3)}  ${reason.padEnd(20)} ${stopReasonEntry(reason).what}`)
  lines.push('    2  (usage error)')
  return `${lines.join('\n')}\n`
}

const usd = (n: number): string => `$${n.toFixed(2)}`

/** One line per iteration for a terminal: short, with marks. */
export function ttyLine(r: IterationRecord, maxIterations: number, ceiling: number): string {
  const agent = r.agent.status === 'claimed-done' ? 'agent done' : `agent ${r.agent.status} (${r.agent.reason})`
  const gate = !r.gate ? 'gate –' : r.gate.passed ? 'gate ✓' : `gate ✗ ${r.gate.fingerprint ?? ''} ${r.gate.failures.length ? `${r.gate.failures.length} failing` : r.gate.reason}`.trim()
  const files = r.changedFiles.length ? `${r.changedFiles.length} file(s)` : 'no change'
  const rejected = r.rejected.length ? ` · ⚠ ${r.rejected.length} rejected` : ''
  return `▸ ${r.iteration}/${maxIterations} · ${agent} · ${files} · ${gate}${rejected} · ${usd(r.spentUsd)}/${usd(ceiling)}`
}

export interface CliIO {
  out: (text: string) => void
  err: (text: string) => void
  isTTY: boolean
  env: NodeJS.ProcessEnv
}

const defaultIO: CliIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  isTTY: process.stdout.isTTY === true,
  env: process.env
}

export async function runCli(argv: string[], io: CliIO = defaultIO): Promise<number> {
  const [command, ...rest] = argv
  if (command === '--help' || command === '-h' || command === 'help' || (command === 'run' && rest.includes('--help'))) {
    io.out(helpText())
    return 0
  }
  if (command !== 'run') {
    io.err(`usage: loopgate run --gate-command CMD --prompt TEXT [options]; loopgate --help lists them\n`)
    return 2
  }
  let flags: Map<string, string>
  try {
    flags = parseFlags(rest)
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n`)
      return 2
    }
    throw err
  }
  const env = io.env
  for (const spec of agentSpecs()) {
    const key = spec.apiKey
    if (key && !flags.has(key.input) && env[key.env]) flags.set(key.input, env[key.env] as string)
  }
  flags.set('dry-run', 'true')
  flags.delete('github-token')
  let settings
  try {
    settings = readSettings((name) => flags.get(name) ?? '', { ...env, GITHUB_WORKSPACE: flags.get('workspace') ?? process.cwd() })
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`config-error: ${err.message}\n`)
      io.out('stop-reason: config-error\n')
      return exitCodeFor('config-error')
    }
    throw err
  }
  const abort = new AbortController()
  const onSignal = (): void => abort.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const report = await executeRun(settings, {
      env,
      runId: defaultRunId(env),
      tempDir: flags.get('temp-dir') ?? defaultTempDir(env),
      publisher: new DryRunPublisher(),
      signal: abort.signal,
      report: (line) => io.out(`${line}\n`),
      onIteration: (record) =>
        io.out(`${io.isTTY ? ttyLine(record, settings.maxIterations, settings.spendCeilingUsd) : `iteration ${record.iteration}: ${record.decision}; spent ${usd(record.spentUsd)}; ${record.gate ? (record.gate.passed ? 'gate passed' : `gate failed (${record.gate.reason})`) : 'gate not run'}`}\n`)
    })
    io.out(`stop-reason: ${report.stopReason}\n`)
    io.out(`${stopReasonEntry(report.stopReason).what} ${stopReasonEntry(report.stopReason).action}\n`)
    io.out(`attempt log: ${report.logFile}\n`)
    for (const file of report.published.files) io.out(`would publish: ${file}\n`)
    return exitCodeFor(report.stopReason)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    io.err(`config-error: ${err.message}\n`)
    io.out('stop-reason: config-error\n')
    return exitCodeFor('config-error')
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
}
