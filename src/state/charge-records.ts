import type { PeriodCharge } from './schema.js'

/**
 * A run's charges, written as the key of a cache entry of its own. The key is the record: the
 * repository's cache list names every entry of every branch, while a run may restore only entries
 * of its own ref and the default branch, so reading the keys is the one way to see every run's
 * charges. Each run adds its own entry; none is ever rewritten.
 */
export interface ChargeRecord {
  runId: string
  iteration: number
  /** ISO time of the charge. */
  at: string
  usd: number
}

/** Cache keys are at most 512 characters and may not hold a comma. */
export const MAX_CACHE_KEY = 512

/** `@` cannot occur in a loop id: no state, PR state or other loop's key shares this prefix. */
export function loopRecordsPrefix(loopId: string): string {
  return `loopgate-${loopId}@`
}

function chargesKeyPrefix(loopId: string): string {
  return `${loopRecordsPrefix(loopId)}charges-`
}

const MICRO = 1_000_000

function encodeCharge(c: ChargeRecord): string {
  const seconds = Math.ceil(Date.parse(c.at) / 1000)
  return `${c.iteration}.${seconds.toString(36)}.${Math.ceil(c.usd * MICRO).toString(36)}`
}

/**
 * Over the key's length, the oldest charges are merged into one stamped with the newest of their
 * times and iterations: the sum is kept and it stays in the window at least as long as any of them.
 */
function mergeOldest(charges: ChargeRecord[]): ChargeRecord[] {
  const [a, b, ...rest] = charges
  return [{ runId: a.runId, iteration: Math.max(a.iteration, b.iteration), at: b.at, usd: a.usd + b.usd }, ...rest]
}

/** `loopgate-<loop-id>@charges-<run id>~<iteration>.<seconds>.<micro-usd>_…`, at most 512 characters. */
export function chargesKey(loopId: string, runId: string, charges: readonly ChargeRecord[]): string {
  let kept = [...charges].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
  const key = (): string => `${chargesKeyPrefix(loopId)}${runId}~${kept.map(encodeCharge).join('_')}`
  while (kept.length > 1 && key().length > MAX_CACHE_KEY) kept = mergeOldest(kept)
  return key()
}

/** The charges a key records, or null when it is not a charges key of this loop. */
export function parseChargesKey(loopId: string, key: string): { runId: string; charges: ChargeRecord[] } | null {
  const prefix = chargesKeyPrefix(loopId)
  if (!key.startsWith(prefix)) return null
  const m = /^([A-Za-z0-9._-]{1,80})~((?:\d+\.[0-9a-z]+\.[0-9a-z]+(?:_|$))*)$/.exec(key.slice(prefix.length))
  if (!m) return null
  const runId = m[1]
  const charges: ChargeRecord[] = []
  for (const item of m[2] ? m[2].split('_') : []) {
    const [iteration, seconds, micro] = item.split('.')
    charges.push({ runId, iteration: Number(iteration), at: new Date(parseInt(seconds, 36) * 1000).toISOString(), usd: parseInt(micro, 36) / MICRO })
  }
  return { runId, charges }
}

const HOUR_MS = 3_600_000

/**
 * The window's spend: every run's charges newer than `hours` ago, whichever source recorded them
 * (the restored state, any run's charges entry, a dead run's lease). A run seen in several sources
 * counts once, by the source that records the most of it in the window: a run's later record holds
 * all its earlier charges, so this never counts less than the run spent.
 */
export function unionWindowUsd(sources: readonly (readonly PeriodCharge[])[], now: Date, hours: number): number {
  const since = now.getTime() - hours * HOUR_MS
  const perRun = new Map<string, number>()
  for (const source of sources) {
    const sums = new Map<string, number>()
    for (const c of source) if (Date.parse(c.at) > since) sums.set(c.runId, (sums.get(c.runId) ?? 0) + c.usd)
    for (const [runId, usd] of sums) perRun.set(runId, Math.max(perRun.get(runId) ?? 0, usd))
  }
  let sum = 0
  for (const usd of perRun.values()) sum += usd
  return sum
}
