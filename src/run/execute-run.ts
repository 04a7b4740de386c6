import { GateBrokenError } from '../gate/baseline/baseline-health.js'
import { openGate, type Protection } from '../gate/open.js'
import { EXIT_CODE_NOTE, EXIT_CODE_REPORT } from '../gate/protected-gate-options.js'
import { ownedPath } from '../fs/owned-dir.js'
import { withCustody } from '../git/custody.js'
import { keepPublishRules } from '../gate/baseline/publish-rules.js'
import { GitRepository } from '../git/repository.js'
import { ConfigError } from '../errors.js'
import { type Settings } from '../settings.js'
import { gateEnv } from '../agents/agent-env.js'
import { outcomeFor, type StopReason } from '../loop/stop-reasons.js'
import type { RunOutcome } from '../loop/engine-types.js'
import { AttemptLog } from '../records/attempt-log.js'
import { ProgressFile } from '../records/progress-file.js'
import { upgradePublishInfo } from '../upgrade/outcome.js'
import { upgradeStartEntry } from '../upgrade/interrupted.js'
import { settleUpgrade } from '../upgrade/prepare.js'
import { beforeTheLoop, type BeforeLoop } from './before-loop.js'
import { prepareRunDir, runFiles, stoppedReport, type RunContext, type RunFiles, type RunReport } from './context.js'
import { giveUpToRemember, type LaterIdentity } from './give-up-memory.js'
import { wireLoop, workspaceView } from './wiring.js'
import { declaredRegistries, openNetwork } from './network.js'
import { refusalNotes } from '../isolation/egress-guard.js'
import { loopOrBump } from './loop-or-bump.js'
import { taskSpec } from '../tasks/task-registry.js'

async function assertGitRepository(repository: GitRepository, dir: string): Promise<void> {
  if ((await repository.tryHead()) === null) throw new ConfigError('working-directory', dir, 'a git repository with at least one commit')
}

/**
 * One whole run: before the loop → protection (base snapshot, agent user, baseline) → the loop (or
 * a dependency bump that passes alone) → publish. Settings are already validated. The workspace's
 * git directory is in loopgate's custody for the whole run (see git/custody.ts).
 */
export async function executeRun(settings: Settings, ctx: RunContext): Promise<RunReport> {
  const runDir = prepareRunDir(ctx.tempDir, settings.loopId, ctx.runId)
  const usersRemoved: Promise<void>[] = []
  try {
    return await withCustody(settings.workspace, runDir, (custody) =>
      runInCustody({ initial: settings, ctx, runDir, usersRemoved, repository: GitRepository.held(custody) })
    )
  } finally {
    // The run's users are removed while the result is published and the repository handed back.
    await Promise.all(usersRemoved)
  }
}

/** A run in loopgate's custody of the repository: its settings as given, its context and folder, and the users' removal it waits for. */
interface CustodyRun {
  initial: Settings
  ctx: RunContext
  runDir: string
  usersRemoved: Promise<void>[]
  repository: GitRepository
}

