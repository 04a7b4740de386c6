import { statSync } from 'node:fs'
import path from 'node:path'
import { agentSpecs } from '../agents/agent-registry.js'
import { usd } from '../format.js'
import { readSettings } from '../inputs/read-settings.js'
import { ConfigError } from '../errors.js'
import { type Settings } from '../settings.js'
import type { IterationRecord } from '../loop/engine-types.js'
import { exitCodeFor } from '../loop/stop-reasons.js'
import { defaultRunId } from '../run/context.js'
import { VERSION } from '../version.js'
import { workBranchName } from '../git/branches.js'
import type { ResumeWords } from '../state/resume.js'
import { parseCommand, UsageError } from './args.js'
import { mainHelp, runHelp, RUN_USAGE } from './help.js'
import { STATE_FOLDER_WORDS } from './state-folder.js'
import { missingOptions } from './required.js'
import { cliWords } from './cli-words.js'
import { RunOutput, type CliIO } from './run-output.js'
import { copyInstalledDeps, notInstalledHint, programMissing } from './installed-deps.js'
import { makeTempRoot, TempRootError } from './temp-root.js'
import { agentFailureWords, chargeWords } from './words.js'
import {
  checkDeliverable,
  cloneForRun,
  deliverWork,
  deliveryLines,
  findBase,
  findRepository,
  removeClone,
  RepositoryError,
  type UserBase,
  type UserRepository
} from './work-copy.js'

export { UsageError } from './args.js'

/** Why the folder given as the workspace cannot be one, said for a person at a terminal. */
function folderProblem(dir: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a folder (set --workspace to a git repository)`
  } catch {
    return `${dir} does not exist (set --workspace to a git repository, or run loopgate inside one)`
  }
  return undefined
}

/** One line per iteration for a terminal: short, with marks. */
function ttyLine(r: IterationRecord, maxIterations: number, ceiling: number): string {
  const agent = r.agent.status === 'claimed-done' ? 'agent done' : (agentFailureWords(r) ?? `agent ${r.agent.status} (${r.agent.reason})`)
  const gate = !r.gate
    ? 'gate –'
    : r.gate.passed
      ? 'gate ✓'
      : `gate ✗ ${r.gate.fingerprint ?? ''} ${r.gate.failures.length ? `${r.gate.failures.length} failing` : r.gate.reason}`.trim()
  const files = r.changedFiles.length ? `${r.changedFiles.length} file(s)` : 'no change'
  const rejected = r.rejected.length ? ` · ⚠ ${r.rejected.length} rejected` : ''
  return `▸ ${r.iteration}/${maxIterations} · ${agent} · ${files} · ${gate}${rejected} · ${chargeWords(r)} · ${usd(r.spentUsd)}/${usd(ceiling)}`
}

/** One line per iteration where no terminal reads it. */
function plainLine(r: IterationRecord): string {
  const failed = agentFailureWords(r)
  return `iteration ${r.iteration}: ${r.decision}; ${failed ? `${failed}; ` : ''}${chargeWords(r)}, ${usd(r.spentUsd)} in all; ${r.gate ? (r.gate.passed ? 'gate passed' : `gate failed (${r.gate.reason})`) : 'gate not run'}`
}

export type { CliIO } from './run-output.js'

const defaultIO: CliIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  isTTY: process.stdout.isTTY === true,
  env: process.env
}

const USAGE = `${RUN_USAGE}\n       loopgate run --help lists the options`

export async function runCli(argv: string[], io: CliIO = defaultIO): Promise<number> {
  let command
  try {
    command = parseCommand(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    io.err(`loopgate: ${err.message}\n${USAGE}\n`)
    return 2
  }
  if (command.kind === 'help') return printed(io, mainHelp(STATE_FOLDER_WORDS))
  if (command.kind === 'run-help') return printed(io, runHelp(STATE_FOLDER_WORDS))
  if (command.kind === 'version') return printed(io, `${VERSION}\n`)
  const missing = missingOptions(command.flags)
  if (missing.length) {
    // A config-error's exit status, as a usage message: every missing option at once.
    io.err(`loopgate run: missing ${missing.join(', ')}\n${USAGE}\n`)
    io.out('stop-reason: config-error\n')
    return exitCodeFor('config-error')
  }
  const flags = command.flags
  const verbose = flags.get('verbose') === 'true'
  flags.delete('verbose')
  const problem = folderProblem(path.resolve(flags.get('workspace') ?? process.cwd()))
  if (problem) return configError(problem, io)
  let repo: UserRepository
  let tempRoot: string
  try {
    repo = await findRepository(path.resolve(flags.get('workspace') ?? process.cwd()))
    tempRoot = makeTempRoot(flags.get('temp-dir'), io.env)
  } catch (err) {
    if (err instanceof RepositoryError || err instanceof TempRootError) return configError(err.message, io)
    throw err
  }
  const read = cliSettings(flags, io, repo)
  if (typeof read === 'number') return read
  let base: UserBase
  try {
    // Without --base-ref, the checked-out branch (or commit), named in the clone: a resumed run
    // moves the clone's HEAD to the earlier work, which must never become the base.
    base = await findBase(repo, read.baseRef ?? repo.branch ?? repo.head)
  } catch (err) {
    if (err instanceof RepositoryError) return configError(err.message, io)
    throw err
  }
  return runInClone({ settings: read, repo, base, tempRoot, io, verbose })
}

function printed(io: CliIO, text: string): number {
  io.out(text)
  return 0
}

/** A run of the command line: its settings, the user's repository, the temporary folder and the terminal. */
interface CliRun {
  settings: Settings
  repo: UserRepository
  /** `--base-ref` (else the checked-out branch or commit) as the user's repository resolves it. */
  base: UserBase
  tempRoot: string
  io: CliIO
  /** `--verbose`: also the resolved protected globs. */
  verbose: boolean
}

/** The session in a clone of the checked-out commit; its commits come back as the loop's branch. */
async function runInClone({ settings, repo, base, tempRoot, io, verbose }: CliRun): Promise<number> {
  const env = io.env
  // The run's machinery is compiled while git writes the clone.
  const machinery = import('./run-machinery.js')
  machinery.catch(() => undefined)
  const { dir: clone, baseRef } = await cloneForRun(repo, path.join(tempRoot, 'work'), base)
  const installed = await copyInstalledDeps(repo, clone)
  const inClone = { ...settings, baseRef, workspace: path.resolve(clone, path.relative(repo.top, settings.workspace)) }
  const runId = defaultRunId(env)
  const output = new RunOutput(io, verbose)
  if (installed.length) output.report(`installed dependencies copied into the run's clone: ${installed.join(', ')}`)
  const abort = new AbortController()
  const onSignal = (): void => abort.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const { runSession, localStateOpener, DryRunPublisher } = await machinery
    const end = await runSession(inClone, {
      env,
      runId,
      tempDir: tempRoot,
      signal: abort.signal,
      report: (line) => output.report(line),
      warn: (line) => output.warn(line),
      explain: (line) => output.explain(line),
      openState: localStateOpener(repo, { env, tempDir: tempRoot, runId, resumeWords: resumeWords(repo, settings.loopId) }),
      integrate: async (s) => ({ settings: s, publisher: new DryRunPublisher() }),
      onIteration: (record) => io.out(`${io.isTTY ? ttyLine(record, settings.maxIterations, settings.spendCeilingUsd) : plainLine(record)}\n`)
    })
    const code = output.end(end)
    const hint = code === exitCodeFor('gate-broken') && !settings.gateSetup && programMissing(end) ? notInstalledHint(repo, installed) : null
    if (hint) io.err(`gate-broken: ${hint}\n`)
    for (const line of deliveryLines(repo, await deliverWork(repo, clone, settings.loopId))) io.out(`${line}\n`)
    io.out(`run files: ${tempRoot} (rm -rf ${tempRoot} deletes them)\n`)
    return code
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
    removeClone(clone)
  }
}

