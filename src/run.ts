import os from 'node:os'
import path from 'node:path'
import { credentialsFor, prepareAdapter } from './agents/adapter.js'
import { agentRunner } from './agents/index.js'
import type { BaselineStore } from './gate/baseline-cache.js'
import { GateBrokenError } from './gate/baseline-health.js'
import { setupProtection, type IsolationMode } from './gate/protection.js'
import { withCustody } from './git/custody.js'
import { git } from './git/git.js'
import { ownedPath } from './fs/owned-dir.js'
import { ConfigError, type Settings } from './inputs.js'
import { GitWorkspace } from './git/workspace.js'
import { agentEnv, gateEnv } from './isolation/env.js'
import { stageCredentialFiles } from './isolation/credential-files.js'
import { LOCAL_AUTHOR } from './git/author.js'
import { AttemptLog } from './records/attempt-log.js'
import { runLoop } from './loop/engine.js'
import type { EngineDeps, RunOutcome } from './loop/types.js'
import { FeaturesGuard } from './loop/features.js'
import { Ledger } from './records/ledger.js'
import { ProgressFile } from './records/progress-file.js'
import { outcomeFor, type Outcome, type StopReason } from './loop/stop-reasons.js'
import { systemClock, type CallGuard, type Clock, type Workspace } from './loop/types.js'
import type { Publisher, PublishResult } from './publish/types.js'
import type { UpgradeAttempt } from './state/schema.js'
import { packageManagerEnv } from './upgrade/environment.js'
import { upgradePublishInfo, verifiedByTheBump } from './upgrade/outcome.js'
import { prepareUpgrade, settleUpgrade } from './upgrade/prepare.js'
import { upgradeTask } from './upgrade/prompt.js'

/** The state carried into the engine (see EngineConfig). */
export interface RunCarry {
  period?: { ceilingUsd: number; spentBeforeUsd: number }
  initialEvidence?: string[]
  seedFingerprint?: string | null
  /** When resuming: the base the work is measured against (the workspace HEAD is the WIP). */
  baseCommit?: string
  /** The dependency upgrades earlier runs tried (task: dependency-upgrade). */
  upgradeAttempts?: UpgradeAttempt[]
}

export interface RunContext {
  /** The runner's environment (never passed whole to the agent or the gate). */
  env: NodeJS.ProcessEnv
  runId: string
  /** RUNNER_TEMP or the OS temp dir: outside the workspace. */
  tempDir: string
  publisher: Publisher
  signal: AbortSignal
  report: (line: string) => void
  onIteration?: EngineDeps['onIteration']
  clock?: Clock
  /** `weak` forces the fallback without a separate agent user (also LOOPGATE_ISOLATION=weak). */
  isolation?: IsolationMode
  /** The dedicated agent user's name (default loopgate-agent). */
  agentUser?: string
  carry?: RunCarry
  /** Baselines of earlier runs (the loop state): the baseline is not run again on the same inputs. */
  baselines?: BaselineStore
}

export interface RunReport {
  stopReason: StopReason
  outcome: Outcome
  run: RunOutcome | null
  runDir: string
  logFile: string
  ledgerFile: string
  progressFile: string
  published: PublishResult
  notes: string[]
  /** The dependency upgrades this run tried, for the loop's state (task: dependency-upgrade). */
  upgradeAttempts?: UpgradeAttempt[]
}

export function runDirFor(tempDir: string, loopId: string, runId: string): string {
  return path.join(tempDir, 'loopgate', `${loopId}-${runId}`)
}

/** Creates the run's root-only directory (ledger, attempt log, state, loopgate's git directory). */
export function prepareRunDir(tempDir: string, loopId: string, runId: string): string {
  return ownedPath(tempDir, ['loopgate', `${loopId}-${runId}`], 0o700)
}

async function assertGitRepository(dir: string): Promise<void> {
  const r = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: dir, okCodes: [1, 128] })
  if (r.exitCode !== 0) throw new ConfigError('working-directory', dir, 'a git repository with at least one commit')
}

/**
 * One whole run: workspace → loop → publish. Settings are already validated. The workspace's git
 * directory is in loopgate's custody for the whole run (see git/custody.ts).
 */
