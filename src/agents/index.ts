import path from 'node:path'
import type { AgentRunner } from '../loop/types.js'
import type { AgentAdapter, AgentCall } from './types.js'

export interface AgentRunnerOptions {
  adapter: AgentAdapter
  cwd: string
  maxTurns: number
  callBudgetUsd: number
  /** The scrubbed environment for the agent process. */
  env: NodeJS.ProcessEnv
  /** Per-call files go under this directory (readable by the agent). */
  callsDir: string
  user?: AgentCall['user']
  sweepUser?: AgentCall['sweepUser']
}

/** Bridges the engine's view of a call to an adapter's full AgentCall. */
export function agentRunner(opts: AgentRunnerOptions): AgentRunner {
  return {
    run: (iteration, prompt, timeoutMs, signal, spendLimit) =>
      opts.adapter.run({
        iteration,
        prompt,
        cwd: opts.cwd,
        timeoutMs,
        maxTurns: opts.maxTurns,
        callBudgetUsd: opts.callBudgetUsd,
        env: opts.env,
        callDir: path.join(opts.callsDir, `call-${iteration}`),
        signal,
        user: opts.user,
        sweepUser: opts.sweepUser,
        spendLimit
      })
  }
}
