import type { AgentResult } from '../agent-result.js'
import type { CallMeterReading } from './metered-call.js'

/** The adapters' own words for a charge they could not find; the proxy's figure replaces it. */
const SUPERSEDED = [/^no cost reported/, /^no token usage reported/, /^no price for model/]

function dollars(n: number): string {
  return `$${n.toFixed(4)}`
}

/** Whether the CLI's figure and the proxy's differ by more than rounding (1 %, at least $0.0001). */
function differ(reported: number, metered: number): boolean {
  return Math.abs(reported - metered) > Math.max(0.0001, 0.01 * metered)
}

/**
 * The call's result as the ledger takes it: charged what the proxy relayed (`metered`); the CLI's
 * own cost report kept as a cross-check, with a warning when the two differ; a call the proxy ended
 * is capped, with the proxy's reason; one that failed on the provider's failure (the proxy's retries
 * spent, or the quota exhausted) says so, with the provider's status and words.
 */
export function meteredResult(inner: AgentResult, reading: CallMeterReading, cancelled: boolean): AgentResult {
  const reported = inner.costSource === 'worst-case' ? undefined : inner.costUsd
  const warnings = inner.warnings.filter((w) => !SUPERSEDED.some((re) => re.test(w)))
  if (reported === undefined) warnings.push(`the CLI reported no cost: charged what loopgate metered at the wire (${dollars(reading.usedUsd)})`)
  else if (differ(reported, reading.usedUsd)) {
    warnings.push(`cost cross-check: the CLI's own report says ${dollars(reported)}, loopgate metered ${dollars(reading.usedUsd)} at the wire (charged)`)
  }
  warnings.push(...reading.notes)
  const result: AgentResult = {
    ...inner,
    costUsd: reading.usedUsd,
    costSource: 'metered',
    tokens: reading.responses > 0 ? reading.tokens : inner.tokens,
    model: inner.model ?? reading.models[0],
    warnings,
    wire: {
      reportedCostUsd: reported,
      reportedSource: reported === undefined ? undefined : inner.costSource,
      responses: reading.responses,
      modelRequests: reading.modelRequests
    }
  }
  if (reading.refused && !cancelled) return { ...result, status: 'capped', reason: `wire-limit: ${reading.refused}` }
  const failure = reading.providerFailure
  if (failure && !cancelled && inner.status !== 'claimed-done') {
    const { status, message } = failure
    return { ...result, status: 'failed', reason: `provider-unavailable: ${message}`, providerFailure: { status, message } }
  }
  return result
}
