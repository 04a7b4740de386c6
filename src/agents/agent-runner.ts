import path from 'node:path'
import type { AgentRunner } from '../loop/engine-types.js'
import { giveUpFile, giveUpInstructions, readGiveUp } from './give-up.js'
import type { AgentAdapter, AgentCall } from './agent-call.js'

interface AgentRunnerOptions {
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
  sandbox?: AgentCall['sandbox']
}

/**
 * Bridges the engine's view of a call to an adapter's full AgentCall. Every prompt says how to ask
 * for a person (the give-up file in the call's output folder, also in LOOPGATE_GIVE_UP_FILE), and
 * a request found there after the call is part of its result.
 */
export function agentRunner(opts: AgentRunnerOptions): AgentRunner {
  return {
    run: async ({ iteration, prompt, timeoutMs, signal, limit: spendLimit }) => {
      const callDir = path.join(opts.callsDir, `call-${iteration}`)
      const file = giveUpFile(callDir)
      const result = await opts.adapter.run({
        iteration,
        prompt: `${prompt.replace(/\n+$/, '')}\n\n${giveUpInstructions(file)}\n`,
        cwd: opts.cwd,
        timeoutMs,
        maxTurns: opts.maxTurns,
        callBudgetUsd: opts.callBudgetUsd,
        env: { ...opts.env, LOOPGATE_GIVE_UP_FILE: file },
        callDir,
        signal,
        user: opts.user,
        sweepUser: opts.sweepUser,
        sandbox: opts.sandbox,
        spendLimit
      })
      const gaveUp = readGiveUp(callDir)
      return gaveUp ? { ...result, gaveUp } : result
    }
  }
}
