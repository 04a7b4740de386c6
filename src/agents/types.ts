/** The one normalised result every agent adapter returns. */
export type AgentStatus = 'claimed-done' | 'failed' | 'capped'
export type CostSource = 'reported' | 'priced' | 'worst-case' | 'not-started'

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
