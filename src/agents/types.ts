/** The one normalised result every agent adapter returns. */
export type AgentStatus = 'claimed-done' | 'failed' | 'capped'
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
  /** For a call metered at the wire: what the CLI's own report said (the cross-check), and the proxy's counts. */
  wire?: { reportedCostUsd?: number; reportedSource?: CostSource; responses: number; modelRequests: number }
}

/** Where a metered call's CLI sends its model requests: loopgate's proxy, with the call's own token. */
export interface ModelEndpoint {
  /** The proxy's URL with the upstream's base path (what the CLI's base-URL setting takes). */
  baseUrl: string
  /** The per-call token, the only key the CLI gets. */
  token: string
  /** Query parameters every request carries (Azure's api-version). */
  query?: Record<string, string>
}

/** The least of what a call may still spend, and the input that sets it. */
export interface SpendLimit {
  usd: number
  name: string
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
  user?: { uid: number; gid: number; name: string; home: string }
  /**
   * Kills every process of `user`, set when the run sweeps that user after each call anyway: the
   * call's leftovers then die when its process exits (see RunOptions.sweep), not by its marker.
   */
  sweepUser?: () => void
  /** Set when the call is metered at the wire: the CLI is pointed here instead of the model API. */
  endpoint?: ModelEndpoint
  /** What the call may spend before the proxy refuses its next request (the call budget when absent). */
  spendLimit?: SpendLimit
}

export interface AgentAdapter {
  readonly name: string
  run(call: AgentCall): Promise<AgentResult>
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