export async function executeRun(settings: Settings, ctx: RunContext): Promise<RunReport> {
  const runDir = prepareRunDir(ctx.tempDir, settings.loopId, ctx.runId)
  return withCustody(settings.workspace, runDir, () => runInCustody(settings, ctx, runDir))
}

async function runInCustody(settings: Settings, ctx: RunContext, runDir: string): Promise<RunReport> {
  const logFile = path.join(runDir, 'attempts.jsonl')
  const ledgerFile = path.join(runDir, 'ledger.jsonl')
  const progressPath = path.join(settings.workspace, settings.progressFile)
  const progress = new ProgressFile(settings.workspace, settings.progressFile)
  const notes: string[] = []

  await assertGitRepository(settings.workspace)

  const preflight = await ctx.publisher.preflight?.(settings)
  // loopgate's commits are authored by commit-author, else by the token's own identity (looked up only for a run that goes on).
  if (!preflight) settings = { ...settings, commitAuthor: settings.commitAuthor ?? (await ctx.publisher.commitAuthor?.()) ?? LOCAL_AUTHOR }
  // A dependency upgrade is picked and bumped (loopgate's own commit) before the gate and any agent call.
  const upgrade =
    !preflight && settings.task === 'dependency-upgrade'
      ? await prepareUpgrade(settings, { attempts: ctx.carry?.upgradeAttempts ?? [], env: packageManagerEnv(ctx.env, settings.agentEnv), runId: ctx.runId, signal: ctx.signal })
      : null
  notes.push(...(upgrade?.notes ?? []))
  const stop = preflight ?? (upgrade?.kind === 'stop' ? upgrade : null)
  if (stop) {
    new AttemptLog(logFile).write({ type: 'stop', stopReason: stop.stopReason, message: stop.notes.join(' '), spentUsd: 0 })
    progress.appendStop(stop.stopReason)
    for (const note of stop.notes) ctx.report(note)
    return {
      stopReason: stop.stopReason,
      outcome: outcomeFor(stop.stopReason),
      run: null,
      runDir,
      logFile,
      ledgerFile,
      progressFile: progressPath,
      published: { files: [], notes: [] },
      notes: upgrade ? notes : [...notes, ...stop.notes],
      upgradeAttempts: upgrade?.attempts
    }
  }

  const callsDir = ownedPath(ctx.tempDir, ['loopgate-calls', `${settings.loopId}-${ctx.runId}`], 0o711)
  const protection = await setupProtection({
    settings,
    env: ctx.env,
    gateEnv: gateEnv(ctx.env, settings.agentEnv),
    tempDir: ctx.tempDir,
    runDir,
    callsDir,
    runId: ctx.runId,
    signal: ctx.signal,
    isolation: ctx.isolation,
    agentUserName: ctx.agentUser,
    baselines: ctx.baselines,
    log: new AttemptLog(logFile)
  }).catch((err: unknown) => {
    if (!(err instanceof GateBrokenError)) throw err
    return err
  })
  if (protection instanceof GateBrokenError) {
    const stopNotes = [...protection.notes, protection.message]
    new AttemptLog(logFile).write({ type: 'stop', stopReason: 'gate-broken', message: protection.message, spentUsd: 0 })
    progress.appendStop('gate-broken')
    for (const note of stopNotes) ctx.report(note)
    return { stopReason: 'gate-broken', outcome: outcomeFor('gate-broken'), run: null, runDir, logFile, ledgerFile, progressFile: progressPath, published: { files: [], notes: [] }, notes: [...notes, ...stopNotes] }
  }
  notes.push(...protection.notes)
  const gate = protection.gate
  const agentProcessEnv = stageCredentialFiles(
    agentEnv(ctx.env, { agent: settings.agent, extra: settings.agentEnv, provider: settings.provider, credentials: credentialsFor(settings), set: protection.agentEnvSet }),
    { agent: settings.agent, provider: settings.provider, user: protection.user, workspace: settings.workspace }
  )
  notes.push(...agentProcessEnv.notes)
  const gitWorkspace = new GitWorkspace(settings.workspace, settings.progressFile, settings.featuresFile, {
    author: settings.commitAuthor,
    exclude: agentProcessEnv.inWorkspace
  })
  await gitWorkspace.prepare()
  const carry = ctx.carry ?? {}
  const ready = upgrade?.kind === 'ready' ? upgrade : null
  const measuredBase = ready?.baseCommit ?? carry.baseCommit
  const workspace: Workspace = measuredBase ? measuredFrom(gitWorkspace, measuredBase, await gitWorkspace.head()) : gitWorkspace

  const guards: CallGuard[] = [...protection.guards]
  if (settings.featuresFile) {
    guards.push(new FeaturesGuard(settings.workspace, settings.featuresFile))
  }
  const agent = protection.wrapAgent(
    agentRunner({
      adapter: await prepareAdapter(settings, ctx),
      cwd: settings.workspace,
      maxTurns: settings.maxTurns,
      callBudgetUsd: settings.callBudgetUsd,
      env: agentProcessEnv.env,
      callsDir,
      user: protection.user
    })
  )
  const log = new AttemptLog(logFile)
  const ledger = new Ledger(ledgerFile)

  // The baseline gate judged the bumped tree: when the bump alone passes, no agent is called.
  const bumpVerdict = ready ? protection.baseline.verdict : null
  let run: RunOutcome
  try {
    run = ready && bumpVerdict?.passed ? verifiedByTheBump({ ready, head: await gitWorkspace.head(), verdict: bumpVerdict, log, progress, clock: ctx.clock ?? systemClock }) : await runLoop(
      {
        runId: ctx.runId,
        task: ready && bumpVerdict ? upgradeTask({ candidate: ready.candidate, bumpCommit: ready.bumpCommit, bumpFiles: ready.bumpFiles, gateCommand: settings.gateCommand, verdict: bumpVerdict, releaseNotes: ready.releaseNotes }) : settings.prompt,
        maxIterations: settings.maxIterations,
        callBudgetUsd: settings.callBudgetUsd,
        spendCeilingUsd: settings.spendCeilingUsd,
        callTimeoutMs: settings.callTimeoutMs,
        timeLimitMs: settings.timeLimitMs,
        noProgressLimit: settings.noProgressLimit,
        sameFailureLimit: settings.sameFailureLimit,
        progressFileName: settings.progressFile,
        period: carry.period,
        initialEvidence: carry.initialEvidence,
        seedFingerprint: carry.seedFingerprint
      },
      {
        clock: ctx.clock ?? systemClock,
        agent,
        workspace,
        gate,
        guards,
        ledger,
        log,
        progress,
        signal: ctx.signal,
        report: ctx.report,
        onIteration: ctx.onIteration
      }
    )
  } finally {
    await protection.finish()
  }

  const published = await ctx.publisher.publish({
    settings,
    upgrade: ready ? await upgradePublishInfo(ready, settings.workspace, settings.loopId, run.headCommit, [settings.progressFile, ...(settings.featuresFile ? [settings.featuresFile] : [])]) : undefined,
    outcome: run,
    runDir,
    logFile,
    progressText: progress.read()
  })
  notes.push(...published.notes)
  return {
    stopReason: run.stopReason,
    outcome: outcomeFor(run.stopReason, settings.onEscalate !== 'none'),
    run,
    runDir,
    logFile,
    ledgerFile,
    progressFile: progressPath,
    published,
    notes,
    upgradeAttempts: ready ? settleUpgrade(ready, run.stopReason, run.lastVerdict, ctx.runId) : undefined
  }
}

/** A workspace whose "changed since the start" compares with `base` when asked about `start`. */
function measuredFrom(inner: Workspace, base: string, start: string): Workspace {
  return {
    head: () => inner.head(),
    commitIteration: (runId, iteration, changed) => inner.commitIteration(runId, iteration, changed),
    commitFeaturesFile: (runId, iteration, judged) => inner.commitFeaturesFile(runId, iteration, judged),
    hasChangesSince: (commit) => inner.hasChangesSince(commit === start ? base : commit)
  }
}

export function defaultTempDir(env: NodeJS.ProcessEnv): string {
  return env.RUNNER_TEMP || os.tmpdir()
}

export function defaultRunId(env: NodeJS.ProcessEnv): string {
  if (env.GITHUB_RUN_ID) return `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT || '1'}`
  return `local-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${process.pid}`
}
