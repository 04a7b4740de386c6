import type { StopReason } from '../loop/stop-reasons.js'
import { chargesFromLedger, pruneCharges } from './period.js'
import { LIMITS, type LoopState, type WipRecord } from './schema.js'

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
}

function boundEvidence(lines: string[]): string[] {
  return lines.slice(-LIMITS.evidenceLines).map((l) => (l.length > LIMITS.evidenceLineChars ? `${l.slice(0, LIMITS.evidenceLineChars - 1)}…` : l))
}

/** The state after one run: its charges appended to the period ledger, old entries rolled off. */
export function recordRun(state: LoopState, run: RunSummaryForState, periodHours: number): LoopState {
  const charges = chargesFromLedger(run.ledgerFile, run.runId)
  const periodLedger = pruneCharges([...state.periodLedger.filter((c) => c.runId !== run.runId), ...charges], run.endedAt, periodHours)
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
    prRuns = [
      ...prRuns.filter((p) => p.pr !== run.pr),
      { pr: run.pr, runs: (current?.runs ?? 0) + 1, lastAt: run.endedAt.toISOString() }
    ]
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
    prRuns
  }
}

export function prRunCount(state: LoopState, pr: number): number {
  return state.prRuns.find((p) => p.pr === pr)?.runs ?? 0
}

/** The loop's earlier runs as the escalation issue's overview counts them (the recorded runs). */
export function loopHistory(state: LoopState): { runs: number; spentUsd: number } {
  return { runs: state.runs.length, spentUsd: state.runs.reduce((sum, r) => sum + r.spentUsd, 0) }
}
