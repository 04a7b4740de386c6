import { chargeRate, oneHourRate, PRICE_TABLE_VERSION, type PriceTable } from '../agents/pricing.js'
import { record } from './response-usage.js'
import { searchesUsd, shown, type RequestTerms } from './request-terms.js'

/** Bytes of request body counted as one input token in the reservation (the usage reported is charged after). */
const BYTES_PER_TOKEN = 4
/** A request's output cap is lowered to fit what is left, never below this (nor below what it asked for). */
const MIN_OUTPUT_TOKENS = 1024
/** The least thinking budget the APIs accept. */
const MIN_THINKING_TOKENS = 1024

/** What a model request holds against the call's limit while it is in flight, and the body to relay. */
interface Reservation {
  usd: number
  body: Buffer
  /** Set when the output cap was lowered to fit. */
  note?: string
}

/** A request's terms and body, the prices, and what the call may still spend (with its limit's name). */
interface ReservationAsk {
  terms: RequestTerms
  body: Buffer
  prices: PriceTable
  remainingUsd: number
  limitName: string
}

const dollars = (n: number): string => `$${n.toFixed(4)}`

/** Why a request asking for a billed kind the table cannot price is refused, when it is. */
export function unpricedKind(terms: RequestTerms, prices: PriceTable): string | undefined {
  const why = (kind: string): string =>
    `loopgate refused this model request before relaying it: it asks for ${kind}, which loopgate's price table (${PRICE_TABLE_VERSION}) cannot price`
  if (terms.unpriced) return why(terms.unpriced)
  const { price } = chargeRate(terms.model, prices)
  const model = terms.model === undefined ? 'a request that names no model' : shown(terms.model, 80)
  if (terms.cacheHour && price.cacheWrite1h === undefined)
    return why(`1-hour prompt-cache writes for model '${model}' (set "cacheWrite1h" in the price-table input)`)
  if (terms.tier === 'priority' && price.priority === undefined)
    return why(`the priority service tier for model '${model}' (set "priority" in the price-table input)`)
  return undefined
}

/**
 * The request's worst case: its input (estimated from the body's size, at the dearest input rate
 * it asks for), its web searches, and its output cap at the output rate. When the cap does not fit
 * under what is left it is lowered to fit (a thinking budget with it); a request whose input alone
 * leaves no room for `MIN_OUTPUT_TOKENS` is refused. A request that names no cap reserves all that
 * is left. Returns the reservation, or why the request is refused.
 */
export function reserve({ terms, body, prices, remainingUsd, limitName }: ReservationAsk): Reservation | { refused: string } {
  const { price } = chargeRate(terms.model, prices)
  const factor = terms.tier === 'priority' ? (price.priority ?? 1) : 1
  let inputRate = price.input
  if (terms.cacheWrites) inputRate = Math.max(inputRate, price.cacheWrite ?? price.input)
  if (terms.cacheHour) inputRate = Math.max(inputRate, oneHourRate(price))
  const inputTokens = Math.ceil(body.length / BYTES_PER_TOKEN)
  const fixedUsd = (inputTokens * inputRate * factor) / 1e6 + searchesUsd(terms)
  const tooDear = (what: string, usd: number): { refused: string } => ({
    refused: `loopgate refused this model request: ${what} would cost up to ${dollars(usd)}, more than is left under ${limitName} (${dollars(remainingUsd)})`
  })
  if (fixedUsd > remainingUsd) return tooDear(`its input (about ${inputTokens} tokens)`, fixedUsd)
  const cap = terms.outputCap
  if (!cap) return { usd: remainingUsd, body }
  const outputRate = (price.output * factor * terms.choices) / 1e6
  if (fixedUsd + cap.tokens * outputRate <= remainingUsd || outputRate === 0) return { usd: fixedUsd + cap.tokens * outputRate, body }
  const fits = Math.floor((remainingUsd - fixedUsd) / outputRate)
  const least = Math.min(cap.tokens, MIN_OUTPUT_TOKENS)
  if (fits < least) return tooDear(`its input and ${least} output tokens`, fixedUsd + least * outputRate)
  const data = { ...terms.data, [cap.field]: fits }
  const thinking = record(data.thinking)
  const budget = thinking?.budget_tokens
  if (thinking && typeof budget === 'number' && budget >= fits) {
    if (fits - 1 < MIN_THINKING_TOKENS) return tooDear(`its input and its thinking budget`, fixedUsd + (MIN_THINKING_TOKENS + 1) * outputRate)
    data.thinking = { ...thinking, budget_tokens: fits - 1 }
  }
  return {
    usd: fixedUsd + fits * outputRate,
    body: Buffer.from(JSON.stringify(data)),
    note: `a model request's ${cap.field} was lowered to what ${limitName} had left, so its worst case fits`
  }
}
