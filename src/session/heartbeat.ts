import { usd } from '../format.js'
import { liveGate } from '../gate/live-gate.js'
import { liveUsage } from '../meter/live-usage.js'

/** How often a run says it is still going: 30 s, or LOOPGATE_PROGRESS_SECONDS (1 to 3600). */
export function heartbeatMs(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.LOOPGATE_PROGRESS_SECONDS)
  return Number.isInteger(seconds) && seconds >= 1 && seconds <= 3600 ? seconds * 1000 : 30_000
}

function elapsed(ms: number): string {
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}

/** The gate run in progress: its time, and the tests its runner reported so far where it streams them. */
function gatePart(): string {
  const gate = liveGate()
  if (!gate) return ''
  return `; the gate's run so far: ${elapsed(gate.elapsedMs)}${gate.tests === null ? '' : `, ${gate.tests} test(s)`}`
}

/**
 * One progress line: how long the run has gone, what the metering proxy counted for the call in
 * progress, and the gate run in progress.
 */
function heartbeatLine(sinceMs: number): string {
  const live = liveUsage()
  const meter = live ? `; the agent's call so far: ${live.modelRequests} model request(s), ${live.tokens.toLocaleString('en-US')} tokens, ${usd(live.usd)}` : ''
  return `… still running, ${elapsed(sinceMs)} in${meter}${gatePart()}`
}

/**
 * Prints a progress line every `everyMs` while the run goes on (an agent call or a gate run can take
 * many minutes with nothing else printed); stopped by the returned function.
 */
export function startHeartbeat(report: (line: string) => void, everyMs: number): () => void {
  const started = Date.now()
  const timer = setInterval(() => report(heartbeatLine(Date.now() - started)), everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
