import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A fresh per-call token: 256 random bits, with a prefix that says what it is if it is ever seen. */
export function newCallToken(): string {
  return `loopgate-call-${randomBytes(32).toString('base64url')}`
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()

/** Compares two tokens in time that does not depend on where they differ (nor on their lengths). */
export function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

/**
 * The token a request carries, under whichever header the agent's CLI sends its key in:
 * `x-api-key` (Anthropic), `Authorization: Bearer` (OpenAI, Anthropic auth tokens), `api-key` (Azure).
 */
export function presentedToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(one(headers.authorization) ?? '')
  return one(headers['x-api-key']) ?? bearer?.[1] ?? one(headers['api-key'])
}
