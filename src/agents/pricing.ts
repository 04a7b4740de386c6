/**
 * The one versioned price table: what the metering proxy charges each relayed response, and what
 * a codex call off the proxy is priced from. Prices are USD per million tokens at the providers'
 * standard short-context rates (OpenAI's Standard tier; Anthropic's base rates, cache writes at
 * the 5-minute rate of 1.25× input, 1-hour cache writes at 2× input, cache reads at 0.1× input).
 * OpenAI's Priority processing is priced at `priority` times every token rate; a web search a
 * server tool runs costs `WEB_SEARCH_USD`. Long-context surcharges are not applied (the spend
 * ceiling still bounds the run).
 */
export const PRICE_TABLE_VERSION = '2026-12-01'

interface ModelPrice {
  input: number
  cachedInput: number
  output: number
  /** Input written to the prompt cache for 5 minutes; priced as plain input when absent. */
  cacheWrite?: number
  /** Input written to the prompt cache for 1 hour; a request asking for it is refused when absent. */
  cacheWrite1h?: number
  /** The factor on every token rate of a response served at the priority tier; a request asking for it is refused when absent. */
  priority?: number
}

/** One web search run by a provider's server tool ($10 per 1,000 at Anthropic and OpenAI). */
export const WEB_SEARCH_USD = 0.01

export type PriceTable = Record<string, ModelPrice>

export const DEFAULT_PRICES: PriceTable = {
  // the default model of @openai/codex 0.171
  'gpt-6.2-sol': { input: 2, cachedInput: 0.1, output: 10, cacheWrite: 2.5, priority: 2 },
  'gpt-6.2-astra': { input: 10, cachedInput: 1, output: 50, cacheWrite: 12.5, priority: 2 },
  'gpt-6.1-sol': { input: 2, cachedInput: 0.1, output: 10, cacheWrite: 2.5, priority: 2 },
  'gpt-6-sol': { input: 2, cachedInput: 0.2, output: 10, cacheWrite: 2.5, priority: 2 },
  'gpt-6-luna': { input: 0.1, cachedInput: 0.01, output: 0.5, cacheWrite: 0.125, priority: 2 },
  'gpt-6-astra': { input: 10, cachedInput: 1, output: 50, cacheWrite: 12.5, priority: 2 },
  'gpt-5.6-terra': { input: 2, cachedInput: 0.2, output: 12, priority: 2 },
  'gpt-5.6-luna': { input: 0.2, cachedInput: 0.02, output: 1.2, priority: 2 },
  'gpt-5.3-codex': { input: 1.75, cachedInput: 0.175, output: 14, priority: 2 },
  'gpt-5.2': { input: 1.75, cachedInput: 0.175, output: 14, priority: 2 },
  'gpt-5.1': { input: 1.25, cachedInput: 0.125, output: 10, priority: 2 },
  'gpt-5-codex': { input: 1.25, cachedInput: 0.125, output: 10, priority: 2 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10, priority: 2 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2, priority: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4, priority: 2 },
  // the default model of @anthropic-ai/claude-code 2.1.328
  'claude-opus-5-5': { input: 4, cachedInput: 0.4, output: 20, cacheWrite: 5, cacheWrite1h: 8 },
  'claude-opus-4-6': { input: 5, cachedInput: 0.5, output: 25, cacheWrite: 6.25, cacheWrite1h: 10 },
  'claude-opus-4-5': { input: 5, cachedInput: 0.5, output: 25, cacheWrite: 6.25, cacheWrite1h: 10 },
  'claude-opus-4-1': { input: 15, cachedInput: 1.5, output: 75, cacheWrite: 18.75, cacheWrite1h: 30 },
  'claude-opus-4-0': { input: 15, cachedInput: 1.5, output: 75, cacheWrite: 18.75, cacheWrite1h: 30 },
  'claude-sonnet-4-6': { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6 },
  'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6 },
  'claude-sonnet-4-0': { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6 },
  'claude-haiku-4-5': { input: 1, cachedInput: 0.1, output: 5, cacheWrite: 1.25, cacheWrite1h: 2 }
}

/** The codex CLI's own default model when neither agent-args nor config.toml names one. */
export const CODEX_DEFAULT_MODEL = 'gpt-6.2-sol'

export interface Usage {
  /** All input tokens, cached ones included (OpenAI's convention). */
  input: number
  cachedInput: number
  /** Input tokens written to the prompt cache (part of `input`). */
  cacheWrite?: number
  /** Of `cacheWrite`, the tokens written for 1 hour. */
  cacheWrite1h?: number
  /** Output tokens, reasoning tokens included (OpenAI's convention). */
  output: number
  /** Web searches a server tool ran. */
  webSearches?: number
  /** The service tier the response says it was served at, when it said. */
  tier?: string
}

/** The tiers served at the standard rates (flex is cheaper: charged at the standard rate, never low). */
const STANDARD_TIERS = new Set(['standard', 'default', 'auto', 'flex', 'standard_only'])

/**
 * Looks a model up exactly, then without a provider prefix (`openai/…`, Bedrock's `anthropic.` or
 * `us.anthropic.` and its `-v1:0` version) or a date suffix (`-2025-08-07`, `-20250929`, Vertex's
 * `@20250929`).
 */
