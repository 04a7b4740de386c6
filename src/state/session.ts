import { wipBranchName } from '../git/branches.js'
import type { BaselineStore, CachedBaseline } from '../gate/baseline/baseline-cache.js'
import type { LoopSettings, PublishSettings, StateSettings, TaskSettings, WorkspaceSettings } from '../settings.js'
import { needsEscalation, type StopReason, type Outcome } from '../loop/stop-reasons.js'
import type { GiveUpRecord, RunCarry, UpgradeAttempt } from './schema.js'
import type { RunOutcome } from '../loop/engine-types.js'
import { readEventPayload } from '../github/payload.js'
import { pullRequestNumberOf } from '../github/triggers.js'
import { cacheListerFromEnv, missNote, type CacheLister } from './cache-list.js'
import { saveRunCharges } from './loop-records.js'
import { admitToLoop } from './loop-window.js'
import { prRunCount, recordRun, type RunSummaryForState } from './record-run.js'
import { prepareResume, type ResumePlan, type ResumeWords } from './resume.js'
import type { GitRepository } from '../git/repository.js'
import type { LoopState, WipRecord } from './schema.js'
import {
  restoreLoopState,
  saveLoopState,
  stateKey,
  stateKeyPrefix,
  stateLocation,
  writeStateFile,
  type CacheClient,
  type RestoreResult,
  type StateLocation
} from './store.js'

/** What saving the state reads of a finished run (the run's report carries it). */
interface FinishedRun {
  stopReason: StopReason
  outcome: Outcome
  run: RunOutcome | null
  ledgerFile: string
  published: { issueUrl?: string; pullRequestUrl?: string; wipHead?: string }

  upgradeAttempts?: UpgradeAttempt[]
  gaveUp?: GiveUpRecord | null
}

/**
 * What the state session reads: the state's settings, the workspace (resume), a built-in task
 * (which resumes no WIP), the token (the cache listing) and the comment command (a PR's number).
 */
export type StateSessionSettings = StateSettings &
  WorkspaceSettings &
  Pick<TaskSettings, 'task'> &
  Pick<PublishSettings, 'githubToken' | 'commentCommand'> &
  Pick<LoopSettings, 'timeLimitMs' | 'spendCeilingUsd'>

/** What the post step needs to finish a run whose main step died (kept in the runner's state). */
export interface SessionInfo {
  loopId: string
  pr: number | null
  location: StateLocation
  key: string
  periodHours: number
  runId: string
  startedAt: string
  baseCommit: string | null
  restoreStatus: RestoreResult['status']
  /** Where the run saves its charges entry (the temp folder of the run). */
  tempDir: string
}

export type OpenResult =
  | { kind: 'ready'; session: StateSession }
  | { kind: 'corrupt'; key: string; message: string; blob: string; info: SessionInfo }
  /** Stopped before anything is spent: the PR had its runs, or another live run holds the loop. */
  | { kind: 'stop'; stopReason: 'review-capacity' | 'config-error'; message: string; session: StateSession }

/** The pull request an event is about (pull_request events, PR comments and reviews, failed checks), else null. */
function prNumberFromEvent(env: NodeJS.ProcessEnv, commentCommand = '/loopgate'): number | null {
  try {
    return pullRequestNumberOf(env.GITHUB_EVENT_NAME ?? '', readEventPayload(env), commentCommand)
  } catch {
    return null
  }
}

function numberFromUrl(url: string | undefined, kind: 'issues' | 'pull'): number | null {
  const m = url ? new RegExp(`/${kind}/(\\d+)`).exec(url) : null
  return m ? Number(m[1]) : null
}

/** What a session is opened on: the restored state, the run's facts, its settings and the cache. */
interface StateSessionParts {
  state: LoopState
  info: SessionInfo
  settings: StateSessionSettings
  cache?: CacheClient
  resumeWords?: ResumeWords
}

export class StateSession {
  readonly notes: string[] = []
  /** Notes a person should see as warnings (also kept in the notes). */
  readonly warnings: string[] = []
  /** The window's spend before this run, from every run's records; null when it could not be read. */
  windowUsd: number | null = 0
  /** Baselines run in this session, saved with the state. */
  private readonly newBaselines: CachedBaseline[] = []
  private resumePlan: ResumePlan | null = null

