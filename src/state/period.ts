import { existsSync, readFileSync } from 'node:fs'
import { Ledger } from '../records/ledger.js'
import { type PeriodCharge } from './schema.js'
import { LIMITS } from '../records/state-limits.js'

const HOUR_MS = 3_600_000

/** The window's spend before now: charges newer than `hours` ago. */
export function windowSpendUsd(charges: PeriodCharge[], now: Date, hours: number): number {
  const since = now.getTime() - hours * HOUR_MS
  let sum = 0
  for (const c of charges) if (Date.parse(c.at) > since) sum += c.usd
  return sum
}

/** The charges of one run's ledger file, with their times. */
export function chargesFromLedger(file: string, runId: string): PeriodCharge[] {
  if (!existsSync(file)) return []
  const charges: PeriodCharge[] = []
  for (const entry of Ledger.entries(readFileSync(file, 'utf8'))) {
    if (entry.type === 'charge' && Number.isFinite(entry.usd) && entry.usd > 0) {
      charges.push({ at: entry.at, usd: entry.usd, runId })
    }
  }
  return charges
}

/** Charges to keep within a window of `hours` before `now`, at most `max` of them. */
interface ChargeWindow {
  charges: PeriodCharge[]
  now: Date
  hours: number
  max?: number
}

/**
 * Drops charges that left the window and keeps the list bounded. Over the bound, the oldest
 * charges are merged into one stamped with the newest of their times: the sum is kept and it
 * stays in the window at least as long as any of them, so the window is never under-counted.
 */
export function pruneCharges({ charges, now, hours, max = LIMITS.periodCharges }: ChargeWindow): PeriodCharge[] {
  const since = now.getTime() - hours * HOUR_MS
  const kept = charges.filter((c) => Date.parse(c.at) > since).sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
  if (kept.length <= max) return kept
  const merged = kept.slice(0, kept.length - max + 1)
  const usd = merged.reduce((s, c) => s + c.usd, 0)
  const last = merged[merged.length - 1]
  return [{ at: last.at, usd, runId: 'merged' }, ...kept.slice(kept.length - max + 1)]
}
