import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { runProcess, type RunOptions, type RunResult } from '../process/run-process.js'
import type { AgentCall } from './agent-call.js'
import type { AgentResult } from '../agent-result.js'
import type { TurnWatchdog } from './watchdog.js'

/** The uid the agent process will run as. */
export function effectiveUid(call: Pick<AgentCall, 'user'>): number {
  if (call.user) return call.user.uid
  return typeof process.getuid === 'function' ? process.getuid() : -1
}

/** The agent's environment: HOME and USER follow the unprivileged user when there is one. */
export function processEnv(call: AgentCall, defaults: Record<string, string>, set: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...defaults, ...call.env, ...set }
  if (call.user) {
    env.HOME = call.user.home
    env.USER = call.user.name
    env.LOGNAME = call.user.name
  }
  return env
}

export function tail(text: string, max = 8000): string {
  return text.length > max ? text.slice(-max) : text
}

type ProcessEnd = Pick<RunResult, 'exitCode' | 'signal' | 'timedOut' | 'aborted' | 'durationMs' | 'stdout' | 'stderr' | 'notStarted'>

/** What every agent result says of its process: how it ended, how long it took, the tail of its output. */
export function processFacts(run: ProcessEnd): Pick<AgentResult, 'exitCode' | 'signal' | 'outputTail' | 'durationMs' | 'timedOut' | 'notStarted'> {
  return {
    ...(run.notStarted ? { notStarted: run.notStarted } : {}),
    exitCode: run.exitCode,
    signal: run.signal,
    outputTail: tail(`${run.stdout}${run.stderr ? `\n[stderr]\n${run.stderr}` : ''}`),
    durationMs: run.durationMs,
    timedOut: run.timedOut
  }
}

/** A call loopgate ended (its timeout, a cancellation) is a failure whatever the agent printed; null otherwise. */
export function endedByLoopgate(
  call: Pick<AgentCall, 'timeoutMs'>,
  run: Pick<RunResult, 'timedOut' | 'aborted'>
): Pick<AgentResult, 'status' | 'reason'> | null {
  if (run.timedOut) return { status: 'failed', reason: `timeout after ${Math.round(call.timeoutMs / 1000)} s` }
  if (run.aborted) return { status: 'failed', reason: 'cancelled' }
  return null
}

/** What every agent process of a call shares: its folder, prompt, timeout, cancellation, user, reaping and sandbox. */
export function callProcess(
  call: AgentCall
): Pick<RunOptions, 'cwd' | 'stdin' | 'timeoutMs' | 'signal' | 'uid' | 'gid' | 'callId' | 'contain' | 'sweep' | 'launch'> {
  return {
    cwd: call.cwd,
    stdin: call.prompt,
    timeoutMs: call.timeoutMs,
    signal: call.signal,
    uid: call.user?.uid,
    gid: call.user?.gid,
    callId: randomUUID(),
    // Without a user of its own, a cgroup of its own keeps detached processes from outliving the call.
    contain: !call.user,
    sweep: call.sweepUser,
    launch: call.sandbox?.(call.endpoint ? [call.endpoint.baseUrl] : [])
  }
}

/** One agent CLI to run for a call: its command, arguments and environment, the turn watchdog and the reader of its JSON lines. */
interface StreamingRun {
  call: AgentCall
  command: string
  args: string[]
  env: NodeJS.ProcessEnv
  watchdog: TurnWatchdog
  readLine: (line: string) => void
}

/**
 * Runs one agent CLI for a call: the prompt on stdin (no argv length limit, not in the process
 * list), the call's timeout, cancellation and user, and its JSON stream read live by `readLine`;
 * the watchdog stops the process group once loopgate's own turn count passes the cap.
 */
export function runStreamingAgent({ call, command, args, env, watchdog, readLine }: StreamingRun): Promise<RunResult> {
  mkdirSync(call.callDir, { recursive: true })
  return runProcess({
    ...callProcess(call),
    command,
    args,
    env,
    onStdoutLine: (line) => {
      readLine(line)
      return watchdog.shouldKill() ? 'kill' : undefined
    }
  })
}