  readonly state: LoopState
  readonly info: SessionInfo
  private readonly settings: StateSessionSettings
  private readonly cache?: CacheClient
  private readonly resumeWords?: ResumeWords

  constructor(parts: StateSessionParts) {
    ;({ state: this.state, info: this.info, settings: this.settings, cache: this.cache, resumeWords: this.resumeWords } = parts)
  }

  /** Starts from the WIP branch when the last run escalated or hit a cap, in the workspace's (held) repository. Before any spend. */
  async resume(repository: GitRepository): Promise<ResumePlan> {
    try {
      // A dependency upgrade starts from the base each run: a failed one is retried only on new evidence.
      const state = this.settings.task ? { ...this.state, wip: null } : this.state
      const { loopId, githubToken: token, resume } = this.settings
      this.resumePlan = await prepareResume({ repository, loopId, state, creds: { token, env: process.env }, resume, words: this.resumeWords })
    } catch (err) {
      this.resumePlan = { resumed: false, baseCommit: '', notes: [`Not resumed: ${(err as Error).message}; starting fresh.`] }
    }
    // Said first: whether this run starts from earlier work is the first thing a person needs to know.
    this.notes.unshift(...this.resumePlan.notes)
    this.info.baseCommit = this.resumePlan.baseCommit || null
    return this.resumePlan
  }

  get periodCeiling(): boolean {
    return this.settings.periodCeilingUsd !== undefined
  }

  /** The loop's baselines by key: earlier runs' from the state, this run's saved with it. */
  baselineStore(): BaselineStore {
    return {
      get: (key) => [...this.newBaselines, ...this.state.baselines].find((b) => b.key === key) ?? null,
      put: (entry) => void this.newBaselines.push(entry),
      healthy: (health) => [...this.newBaselines, ...this.state.baselines].some((b) => b.health === health)
    }
  }

  carry(): RunCarry {
    const carry: RunCarry = { upgradeAttempts: this.state.upgradeAttempts, gaveUp: this.state.gaveUp }
    if (this.settings.periodCeilingUsd !== undefined) {
      carry.period = {
        ceilingUsd: this.settings.periodCeilingUsd,
        // An unreadable window counts as full: the run stops at period-ceiling before any call.
        spentBeforeUsd: this.windowUsd ?? this.settings.periodCeilingUsd
      }
    }
    const plan = this.resumePlan
    if (plan?.resumed) {
      carry.initialEvidence = plan.initialEvidence
      carry.seedFingerprint = plan.seedFingerprint
      carry.baseCommit = plan.baseCommit
    }
    return carry
  }

  /** Records the finished run and saves the state under this attempt's key. */
  async save(report: FinishedRun, now: Date = new Date()): Promise<{ saved: boolean; message?: string }> {
    const run = report.run
    const base = this.info.baseCommit ?? run?.startCommit ?? null
    let wip: WipRecord | null = this.state.wip
    if (run) {
      const escalated = needsEscalation(report.stopReason)
      wip =
        escalated && base && run.headCommit !== base
          ? { branch: wipBranchName(this.settings.loopId), head: report.published.wipHead ?? run.headCommit, base }
          : escalated
            ? this.state.wip
            : null
    }
    const lastVerdict = run?.lastVerdict ?? null
    const summary: RunSummaryForState = {
      runId: this.info.runId,
      startedAt: new Date(this.info.startedAt),
      endedAt: now,
      outcome: report.outcome,
      stopReason: report.stopReason,
      spentUsd: run?.spentUsd ?? 0,
      iterations: run?.iterations.length ?? 0,
      pr: this.info.pr,
      ledgerFile: report.ledgerFile,
      lastFailure:
        report.stopReason === 'verified'
          ? null
          : run && run.lastEvidence.length > 0
            ? { fingerprint: lastVerdict && !lastVerdict.passed ? lastVerdict.fingerprint : null, evidence: run.lastEvidence }
            : this.state.lastFailure,
      wip,
      countsForPr: (run?.iterations.length ?? 0) > 0,
      upgradeAttempts: report.upgradeAttempts,
      baselines: this.newBaselines,
      gaveUp: report.gaveUp,
      escalationIssue: numberFromUrl(report.published.issueUrl, 'issues') ?? undefined,
      openPullRequests: (() => {
        const pr = numberFromUrl(report.published.pullRequestUrl, 'pull')
        return pr === null ? undefined : [...new Set([...this.state.openPullRequests, pr])]
      })()
    }
    const next = recordRun(this.state, summary, this.settings.periodHours)
    const charges = await this.release(report.ledgerFile)
    const saved = await saveLoopState(next, { location: this.info.location, key: this.info.key, cache: this.cache })
    if (!saved.saved || charges.saved) return saved
    return { saved: false, message: `the run's charges entry was not saved: ${charges.message ?? 'unknown reason'}` }
  }

