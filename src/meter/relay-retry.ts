import type http from 'node:http'
import { classifyUpstream, type ProviderFailure } from './provider-failure.js'

/** How many times, and until when, the proxy tries a request the provider failed. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number
  /** Epoch milliseconds after which no retry starts (the call's own deadline). */
  deadline: number
  /** Whether the call may still go on (still open, budget left). */
  mayContinue: () => boolean
}

export const ONE_ATTEMPT: RetryPolicy = { maxAttempts: 1, deadline: Infinity, mayContinue: () => true }

/** The provider's failure as the call records it: its status (none when no answer came) and what it was, in loopgate's words. */
export interface ProviderFailureSeen {
  kind: ProviderFailure['kind']
  status?: number
  message: string
}

/** An upstream error answer held back from the caller until the proxy knows it will not retry it. */
export interface HeldAnswer {
  kind: 'held'
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export function classified(held: HeldAnswer): ProviderFailure | undefined {
  return classifyUpstream(held.status, held.headers, held.body.toString('utf8'))
}

/** A failed attempt under a retry policy: how it failed, its number, the wait before the next and the caller's response. */
interface RetryQuestion {
  policy: RetryPolicy
  failure: ProviderFailure
  attempt: number
  waitMs: number
  res: http.ServerResponse
}

/** Whether one more attempt fits: a transient failure, attempts left, the wait inside the call's time, the caller still there. */
export function mayRetry({ policy, failure, attempt, waitMs, res }: RetryQuestion): boolean {
  return failure.kind === 'transient' && attempt + 1 < policy.maxAttempts && Date.now() + waitMs < policy.deadline && !res.destroyed && policy.mayContinue()
}

/** Waits `ms`, or less when the caller goes away. */
export function pause(ms: number, res: http.ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      res.off('close', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    res.on('close', done)
  })
}
