/**
 * Which upstream answers are the provider's failure, not the agent's: a rate limit (429), an
 * overload (529), a server error (5xx), or an exhausted quota or credit balance or an expired
 * credential, which no retry cures.
 */
export type ProviderFailure = { kind: 'transient' | 'quota' | 'credential'; detail: string }

const QUOTA_PATTERNS = [/insufficient_quota/i, /credit balance/i, /billing/i, /quota (?:has been )?exceeded/i, /exceeded your current quota/i]

/** The provider failure an upstream status and (the start of) its body show, if any. */
export function classifyUpstream(status: number, bodyText: string): ProviderFailure | undefined {
  const text = bodyText.slice(0, 4096)
  if (status >= 400 && QUOTA_PATTERNS.some((re) => re.test(text)))
    return { kind: 'quota', detail: `status ${status}: the provider's quota or credit is exhausted` }
  if ((status === 401 || status === 403) && /\bexpired\b/i.test(text))
    return { kind: 'credential', detail: `status ${status}: the model API refused the credential as expired` }
  if (status === 429) return { kind: 'transient', detail: 'status 429: rate limited' }
  if (status === 529) return { kind: 'transient', detail: 'status 529: overloaded' }
  if (status >= 500) return { kind: 'transient', detail: `status ${status}: the provider is unavailable` }
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
