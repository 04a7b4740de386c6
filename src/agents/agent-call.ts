import type { AgentUser } from '../isolation/agent-user.js'
import type { Launcher } from '../process/run-process.js'
import type { AgentResult, SpendLimit } from '../agent-result.js'

/** Where a metered call's CLI sends its model requests: loopgate's proxy, with the call's own token. */
export interface ModelEndpoint {
  /** The proxy's URL with the upstream's base path (what the CLI's base-URL setting takes). */
  baseUrl: string
  /** The per-call token, the only key the CLI gets. */
  token: string
  /** Query parameters every request carries (Azure's api-version). */
  query?: Record<string, string>
  /** The cloud whose API the proxy serves, when the CLI talks to it rather than to the model's own API. */
  cloud?: 'bedrock' | 'vertex'
}

export interface AgentCall {
  iteration: number
  prompt: string
  /** Working directory: the workspace the agent may edit. */
  cwd: string
  /** Per-call wall clock after which the process group is killed. */
  timeoutMs: number
  maxTurns: number
  callBudgetUsd: number
  /** Scrubbed environment for the agent process (see isolation). */
  env: NodeJS.ProcessEnv
  /** A private directory for this call's files (prompt file, cost file). */
  callDir: string
  /** Set while the call runs: loopgate kills it on cancellation. */
  signal?: AbortSignal
  /** Run the process as this unprivileged user when set. */
  user?: AgentUser
  /**
   * Kills every process of `user`, set when the run sweeps that user after each call anyway: the
   * call's leftovers then die when its process exits (see RunOptions.sweep), not by its marker.
   */
  sweepUser?: () => void
  /** Set when the call is metered at the wire: the CLI is pointed here instead of the model API. */
  endpoint?: ModelEndpoint
  /** What the call may spend before the proxy refuses its next request (the call budget when absent). */
  spendLimit?: SpendLimit
  /** Starts the call's process in the run's sandbox, given the loopback origins it must reach (the metering proxy's). */
  sandbox?: (loopback: string[]) => Launcher
}

export interface AgentAdapter {
  readonly name: string
  run(call: AgentCall): Promise<AgentResult>
}