export function priceFor(model: string, table: PriceTable): ModelPrice | undefined {
  const bare = model.replace(/^[^/]+\//, '')
  const candidates = [model, bare, bare.replace(/^(?:[a-z]{2,6}\.)?anthropic\./, '').replace(/-v\d+(?::\d+)?$/, '')]
  for (const c of [...candidates]) candidates.push(c.replace(/(?:-\d{4}-\d{2}-\d{2}|-\d{8}|@\d{8})$/, ''))
  for (const c of candidates) if (Object.prototype.hasOwnProperty.call(table, c)) return table[c]
  return undefined
}

/**
 * The price a relayed response is charged at: the model's, or for a model the table does not
 * know the table's dearest rate of each kind, with a note (never free).
 */
export function chargeRate(model: string | undefined, table: PriceTable): { price: ModelPrice; note?: string } {
  const known = model === undefined ? undefined : priceFor(model, table)
  if (known) return { price: known }
  const rates = Object.values(table)
  const dearest = (pick: (p: ModelPrice) => number): number => Math.max(0, ...rates.map(pick))
  const price: ModelPrice = {
    input: dearest((p) => p.input),
    cachedInput: dearest((p) => p.cachedInput),
    output: dearest((p) => p.output),
    cacheWrite: dearest((p) => p.cacheWrite ?? p.input),
    cacheWrite1h: dearest((p) => p.cacheWrite1h ?? p.cacheWrite ?? p.input),
    priority: dearest((p) => p.priority ?? 1)
  }
  const name = model === undefined ? 'a response that named no model' : `model '${model}'`
  return { price, note: `no price for ${name} (price table ${PRICE_TABLE_VERSION}; set the price-table input): charged at the table's dearest rates` }
}

/**
 * The factor on a response's token rates for the tier it was served at: 1 for the standard tiers,
 * the model's `priority` factor for priority; for a tier or a model the table cannot price, the
 * dearest factor it has with the note saying so (never low).
 */
export function tierFactor(tier: string | undefined, price: ModelPrice, table: PriceTable): { factor: number; note?: string } {
  if (tier === undefined || STANDARD_TIERS.has(tier)) return { factor: 1 }
  if (tier === 'priority' && price.priority !== undefined) return { factor: price.priority }
  const dearest = Math.max(2, ...Object.values(table).map((p) => p.priority ?? 1))
  return {
    factor: dearest,
    note: `no price for the '${tier.slice(0, 40).replace(/[^A-Za-z0-9_.-]/g, '?')}' service tier (price table ${PRICE_TABLE_VERSION}): charged ${dearest}× the standard rates`
  }
}

/** 1-hour cache writes of a model the table has no rate for are charged at twice its input rate, Anthropic's rule. */
export function oneHourRate(price: ModelPrice): number {
  return price.cacheWrite1h ?? Math.max(2 * price.input, price.cacheWrite ?? price.input)
}

export function costOf(usage: Usage, price: ModelPrice, factor = 1): number {
  const cached = Math.min(usage.cachedInput, usage.input)
  const written = Math.min(usage.cacheWrite ?? 0, usage.input - cached)
  const writtenHour = Math.min(usage.cacheWrite1h ?? 0, written)
  const uncached = usage.input - cached - written
  const tokens =
    uncached * price.input +
    cached * price.cachedInput +
    (written - writtenHour) * (price.cacheWrite ?? price.input) +
    writtenHour * oneHourRate(price) +
    usage.output * price.output
  return (tokens * factor) / 1_000_000 + (usage.webSearches ?? 0) * WEB_SEARCH_USD
}

/**
 * Validates a `price-table` override: `{"<model>": {"input": n, "cachedInput": n, "output": n}}`,
 * USD per million tokens, each a finite number ≥ 0 (`cachedInput` and `cacheWrite` default to
 * `input`; `cacheWrite1h` and the `priority` factor have no default: requests asking for them are
 * refused). Returns an error message, or the table.
 */
export function parsePriceTable(raw: string): PriceTable | string {
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch (err) {
    return `not JSON (${(err as Error).message})`
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return 'a JSON object keyed by model name'
  const table: PriceTable = {}
  for (const [model, value] of Object.entries(data as Record<string, unknown>)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `model '${model}' must map to an object`
    const v = value as Record<string, unknown>
    const num = (key: string): number | undefined => {
      const n = v[key]
      return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n < 100_000 ? n : undefined
    }
    const input = num('input')
    const output = num('output')
    const cachedInput = v.cachedInput === undefined ? input : num('cachedInput')
    const cacheWrite = v.cacheWrite === undefined ? input : num('cacheWrite')
    if (input === undefined || output === undefined || cachedInput === undefined || cacheWrite === undefined) {
      return `model '${model}' needs numbers 0 or more for "input", "output" (optional "cachedInput", "cacheWrite"), USD per million tokens`
    }
    const cacheWrite1h = v.cacheWrite1h === undefined ? undefined : num('cacheWrite1h')
    const priority = v.priority === undefined ? undefined : num('priority')
    if ((v.cacheWrite1h !== undefined && cacheWrite1h === undefined) || (v.priority !== undefined && priority === undefined)) {
      return `model '${model}': "cacheWrite1h" (USD per million tokens) and "priority" (a factor) must be numbers 0 or more`
    }
    table[model] = {
      input,
      cachedInput,
      output,
      cacheWrite,
      ...(cacheWrite1h === undefined ? {} : { cacheWrite1h }),
      ...(priority === undefined ? {} : { priority })
    }
  }
  return table
}
