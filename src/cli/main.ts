import { statSync } from 'node:fs'
import path from 'node:path'
import { agentSpecs } from '../agents/registry.js'
import { usd } from '../format.js'
import { ConfigError, readSettings, type Settings } from '../inputs.js'
import type { IterationRecord } from '../loop/types.js'
import { exitCodeFor, stopReasonEntry, STOP_REASONS } from '../loop/stop-reasons.js'
import { DryRunPublisher } from '../publish/dry-run.js'
import { defaultRunId, defaultTempDir } from '../run.js'
import { runSession, type SessionEnd } from '../session/flow.js'
import { VERSION } from '../version.js'
import { parseCommand, RUN_OPTIONS, UsageError } from './args.js'

export { UsageError } from './args.js'

export function helpText(): string {
  const options = RUN_OPTIONS
  const width = Math.max(...options.map((o) => o.name.length)) + 2
  const lines = [
    'loopgate run — the bounded agent loop on your machine (publishes nothing)',
    '',
    'usage: loopgate run --gate-command CMD (--prompt TEXT | --prompt-file FILE) [options]',
    '       loopgate --version',
    '',
    "options (the action's inputs, same defaults):"
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

/** Why the folder the loop would work in cannot be one, said for a person at a terminal. */
function workspaceProblem(dir: string): string | undefined {
  let isDir: boolean
  try {
    isDir = statSync(dir).isDirectory()
  } catch {
    return `${dir} does not exist (set --workspace to a git repository, or run loopgate inside one)`
  }
  if (!isDir) return `${dir} is not a folder (set --workspace to a git repository)`
  try {
    statSync(path.join(dir, '.git'))
  } catch {
    return `${dir} is not a git repository (no .git at its top): run loopgate in a repository's top folder, or point --workspace at one`
  }
  return undefined
}

/** A note as one terminal line: no newlines, no control characters (paths and output can carry them). */
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()

/** One line per iteration for a terminal: short, with marks. */
export function ttyLine(r: IterationRecord, maxIterations: number, ceiling: number): string {
  const agent = r.agent.status === 'claimed-done' ? 'agent done' : `agent ${r.agent.status} (${r.agent.reason})`
  const gate = !r.gate
    ? 'gate –'
    : r.gate.passed
      ? 'gate ✓'
      : `gate ✗ ${r.gate.fingerprint ?? ''} ${r.gate.failures.length ? `${r.gate.failures.length} failing` : r.gate.reason}`.trim()
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

const USAGE = 'usage: loopgate run --gate-command CMD --prompt TEXT [options]; loopgate run --help lists them'

export async function runCli(argv: string[], io: CliIO = defaultIO): Promise<number> {
  let command
  try {
    command = parseCommand(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    io.err(`loopgate: ${err.message}\n${USAGE}\n`)
    return 2
  }
  if (command.kind === 'help' || command.kind === 'run-help') {
    io.out(helpText())
    return 0
  }
  if (command.kind === 'version') {
    io.out(`${VERSION}\n`)
    return 0
  }
  const read = cliSettings(command.flags, io)
  if (typeof read === 'number') return read
  const { settings, flags } = read
  const env = io.env
  const abort = new AbortController()
  const onSignal = (): void => abort.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const end = await runSession(settings, {
      env,
      runId: defaultRunId(env),
      tempDir: flags.get('temp-dir') ?? defaultTempDir(env),
      signal: abort.signal,
      report: (line) => io.out(`${line}\n`),
      integrate: async (s) => ({ settings: s, publisher: new DryRunPublisher() }),
      onIteration: (record) =>
        io.out(
          `${io.isTTY ? ttyLine(record, settings.maxIterations, settings.spendCeilingUsd) : `iteration ${record.iteration}: ${record.decision}; spent ${usd(record.spentUsd)}; ${record.gate ? (record.gate.passed ? 'gate passed' : `gate failed (${record.gate.reason})`) : 'gate not run'}`}\n`
        )
    })
    return printEnd(end, io)
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
}

/** The run's settings from the flags (the API keys from the environment when not given), or the exit status of a config-error. */
function cliSettings(flags: Map<string, string>, io: CliIO): { settings: Settings; flags: Map<string, string> } | number {
  const problem = workspaceProblem(path.resolve(flags.get('workspace') ?? process.cwd(), flags.get('working-directory') ?? ''))
  if (problem) return configError(problem, io)
  const env = io.env
  for (const spec of agentSpecs()) {
    const key = spec.apiKey
    if (key && !flags.has(key.input) && env[key.env]) flags.set(key.input, env[key.env] as string)
  }
  flags.set('dry-run', 'true')
  flags.delete('github-token')
  try {
    return { settings: readSettings((name) => flags.get(name) ?? '', { ...env, GITHUB_WORKSPACE: flags.get('workspace') ?? process.cwd() }), flags }
  } catch (err) {
    if (err instanceof ConfigError) return configError(err.message, io)
    throw err
  }
}

function configError(message: string, io: CliIO): number {
  io.err(`config-error: ${message}\n`)
  io.out('stop-reason: config-error\n')
  return exitCodeFor('config-error')
}

/** What the run found, its stop reason in words, where its files are; the exit status of its stop reason. */
function printEnd(end: SessionEnd, io: CliIO): number {
  if (end.kind === 'stopped') {
    io.err(`${end.stopReason}: ${end.message}\n`)
    io.out(`stop-reason: ${end.stopReason}\n`)
    return exitCodeFor(end.stopReason)
  }
  const report = end.report
  // What the run found before and around the loop: the baseline, the protected files, weak isolation, why it stopped early.
  for (const note of report.notes) io.out(`note: ${oneLine(note)}\n`)
  io.out(`stop-reason: ${report.stopReason}\n`)
  io.out(`${stopReasonEntry(report.stopReason).what} ${stopReasonEntry(report.stopReason).action}\n`)
  io.out(`attempt log: ${report.logFile}\n`)
  for (const file of report.published.files) io.out(`would publish: ${file}\n`)
  return exitCodeFor(report.stopReason)
}