async function runInCustody({ initial, ctx, runDir, usersRemoved, repository }: CustodyRun): Promise<RunReport> {
  const files = runFiles(runDir, initial.workspace, initial.progressFile)
  const progress = new ProgressFile(initial.workspace, initial.progressFile)
  await assertGitRepository(repository, initial.workspace)

  const before = await beforeTheLoop(initial, ctx, repository)
  const settings = before.settings
  if (before.stop) return stoppedBeforeTheLoop(before, before.stop, { files, progress, ctx })

  // Named in the log before the gate and any call, so the post step can remember it if the run dies.
  if (before.upgrade?.kind === 'ready') new AttemptLog(files.logFile).write(upgradeStartEntry(before.upgrade, ctx.runId))

  const callsDir = ownedPath(ctx.tempDir, ['loopgate-calls', `${settings.loopId}-${ctx.runId}`], 0o711)
  const gitWorkspace = workspaceView(settings, ctx, repository)
  const protection = await protect({ settings, ctx, files, callsDir, alongside: () => gitWorkspace.prepare(), before, repository })
  if (protection instanceof GateBrokenError) {
    const notes = [...protection.notes, protection.message]
    // The gate's own notes are progress; the message is why the run stops.
    for (const note of protection.notes) ctx.report(note)
    stopBeforeTheLoop({ files, progress, ctx, stopReason: 'gate-broken', notes: [protection.message] })
    return stoppedReport({ files, stopReason: 'gate-broken', outcome: outcomeFor('gate-broken'), notes: [...before.notes, ...notes] })
  }
  // Before the first call: every commit of the agent's work, the post step's after a kill too, is held to these.
  gitWorkspace.publishUnder(keepPublishRules(runDir, protection.snapshot))

  const ready = before.upgrade?.kind === 'ready' ? before.upgrade : null
  let run: RunOutcome
  let notes: string[]
  let flaky: string[] = []
  try {
    // Wired while the workspace is handed over to the agent's user.
    const wiring = await wireLoop({
      settings,
      ctx,
      protection,
      files: { ...files, callsDir, progress },
      view: { gitWorkspace, measuredBase: ready?.baseCommit ?? ctx.carry?.baseCommit }
    })
    notes = [...before.notes, ...protection.notes, ...wiring.notes]
    if (settings.gateReport === EXIT_CODE_REPORT) notes.push(EXIT_CODE_NOTE)
    await protection.handedOver
    ;({ run, flaky } = await loopOrBump({ settings, ctx, before, protection, wiring }))
    const unstarted = run.stopReason === 'config-error' ? run.iterations.at(-1)?.agent : undefined
    if (unstarted?.notStarted) notes.push(`${unstarted.reason}; that call was charged nothing, and no other call was made`)
  } finally {
    const finished = protection.finish()
    const retired = finished.then(
      () => protection.retired(),
      () => protection.retired()
    )
    retired.catch(() => undefined)
    usersRemoved.push(retired)
    await finished
  }

  return publishRun(settings, ctx, {
    run,
    notes,
    ready,
    protection,
    runDir,
    files,
    progress,
    identity: before.identity ?? null,
    repository,
    flakyOnBump: flaky
  })
}

/** A run that stopped before the loop (nothing to do, a skip, a refusal): reported, nothing spent. */
function stoppedBeforeTheLoop(before: BeforeLoop, stop: NonNullable<BeforeLoop['stop']>, where: Pick<EarlyStop, 'files' | 'progress' | 'ctx'>): RunReport {
  const { stopReason, notes } = stop
  stopBeforeTheLoop({ ...where, stopReason, notes })
  return stoppedReport({
    files: where.files,
    stopReason,
    outcome: outcomeFor(stopReason),
    notes: before.upgrade ? before.notes : [...before.notes, ...notes],
    upgradeAttempts: before.upgrade?.attempts
  })
}

type ReadyUpgrade = Extract<NonNullable<BeforeLoop['upgrade']>, { kind: 'ready' }>

/** What the loop leaves for publishing: its outcome, the notes so far, the upgrade and the run's files. */
interface FinishedLoop {
  run: RunOutcome
  notes: string[]
  ready: ReadyUpgrade | null
  protection: Protection
  runDir: string
  files: RunFiles
  progress: ProgressFile
  /** The task's identity, for the give-up the loop's state remembers. */
  identity: LaterIdentity | null
  /** The workspace's repository, through loopgate's own git directory. */
  repository: GitRepository
  /** Tests found flaky on the bump commit. */
  flakyOnBump: string[]
}

