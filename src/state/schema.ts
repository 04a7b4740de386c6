import type { CachedBaseline } from '../gate/baseline/baseline-cache.js'
import type { StopReason } from '../loop/stop-reasons.js'

/** Bumped when the shape changes; a state of another version is not trusted. */
export const STATE_VERSION = 1

/** Bounds: the state never grows with the number of runs. */

export interface PeriodCharge {
  /** ISO time of the charge. */
  at: string
  usd: number
  runId: string
}

export interface RunRecord {
  runId: string
  startedAt: string
  endedAt: string
  outcome: string
  /**
   * Today's name of the reason the run stopped for, or the name as recorded when another
   * loopgate version wrote a reason this one does not know (read it with knownStopReason).
   */
  stopReason: RecordedStopReason
  spentUsd: number
  iterations: number
  pr: number | null
}

/** One of today's stop reasons, or one another loopgate version wrote, kept as it was. */
// `string & {}` keeps the known names visible to the type checker next to any other string.
type RecordedStopReason = StopReason | (string & {})

export interface WipRecord {
  branch: string
  /** The last commit of the work, pushed to the WIP branch by the publisher. */
  head: string
  /** The commit the work was started from. */
  base: string
}

export interface PrRunCount {
  pr: number
  runs: number
  lastAt: string
}

/** How one dependency upgrade ended: the verdict it earned, or a bump the package manager refused. */
export type UpgradeOutcome = 'verified' | 'failed' | 'bump-failed'

/** One dependency upgrade loopgate tried (task: dependency-upgrade), remembered across runs. */
export interface UpgradeAttempt {
  package: string
  from: string
  target: string
  /** The commit the bump was made on. */
  baseCommit: string
  /** Hash of the lockfile the bump started from. */
  lockfileHash: string
  /** Hash of the protected tests (and their runner config) the bump was judged by. */
  testsHash: string
  outcome: UpgradeOutcome
  /** The gate's last failure fingerprint (null when it passed or never ran). */
  fingerprint: string | null
  runId: string
  at: string
}

/**
 * A run that ended `agent-gave-up`, by the task's identity: the same prompt (the retry words are part
 * of it), base commit and protected tests are not tried again until one of them changes.
 */
export interface GiveUpRecord {
  /** Hash of the task's prompt as the agent got it. */
  promptHash: string
  baseCommit: string
  /** Hash of the protected tests (and their runner config) at the base. */
  testsHash: string
  /** The agent's reason, cut to a few lines ('' when it gave none). */
  reason: string
  runId: string
  at: string
}

export interface LoopState {
  version: typeof STATE_VERSION
  loopId: string
  updatedAt: string
  periodLedger: PeriodCharge[]
  runs: RunRecord[]
  lastFailure: { fingerprint: string | null; evidence: string[] } | null
  wip: WipRecord | null
  escalationIssue: number | null
  openPullRequests: number[]
  prRuns: PrRunCount[]
  /** Absent in states written before dependency upgrades existed (read as none). */
  upgradeAttempts: UpgradeAttempt[]
  /** Baselines of earlier runs by what determines them (see gate/baseline-cache.ts); absent in older states. */
  baselines: CachedBaseline[]
  /** The last give-up, while its task is unchanged; absent in older states (read as none). */
  gaveUp: GiveUpRecord | null
}

export class StateCorruptError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StateCorruptError'
  }
}

export function emptyState(loopId: string, now: Date = new Date()): LoopState {
  return {
    version: STATE_VERSION,
    loopId,
    updatedAt: now.toISOString(),
    periodLedger: [],
    runs: [],
    lastFailure: null,
    wip: null,
    escalationIssue: null,
    openPullRequests: [],
    prRuns: [],
    upgradeAttempts: [],
    baselines: [],
    gaveUp: null
  }
}

/** What the loop's state says of its earlier runs. */
export interface LoopHistory {
  runs: number
  spentUsd: number
  /** The run before this one. */
  last?: { stopReason: string; iterations: number; spentUsd: number; endedAt: string }
}

/** The state carried into the engine (see EngineConfig). */
export interface RunCarry {
  period?: { ceilingUsd: number; spentBeforeUsd: number }
  initialEvidence?: string[]
  seedFingerprint?: string | null
  /** When resuming: the base the work is measured against (the workspace HEAD is the WIP). */
  baseCommit?: string
  /** The dependency upgrades earlier runs tried (task: dependency-upgrade). */
  upgradeAttempts?: UpgradeAttempt[]
  /** The last give-up of this loop, while its task is unchanged. */
  gaveUp?: GiveUpRecord | null
}
