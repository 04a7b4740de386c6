import { ConfigError, readSettings } from '../inputs.js'
import { exitCodeFor } from '../loop/stop-reasons.js'
import { DryRunPublisher } from '../publish/dry-run.js'
import { defaultRunId, defaultTempDir, executeRun } from '../run.js'

/** Parses `--name value` / `--name=value` pairs into action input names. */
export function parseFlags(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('--')) throw new Error(`unexpected argument: ${arg}`)
    const eq = arg.indexOf('=')
    if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1))
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags.set(arg.slice(2), argv[++i])
    else flags.set(arg.slice(2), 'true')
  }
  return flags
}

export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command !== 'run') {
    process.stdout.write('usage: loopgate run --gate-command CMD --prompt TEXT [--agent command --agent-command CMD] ...\n')
    return command === '--help' || command === 'help' ? 0 : 2
  }
  const flags = parseFlags(rest)
  let settings
  try {
    settings = readSettings((name) => flags.get(name) ?? '', { ...process.env, GITHUB_WORKSPACE: flags.get('workspace') ?? process.cwd() })
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`config-error: ${err.message}\n`)
      return exitCodeFor('config-error')
    }
    throw err
  }
  const abort = new AbortController()
  process.once('SIGINT', () => abort.abort())
  process.once('SIGTERM', () => abort.abort())
  const report = await executeRun(settings, {
    env: process.env,
    runId: defaultRunId(process.env),
    tempDir: defaultTempDir(process.env),
    publisher: new DryRunPublisher(),
    signal: abort.signal,
    report: (line) => process.stdout.write(`${line}\n`)
  })
  process.stdout.write(`stop-reason: ${report.stopReason}\nlog: ${report.logFile}\n`)
  for (const file of report.published.files) process.stdout.write(`would publish: ${file}\n`)
  return exitCodeFor(report.stopReason)
}
