import type { CachedBaseline } from '../gate/baseline/baseline-cache.js'
import type { StopReason } from '../loop/stop-reasons.js'
import { chargesFromLedger, pruneCharges } from './period.js'
import { LIMITS } from '../records/state-limits.js'
import type { GiveUpRecord, LoopState, UpgradeAttempt, WipRecord } from './schema.js'
import type { LoopHistory } from './schema.js'

export interface RunSummaryForState {
  runId: string
  startedAt: Date
  endedAt: Date
  outcome: string
  stopReason: StopReason
  spentUsd: number
  iterations: number
  pr: number | null
  ledgerFile: string
  /** The failure the next run should start from (null: none). */
  lastFailure: { fingerprint: string | null; evidence: string[] } | null
  /** The work to resume from, or null when there is none (verified, nothing done). */
  wip: WipRecord | null
  /** Whether the run counts toward the PR's run cap (runs stopped before spending do not). */
  countsForPr: boolean
  escalationIssue?: number | null
  openPullRequests?: number[]
  /** The dependency upgrades this run tried (task: dependency-upgrade). */
  upgradeAttempts?: UpgradeAttempt[]
  /** Baselines this run ran (or reused), kept for later runs on the same inputs. */
  baselines?: CachedBaseline[]
  /** The give-up to remember (null: forget the last one; undefined: keep it). */
  gaveUp?: GiveUpRecord | null
}

/** The newest baseline per key wins; the oldest roll off past the bound. */
function mergeBaselines(kept: readonly CachedBaseline[], added: readonly CachedBaseline[]): CachedBaseline[] {
  const fresh = new Set(added.map((b) => b.key))
  return [...kept.filter((b) => !fresh.has(b.key)), ...added].slice(-LIMITS.baselines)
}

/** The newest attempt per package and target wins; the oldest roll off past the bound. */
export function mergeUpgradeAttempts(kept: readonly UpgradeAttempt[], added: readonly UpgradeAttempt[]): UpgradeAttempt[] {
  const key = (a: UpgradeAttempt): string => `${a.package}@${a.target}`
  const fresh = new Set(added.map(key))
  return [...kept.filter((a) => !fresh.has(key(a))), ...added].slice(-LIMITS.upgradeAttempts)
}

function boundEvidence(lines: string[]): string[] {
  return lines.slice(-LIMITS.evidenceLines).map((l) => (l.length > LIMITS.evidenceLineChars ? `${l.slice(0, LIMITS.evidenceLineChars - 1)}…` : l))
}

/** The state after one run: its charges appended to the period ledger, old entries rolled off. */
export function recordRun(state: LoopState, run: RunSummaryForState, periodHours: number): LoopState {
  const charges = chargesFromLedger(run.ledgerFile, run.runId)
  const periodLedger = pruneCharges({ charges: [...state.periodLedger.filter((c) => c.runId !== run.runId), ...charges], now: run.endedAt, hours: periodHours })
  const runs = [
    ...state.runs.filter((r) => r.runId !== run.runId),
    {
      runId: run.runId,
      startedAt: run.startedAt.toISOString(),
      endedAt: run.endedAt.toISOString(),
      outcome: run.outcome,
      stopReason: run.stopReason,
      spentUsd: run.spentUsd,
      iterations: run.iterations,
      pr: run.pr
    }
  ].slice(-LIMITS.runs)
  let prRuns = state.prRuns
  if (run.pr !== null && run.countsForPr) {
    const current = prRuns.find((p) => p.pr === run.pr)
    prRuns = [...prRuns.filter((p) => p.pr !== run.pr), { pr: run.pr, runs: (current?.runs ?? 0) + 1, lastAt: run.endedAt.toISOString() }]
      .sort((a, b) => Date.parse(a.lastAt) - Date.parse(b.lastAt))
      .slice(-LIMITS.prCounts)
  }
  return {
    ...state,
    updatedAt: run.endedAt.toISOString(),
    periodLedger,
    runs,
    lastFailure: run.lastFailure ? { fingerprint: run.lastFailure.fingerprint, evidence: boundEvidence(run.lastFailure.evidence) } : null,
    wip: run.wip,
    escalationIssue: run.escalationIssue !== undefined ? run.escalationIssue : state.escalationIssue,
    openPullRequests: (run.openPullRequests ?? state.openPullRequests).slice(-LIMITS.prCounts),
    prRuns,
    upgradeAttempts: mergeUpgradeAttempts(state.upgradeAttempts, run.upgradeAttempts ?? []),
    baselines: mergeBaselines(state.baselines, run.baselines ?? []),
    gaveUp: run.gaveUp !== undefined ? run.gaveUp : state.gaveUp
  }
}

export function prRunCount(state: LoopState, pr: number): number {
  return state.prRuns.find((p) => p.pr === pr)?.runs ?? 0
}

/** The loop's earlier runs as the escalation issue's overview counts them (the recorded runs). */
export function loopHistory(state: LoopState): LoopHistory {
  const last = state.runs.at(-1)
  return {
    runs: state.runs.length,
    spentUsd: state.runs.reduce((sum, r) => sum + r.spentUsd, 0),
    ...(last ? { last: { stopReason: String(last.stopReason), iterations: last.iterations, spentUsd: last.spentUsd, endedAt: last.endedAt } } : {})
  }
}
