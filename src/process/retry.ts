/**
 * Retries a step that fails transiently on hosted runners (a registry download, a git push):
 * a few attempts, exponential backoff with jitter, and only for errors the caller classifies
 * as transient. A refusal (a rejected push, an auth failure, a missing package) fails at once.
 */

export interface RetryOptions {
  /** Total attempts, the first included. */
  attempts?: number
  /** The wait before the second attempt; each later wait doubles, with jitter. */
  baseDelayMs?: number
  maxDelayMs?: number
  isTransient: (err: unknown) => boolean
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

const RETRY_DEFAULTS = { attempts: 3, baseDelayMs: 2_000, maxDelayMs: 30_000 } as const

/** What one back-off wait is computed from; `attempt` is the failed attempt, 1-based. */
interface BackoffStep {
  attempt: number
  baseDelayMs: number
  maxDelayMs: number
  random?: () => number
}

/** The wait after a failed attempt: half fixed, half random, so runners spread out. */
export function backoffDelay({ attempt, baseDelayMs, maxDelayMs, random = Math.random }: BackoffStep): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + random() * (ceiling / 2))
}

export async function withRetry<T>(step: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const attempts = opts.attempts ?? RETRY_DEFAULTS.attempts
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  for (let attempt = 1; ; attempt++) {
    try {
      return await step(attempt)
    } catch (err) {
      if (attempt >= attempts || !opts.isTransient(err)) throw err
      const delay = backoffDelay({
        attempt,
        baseDelayMs: opts.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
        maxDelayMs: opts.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
        random: opts.random
      })
      opts.onRetry?.(err, attempt, delay)
      await sleep(delay)
    }
  }
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Refusals no retry can change: checked first, so a transient-looking word never overrides them. */
const PERMANENT =
  /\[rejected\]|\[remote rejected\]|stale info|non-fast-forward|fetch first|authentication failed|permission denied|could not read username|invalid username or password|\b40[13]\b|E40[134]\b|ETARGET|EINTEGRITY|not found|no matching version/i

const TRANSIENT = [
  /RPC failed/i,
  /early EOF/i,
  /remote end hung up unexpectedly/i,
  /the requested URL returned error: 5\d\d/i,
  /\bHTTP\/?\S* 5\d\d\b|\b5\d\d (?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out)/i,
  /\bE5\d\d\b/,
  /could not resolve host|temporary failure in name resolution|EAI_AGAIN/i,
  /failed to connect|connection (?:timed out|reset|refused)|operation timed out|timed out after/i,
  /ECONNRESET|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|EPIPE|socket hang up|network (?:error|request)/i,
  /TLS handshake|SSL_ERROR|SSL_read|gnutls_handshake|unexpected eof while reading/i
]

/** A network or server-side failure worth another try (npm, git over http). */
export function isTransientNetworkError(err: unknown): boolean {
  const text = messageOf(err)
  if (PERMANENT.test(text)) return false
  return TRANSIENT.some((re) => re.test(text))
}
