import { usd } from '../format.js'
import type { IterationRecord } from '../loop/engine-types.js'

/** What one call was charged, and how the amount was known: a missing cost report is charged in full, never "spent". */
export function chargeWords(r: Pick<IterationRecord, 'chargedUsd' | 'agent'>): string {
  const source = r.agent.costSource
  if (source === 'worst-case') return `charged ${usd(r.chargedUsd)} (no cost reported)`
  if (source === 'not-started') return `charged ${usd(r.chargedUsd)} (the agent never started)`
  return `charged ${usd(r.chargedUsd)}`
}
