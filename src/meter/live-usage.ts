import type { MeteredCall } from './metered-call.js'

/** The calls open at every metering proxy of this process: what a progress line reads while they run. */
const OPEN = new Set<MeteredCall>()

export function trackOpenCall(call: MeteredCall): void {
  OPEN.add(call)
}

export function untrackCall(call: MeteredCall): void {
  OPEN.delete(call)
}

/** What the open calls have relayed so far, or null when no metered call is open. */
interface LiveUsage {
  modelRequests: number
  tokens: number
  usd: number
}

export function liveUsage(): LiveUsage | null {
  if (OPEN.size === 0) return null
  const sum: LiveUsage = { modelRequests: 0, tokens: 0, usd: 0 }
  for (const call of OPEN) {
    const r = call.read()
    sum.modelRequests += r.modelRequests
    sum.tokens += r.tokens.input + r.tokens.cachedInput + (r.tokens.cacheWrite ?? 0) + r.tokens.output
    sum.usd += r.usedUsd
  }
  return sum
}