  /** Saves the run's charges as its own entry, which releases its lease on the loop. */
  release(ledgerFile: string | null): Promise<{ saved: boolean; message?: string }> {
    return saveRunCharges({ tempDir: this.info.tempDir, loopId: this.info.loopId, runId: this.info.runId, ledgerFile, cache: this.cache })
  }
}

interface OpenOptions {
  env: NodeJS.ProcessEnv
  tempDir: string
  runId: string
  now?: Date
  cache?: CacheClient
  /** The repository's cache list, to tell a miss from a state saved where this run cannot read it. */
  listCaches?: CacheLister
  /** How a resume is said where the WIP branch is not the one the user sees (the CLI). */
  resumeWords?: ResumeWords
}

/** What the restore found, in the session's notes (a miss the cache list explains, a failure as a warning). */
async function noteRestore(session: StateSession, restored: Exclude<RestoreResult, { status: 'corrupt' }>, list: CacheLister | undefined): Promise<void> {
  const prefix = stateKeyPrefix(session.info.loopId, session.info.pr)
  if (restored.status === 'restored') session.notes.push(`State restored from the cache entry ${restored.key}.`)
  if (restored.status === 'miss') {
    const note = await missNote(list, prefix, session.periodCeiling)
    if (note) session.notes.push(note)
  }
  if (restored.status === 'unavailable' || restored.status === 'failed') {
    session.warnings.push(`The loop state could not be restored (${restored.message}); starting from a fresh state.`)
  }
}

/** Restores the loop's state before anything is spent, and applies the controls that need it. */
export async function openStateSession(settings: StateSessionSettings, opts: OpenOptions): Promise<OpenResult> {
  const now = opts.now ?? new Date()
  const pr = prNumberFromEvent(opts.env, settings.commentCommand)
  const location = stateLocation(opts.tempDir, settings.loopId, pr)
  const key = stateKey(settings.loopId, opts.runId, pr)
  const restored = await restoreLoopState({ loopId: settings.loopId, pr, location, primaryKey: key, cache: opts.cache })
  const info: SessionInfo = {
    loopId: settings.loopId,
    pr,
    location,
    key,
    periodHours: settings.periodHours,
    runId: opts.runId,
    startedAt: now.toISOString(),
    baseCommit: null,
    restoreStatus: restored.status,
    tempDir: opts.tempDir
  }
  if (restored.status === 'corrupt') {
    return { kind: 'corrupt', key: restored.key, message: restored.message, blob: restored.blob, info }
  }
  // The post step reads this copy when the main step dies.
  writeStateFile(restored.state, location)
  const session = new StateSession({ state: restored.state, info, settings, cache: opts.cache, resumeWords: opts.resumeWords })
  const list = opts.listCaches ?? cacheListerFromEnv(settings.githubToken, opts.env)
  await noteRestore(session, restored, list)
  if (pr !== null) {
    const runs = prRunCount(restored.state, pr)
    if (runs >= settings.maxRunsPerPr) {
      return {
        kind: 'stop',
        stopReason: 'review-capacity',
        session,
        message: `pull request #${pr} has had ${runs} loop run(s), the most max-runs-per-pr (${settings.maxRunsPerPr}) allows; a person should review it.`
      }
    }
  }
  const admitted = await admitToLoop({
    ...settings,
    pr,
    runId: opts.runId,
    tempDir: opts.tempDir,
    env: opts.env,
    now,
    state: restored.state,
    cacheAvailable: restored.status !== 'unavailable',
    list,
    cache: opts.cache
  })
  if (admitted.kind === 'held') return { kind: 'stop', stopReason: 'config-error', message: admitted.message, session }
  session.windowUsd = admitted.spentBeforeUsd
  session.notes.push(...admitted.notes)
  session.warnings.push(...admitted.warnings)
  session.notes.push(...session.warnings)
  return { kind: 'ready', session }
}

export type { StopReason }
