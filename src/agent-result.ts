// What one agent call comes back with, whichever agent ran: the loop's view of an agent.
/** The one normalised result every agent adapter returns. */
type AgentStatus = 'claimed-done' | 'failed' | 'capped'
/**
 * `metered`: what loopgate's proxy relayed; `reported`/`priced`: the CLI's own stream; `worst-case`:
 * the full budget; `not-started`: the process never started, nothing is charged.
 */
export type CostSource = 'metered' | 'reported' | 'priced' | 'worst-case' | 'not-started'

export interface TokenUsage {
  input: number
  cachedInput: number
  /** Input tokens written to the prompt cache, when the CLI reports them. */
  cacheWrite?: number
  output: number
  reasoning?: number
}

export interface AgentResult {
  status: AgentStatus
  /** Short machine-readable reason, e.g. `success`, `exit-code-1`, `error_max_turns`, `timeout`, `turn-cap`, `refusal`. */
  reason: string
  exitCode: number | null
  signal: string | null
  costUsd: number
  costSource: CostSource
  /** Turns counted by loopgate from the event stream (the control). */
  turns: number
  /** Turns the CLI reported itself, when it did (e.g. Claude's num_turns). */
  reportedTurns?: number
  tokens?: TokenUsage
  sessionId?: string
  model?: string
  permissionDenials: string[]
  finalText: string
  /** Tail of the raw output, for the attempt log. */
  outputTail: string
  durationMs: number
  timedOut: boolean
  warnings: string[]
  /** The spawn error's code when the agent's process never started: nothing ran, nothing is charged. */
  notStarted?: string
  /** Set when the agent asked for a person through its documented exit (the give-up file). */
  gaveUp?: { reason: string }
  /** Set when the call ended on the model provider's failure (rate limit, overload, outage, quota), not the agent's. */
  providerFailure?: { status?: number; message: string }
  /** For a call metered at the wire: what the CLI's own report said (the cross-check), and the proxy's counts. */
  wire?: { reportedCostUsd?: number; reportedSource?: CostSource; responses: number; modelRequests: number }
}

/** The least of what a call may still spend, and the input that sets it. */
export interface SpendLimit {
  usd: number
  name: string
}

export function emptyResult(partial: Partial<AgentResult> & Pick<AgentResult, 'status' | 'reason'>): AgentResult {
  return {
    exitCode: null,
    signal: null,
    costUsd: 0,
    costSource: 'worst-case',
    turns: 0,
    permissionDenials: [],
    finalText: '',
    outputTail: '',
    durationMs: 0,
    timedOut: false,
    warnings: [],
    ...partial
  }
}