/** Publishes the run's work (or its escalation) and reports the run, with what an upgrade tried. */
async function publishRun(settings: Settings, ctx: RunContext, done: FinishedLoop): Promise<RunReport> {
  const { run, notes, ready, protection, runDir, files, progress, identity, repository, flakyOnBump } = done
  const refused = protection.sandbox?.log.all() ?? []
  const published = await ctx.publisher.publish({
    settings,
    upgrade: ready
      ? await upgradePublishInfo({
          ready,
          repository,
          loopId: settings.loopId,
          head: run.headCommit,
          exclude: [settings.progressFile, ...(settings.featuresFile ? [settings.featuresFile] : [])],
          flaky: flakyOnBump
        })
      : undefined,
    outcome: run,
    repository,
    protectedBase: { sha: protection.base.sha, source: protection.base.source },
    runDir,
    logFile: files.logFile,
    progressText: progress.read(),
    networkRefusals: refused
  })
  return {
    stopReason: run.stopReason,
    outcome: outcomeFor(run.stopReason, settings.onEscalate !== 'none'),
    run,
    runDir,
    logFile: files.logFile,
    ledgerFile: files.ledgerFile,
    progressFile: files.progressPath,
    published,
    notes: [...notes, ...refusalNotes('over the run', refused), ...published.notes],
    upgradeAttempts: ready
      ? settleUpgrade({
          ready,
          end: { stopReason: run.stopReason, lastVerdict: run.lastVerdict, calls: run.iterations.length },
          runId: ctx.runId
        })
      : undefined,
    gaveUp: await giveUpToRemember({ identity, run, runId: ctx.runId, now: new Date() })
  }
}

/** A stop before the loop: the run's files and context, the reason and the notes (the message, when it is not their sum). */
interface EarlyStop {
  files: RunFiles
  progress: ProgressFile
  ctx: RunContext
  stopReason: StopReason
  notes: string[]
  message?: string
}

/** The one stop of a run that ends before the loop: logged, written as the progress file's last line, reported. */
function stopBeforeTheLoop({ files, progress, ctx, stopReason, notes, message = notes.join(' ') }: EarlyStop): void {
  new AttemptLog(files.logFile).write({ type: 'stop', stopReason, message, spentUsd: 0 })
  progress.appendStop(stopReason)
  // A stop the run could not go past is an error, said where errors go; a skip is progress.
  const say = outcomeFor(stopReason) === 'stopped' ? (ctx.explain ?? ctx.report) : ctx.report
  for (const note of notes) say(note)
}

/** Protection before the first call; a gate that cannot run on the base comes back as GateBrokenError. */
/** Where the run protects from: its settings and context, its files, and what ran before the loop. */
interface ProtectOptions {
  settings: Settings
  ctx: RunContext
  files: RunFiles
  callsDir: string
  /** Runs alongside the baseline (the workspace's preparation). */
  alongside: () => Promise<void>
  before: BeforeLoop
  repository: GitRepository
}

async function protect({ settings, ctx, files, callsDir, alongside, before, repository }: ProtectOptions): Promise<Protection | GateBrokenError> {
  const task = taskSpec(settings.task)
  const work = { upgrade: before.upgrade?.kind === 'ready' ? before.upgrade : null, botBump: before.botBump }
  const resumedBase = ctx.carry?.baseCommit
  // The package indexes the base declares, read before any call: the agent's work never adds one.
  const declared = await declaredRegistries(repository, resumedBase ?? (await repository.head()), settings.packageDir).catch(() => [])
  // Before any spend: a runner that cannot make the sandbox stops the run here (see openNetwork).
  const network = openNetwork(settings, ctx.env, declared)
  return openGate({
    settings,
    repository,
    env: ctx.env,
    gateEnv: gateEnv(ctx.env, settings.agentEnv),
    tempDir: ctx.tempDir,
    runDir: files.runDir,
    callsDir,
    runId: ctx.runId,
    signal: ctx.signal,
    isolation: ctx.isolation,
    agentUserName: ctx.agentUser,
    baselines: ctx.baselines,
    baselineAlongside: task.baseline.alongside,
    baselineCommit: task.baseline.fromResumedBase ? resumedBase : undefined,
    baselineOnBump: task.baseline.onBump,
    alongside,
    log: new AttemptLog(files.logFile),
    dependencyReference: task.dependencyReference(work, resumedBase),
    sandbox: network.sandbox
  }).then(
    (protection) => {
      protection.notes.unshift(...network.notes)
      return protection
    },
    (err: unknown) => {
      network.sandbox?.close()
      if (!(err instanceof GateBrokenError)) throw err
      return err
    }
  )
}
