import { existsSync, readFileSync } from 'node:fs'
import type { StopReason } from '../loop/stop-reasons.js'
import type { UpgradeAttempt } from '../state/schema.js'
import { judgesTheUpgrade, type UpgradeReady } from './prepare.js'
import type { UpgradeStartEntry } from '../records/attempt-log.js'

/** The attempt log entry naming the upgrade a run works on, written before the gate and any agent call. */
export const UPGRADE_START = 'upgrade-start'

type AttemptBasis = Omit<UpgradeAttempt, 'outcome' | 'fingerprint' | 'at'>

/**
 * What the post step needs to remember the upgrade when the main step dies: the candidate on its
 * base, and the bumps the package manager refused on the way.
 */
export function upgradeStartEntry(ready: UpgradeReady, runId: string): UpgradeStartEntry {
  const c = ready.candidate
  const attempt: AttemptBasis = { package: c.name, from: c.from, target: c.to, baseCommit: ready.baseCommit, ...ready.evidence, runId }
  return { type: UPGRADE_START, attempt, refused: ready.attempts }
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 500

function readBasis(v: unknown): AttemptBasis | null {
  const o = (v ?? {}) as Record<string, unknown>
  const fields = ['package', 'from', 'target', 'baseCommit', 'lockfileHash', 'testsHash', 'runId'] as const
  if (!fields.every((f) => isText(o[f]))) return null
  return Object.fromEntries(fields.map((f) => [f, o[f]])) as unknown as AttemptBasis
}

/** The entries of loopgate's own attempt log (a line cut by the kill is skipped). */
function entries(logFile: string): Record<string, unknown>[] {
  if (!existsSync(logFile)) return []
  const out: Record<string, unknown>[] = []
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    try {
      const entry: unknown = JSON.parse(line)
      if (entry && typeof entry === 'object') out.push(entry as Record<string, unknown>)
    } catch {
      // a line cut by the kill
    }
  }
  return out
}

/** The fingerprint of the last failing gate verdict (the bumped tree's baseline, then each iteration's). */
function lastFingerprint(log: Record<string, unknown>[]): string | null {
  let found: string | null = null
  for (const e of log) {
    const verdict = e.type === 'baseline' ? e : e.type === 'iteration' ? (e.gate as Record<string, unknown> | null) : null
    if (!verdict || typeof verdict.passed !== 'boolean') continue
    found = !verdict.passed && isText(verdict.fingerprint) ? verdict.fingerprint : null
  }
  return found
}

/**
 * The upgrade attempts a run the post step settles adds to the state, read from loopgate's own
 * attempt log (never from a file the agent can write). A main step killed after an agent call
 * leaves the upgrade failed with the last gate failure's fingerprint, so the next run does not
 * spend on the same package and version again without new evidence; killed before any call, the
 * upgrade was not judged and may be tried again.
 */
export function upgradeAttemptsOfSettledRun(
  logFile: string,
  run: { stopReason: StopReason; interrupted: boolean; calls: number; now: Date }
): UpgradeAttempt[] {
  const log = entries(logFile)
  const start = [...log].reverse().find((e) => e.type === UPGRADE_START)
  const basis = start ? readBasis(start.attempt) : null
  if (!start || !basis) return []
  const refused: UpgradeAttempt[] = []
  for (const r of Array.isArray(start.refused) ? (start.refused as unknown[]) : []) {
    const b = readBasis(r)
    const at = (r as { at?: unknown }).at
    if (b) refused.push({ ...b, outcome: 'bump-failed', fingerprint: null, at: isText(at) ? at : run.now.toISOString() })
  }
  const judged = run.interrupted ? run.calls > 0 : judgesTheUpgrade(run.stopReason, { calls: run.calls, lastGateFailed: lastFingerprint(log) !== null })
  if (!judged) return refused
  const verified = !run.interrupted && run.stopReason === 'verified'
  return [...refused, { ...basis, outcome: verified ? 'verified' : 'failed', fingerprint: verified ? null : lastFingerprint(log), at: run.now.toISOString() }]
}
