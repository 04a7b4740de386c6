import { chargeRate, costOf, tierFactor, type PriceTable, type Usage } from '../agents/pricing.js'
import type { RelayEnd } from './relay.js'
import type { ResponseUsage } from './response-usage.js'

/** What one relayed response is charged. */
export interface ResponseCharge {
  usd: number
  usage?: Usage
  model?: string
  note?: string
}

/** How a relayed response ended, the usage read from it, the prices and the request's reservation. */
interface RelayedResponse {
  end: RelayEnd
  seen: ResponseUsage | undefined
  prices: PriceTable
  reservedUsd: number
}

/**
 * Prices one relayed response. An error answer (status 400 or more) or one never received costs
 * nothing. A stream cut before its final usage is charged the usage it had shown, its output at
 * least a token per 4 bytes relayed. A success whose usage cannot be read is charged the request's
 * reservation (its worst case): never free; one the provider broke off before its usage, its
 * output estimated from the bytes read. The caller hanging up changes none of this: the answer is
 * read to its end either way.
 */
export function chargeResponse({ end, seen, prices, reservedUsd }: RelayedResponse): ResponseCharge {
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
      usd: reservedUsd,
      note: `a model response (status ${end.status}) carried no usage loopgate could read: charged its request's reservation (its worst case)`
    }
  }
  let usage = seen.usage
  let note: string | undefined
  if (!seen.final) {
    usage = { ...usage, output: Math.max(usage.output, Math.ceil(end.bytes / 4)) }
    note = 'a model response ended before its final usage: its output was estimated from the bytes relayed'
  }
  const rate = chargeRate(seen.model, prices)
  const tier = tierFactor(usage.tier, rate.price, prices)
  return { usd: costOf(usage, rate.price, tier.factor), usage, model: seen.model, note: rate.note ?? tier.note ?? note }
}
