import { loopRecordsPrefix, parseChargesKey } from './charge-records.js'
import type { PeriodCharge } from './schema.js'

/**
 * A run's lease on its loop, written as the key of a cache entry saved before anything is spent:
 * `loopgate-<loop-id>@lease-<run id>~<scope>~<deadline>~<spend ceiling>`. The run's charges entry
 * (saved when it ends) releases it. The scope is the loop itself or one pull request of it: runs on
 * two pull requests of one loop may overlap, two runs on one scope may not.
 */
export interface Lease {
  runId: string
  scope: string
  /** ISO time after which the run spends nothing more (its start plus `time-limit-minutes`). */
  deadline: string
  /** What the run may spend at most (`spend-ceiling-usd`): what it counts for if it never ends. */
  ceilingUsd: number
}

interface ListedEntry {
  key: string
  /** When the cache service created the entry (ISO); orders two runs that leased at once. */
  createdAt?: string
}

function leaseKeyPrefix(loopId: string): string {
  return `${loopRecordsPrefix(loopId)}lease-`
}

export function leaseScope(pr: number | null): string {
  return pr === null ? 'loop' : `pr${pr}`
}

export function leaseKey(loopId: string, lease: Lease): string {
  const seconds = Math.ceil(Date.parse(lease.deadline) / 1000).toString(36)
  return `${leaseKeyPrefix(loopId)}${lease.runId}~${lease.scope}~${seconds}~${Math.ceil(lease.ceilingUsd * 100).toString(36)}`
}

export function parseLeaseKey(loopId: string, key: string): Lease | null {
  const prefix = leaseKeyPrefix(loopId)
  if (!key.startsWith(prefix)) return null
  const m = /^([A-Za-z0-9._-]{1,80})~(loop|pr\d{1,10})~([0-9a-z]{1,10})~([0-9a-z]{1,10})$/.exec(key.slice(prefix.length))
  if (!m) return null
  return { runId: m[1], scope: m[2], deadline: new Date(parseInt(m[3], 36) * 1000).toISOString(), ceilingUsd: parseInt(m[4], 36) / 100 }
}

/** `<run id>-<attempt>`: attempts of one workflow run never overlap (a run is re-run only once it completed). */
function workflowRun(runId: string): string {
  return runId.replace(/-\d+$/, '')
}

export interface LoopRecords {
  /** Every run's charges entries, as charges. */
  charges: PeriodCharge[][]
  /** Runs that leased and never ended (no charges entry), past their deadline: counted at their ceiling. */
  unsettled: PeriodCharge[]
  /** Another run that holds this scope now, the earliest first. */
  holder: (Lease & { createdAt?: string }) | null
}

/** The loop's entries as the cache list gave them, read for one run at one moment. */
interface LoopRecordsQuery {
  loopId: string
  entries: readonly ListedEntry[]
  self: { runId: string; scope: string }
  now: Date
}

/** Reads the loop's entries from the cache list: every run's charges, and who holds the scope. */
export function readLoopRecords({ loopId, entries, self, now }: LoopRecordsQuery): LoopRecords {
  const charges: PeriodCharge[][] = []
  const ended = new Set<string>()
  for (const e of entries) {
    const parsed = parseChargesKey(loopId, e.key)
    if (!parsed) continue
    ended.add(parsed.runId)
    charges.push(parsed.charges.map((c) => ({ at: c.at, usd: c.usd, runId: c.runId })))
  }
  const order = (e: ListedEntry): string => `${e.createdAt ?? ''}\n${e.key}`
  const mine = entries.find((e) => parseLeaseKey(loopId, e.key)?.runId === self.runId)
  const unsettled: PeriodCharge[] = []
  let holder: LoopRecords['holder'] = null
  for (const e of [...entries].sort((a, b) => (order(a) < order(b) ? -1 : 1))) {
    const lease = parseLeaseKey(loopId, e.key)
    if (!lease || ended.has(lease.runId) || lease.runId === self.runId) continue
    const live = Date.parse(lease.deadline) > now.getTime() && workflowRun(lease.runId) !== workflowRun(self.runId)
    if (!live) unsettled.push({ at: lease.deadline, usd: lease.ceilingUsd, runId: lease.runId })
    // Of two runs that leased at once, the one whose lease the service created first goes on.
    else if (lease.scope === self.scope && !holder && (!mine || order(e) < order(mine))) holder = { ...lease, createdAt: e.createdAt }
  }
  return { charges, unsettled, holder }
}
