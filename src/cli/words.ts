import { usd } from '../format.js'
import type { IterationRecord } from '../loop/engine-types.js'

/** What one call was charged, and how the amount was known: a missing cost report is charged in full, never "spent". */
export function chargeWords(r: Pick<IterationRecord, 'chargedUsd' | 'agent'>): string {
  const source = r.agent.costSource
  if (source === 'worst-case') return `charged ${usd(r.chargedUsd)} (no cost reported)`
  if (source === 'not-started') return `charged ${usd(r.chargedUsd)} (the agent never started)`
  return `charged ${usd(r.chargedUsd)}`
}

/** How the agent's call ended, when it failed: "the agent failed (exit 127)", or its reason when it had no exit status. */
export function agentFailureWords(r: Pick<IterationRecord, 'agent'>): string | null {
  const a = r.agent
  if (a.status !== 'failed') return null
  return `the agent failed (${a.exitCode !== null ? `exit ${a.exitCode}` : a.reason})`
}
