import { chargeRate, costOf, type PriceTable, type Usage } from '../agents/pricing.js'
import type { RelayEnd } from './relay.js'
import type { ResponseUsage } from './response-usage.js'

/** What one relayed response is charged. */
export interface ResponseCharge {
  usd: number
  usage?: Usage
  model?: string
  note?: string
}

/** How a relayed response ended, the usage read from it, the prices and what was left under the call's limit. */
export interface RelayedResponse {
  end: RelayEnd
  seen: ResponseUsage | undefined
  prices: PriceTable
  remainingUsd: number
}

/**
 * Prices one relayed response. An error answer (status 400 or more) or one never received costs
 * nothing. A stream cut before its final usage is charged the usage it had shown, its output at
 * least a token per 4 bytes relayed. A success whose usage cannot be read is charged what was left
 * under the call's limit: never free; one the provider broke off before its usage, its output
 * estimated from the bytes relayed.
 */
export function chargeResponse({ end, seen, prices, remainingUsd }: RelayedResponse): ResponseCharge {
  if (end.status >= 400 || (end.bytes === 0 && end.error)) return { usd: 0 }
  if (!seen?.usage && end.providerFailure) {
    // The provider broke the stream off before it showed any usage: its output is estimated, never the rest of the budget.
    const usage: Usage = { input: 0, cachedInput: 0, output: Math.ceil(end.bytes / 4) }
    const rate = chargeRate(seen?.model, prices)
    return {
      usd: costOf(usage, rate.price),
      usage,
      model: seen?.model,
      note: 'a model response the provider broke off before its usage: its output was estimated from the bytes relayed'
    }
  }
  if (!seen?.usage) {
    return {
      usd: remainingUsd,
      note: `a model response (status ${end.status}) carried no usage loopgate could read: charged what was left under the call's limit`
    }
  }
  let usage = seen.usage
  let note: string | undefined
  if (!seen.final) {
    usage = { ...usage, output: Math.max(usage.output, Math.ceil(end.bytes / 4)) }
    note = 'a model response ended before its final usage: its output was estimated from the bytes relayed'
  }
  const rate = chargeRate(seen.model, prices)
  return { usd: costOf(usage, rate.price), usage, model: seen.model, note: rate.note ?? note }
}
