import type http from 'node:http'

/**
 * Which upstream answers are the provider's failure, not the agent's: a rate limit, an overload, a
 * server error, or an exhausted quota or credit or a refused credential, which no retry cures.
 * Told apart by the status and the provider's own machine-readable fields (the error object's
 * `type` or `code`, Vertex's `status`, Bedrock's `x-amzn-errortype` header), never by the words of
 * a message, which can echo what the agent sent (a model's name, a prompt).
 */
export type ProviderFailure = { kind: 'transient' | 'quota' | 'credential'; detail: string }

const QUOTA_CODES = new Set(['insufficient_quota', 'billing_error', 'billing_hard_limit_reached', 'billing_not_active', 'ServiceQuotaExceededException'])
const RATE_LIMIT_CODES = new Set(['rate_limit_error', 'rate_limit_exceeded', 'ThrottlingException', 'RESOURCE_EXHAUSTED'])
const OVERLOAD_CODES = new Set(['overloaded_error', 'ModelNotReadyException', 'ServiceUnavailableException'])
const CREDENTIAL_CODES = new Set(['ExpiredTokenException', 'UnrecognizedClientException', 'UNAUTHENTICATED'])

/** A provider's code as it may be quoted: an identifier, nothing the agent could have written. */
const CODE_SHAPE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/

/** The machine-readable codes of an error answer: the error object's `type` and `code`, Vertex's `status`, Bedrock's header. */
function errorCodes(headers: http.IncomingHttpHeaders, bodyText: string): string[] {
  const codes: unknown[] = [headers['x-amzn-errortype']?.toString().split(':')[0]]
  try {
    const parsed = JSON.parse(bodyText) as { error?: unknown; type?: unknown }
    const error = parsed?.error !== null && typeof parsed?.error === 'object' ? (parsed.error as Record<string, unknown>) : undefined
    if (error) codes.push(error.type, error.code, error.status)
  } catch {
    // not JSON: the status and headers decide
  }
  return codes.filter((c): c is string => typeof c === 'string' && CODE_SHAPE.test(c))
}

/** The provider failure an upstream status, headers and body show, if any. */
export function classifyUpstream(status: number, headers: http.IncomingHttpHeaders, bodyText: string): ProviderFailure | undefined {
  const codes = errorCodes(headers, bodyText)
  const named = (set: Set<string>): string | undefined => codes.find((c) => set.has(c))
  const as = (code: string | undefined, words: string): string => `status ${status}${(code ?? codes[0]) ? ` (${code ?? codes[0]})` : ''}: ${words}`
  if (status < 400) return undefined
  const quota = named(QUOTA_CODES)
  if (quota || status === 402) return { kind: 'quota', detail: as(quota, "the provider's quota or credit is exhausted") }
  const credential = named(CREDENTIAL_CODES)
  if (credential || status === 401) return { kind: 'credential', detail: as(credential, "the model API refused loopgate's credential") }
  const limited = named(RATE_LIMIT_CODES)
  if (limited || status === 429) return { kind: 'transient', detail: as(limited, 'rate limited') }
  const overloaded = named(OVERLOAD_CODES)
  if (overloaded || status === 529) return { kind: 'transient', detail: as(overloaded, 'overloaded') }
  if (status >= 500) return { kind: 'transient', detail: as(undefined, 'the provider is unavailable') }
  return undefined
}

/** A connection that broke before or during the answer. */
export function droppedConnection(error: string): ProviderFailure {
  return { kind: 'transient', detail: `the connection to the provider broke: ${error}` }
}

/** How long to wait before retry `attempt` (0-based): the provider's `retry-after(-ms)` when sent, else exponential. */
export function retryDelayMs(headers: Record<string, string | string[] | undefined>, attempt: number, capMs = 30_000): number {
  const ms = Number(headers['retry-after-ms'])
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, capMs)
  const s = Number(headers['retry-after'])
  if (Number.isFinite(s) && s >= 0) return Math.min(s * 1000, capMs)
  return Math.min(500 * 2 ** attempt, capMs)
}