/** A resume, said with the branch the user has: `loopgate/<loop-id>`, and how to look at it. */
function resumeWords(repo: UserRepository, loopId: string): ResumeWords {
  const branch = workBranchName(loopId)
  return { branch, look: `git log ${repo.branch ?? repo.head.slice(0, 12)}..${branch}`, fresh: 'run again with --fresh' }
}

/** The run's settings from the flags (the API keys from the environment when not given), or the exit status of a config-error. */
function cliSettings(flags: Map<string, string>, io: CliIO, repo: UserRepository): Settings | number {
  const env = io.env
  // Each credential input not given as an option is read from the variable its CLI reads.
  for (const spec of agentSpecs()) {
    for (const c of [...(spec.apiKey ? [spec.apiKey] : []), ...(spec.providers ?? []).flatMap((p) => p.credentials)]) {
      if (!flags.has(c.input) && env[c.env]) flags.set(c.input, env[c.env] as string)
    }
  }
  flags.set('dry-run', 'true')
  flags.delete('github-token')
  try {
    const settings = readSettings((name) => flags.get(name) ?? '', { ...env, GITHUB_WORKSPACE: repo.top })
    checkDeliverable(repo, settings.loopId)
    return settings
  } catch (err) {
    if (err instanceof ConfigError || err instanceof RepositoryError) return configError(err.message, io)
    throw err
  }
}

function configError(message: string, io: CliIO): number {
  io.err(`config-error: ${cliWords(message)}\n`)
  io.out('stop-reason: config-error\n')
  return exitCodeFor('config-error')
}
