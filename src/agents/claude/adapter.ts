import { exitDescription, type RunResult } from '../../process/run-process.js'
import { effectiveUid, endedByLoopgate, processEnv, processFacts, runStreamingAgent } from '../streaming-agent.js'
import { asNumber, asRecord, asString, parseJsonLine } from '../json-fields.js'
import type { AgentAdapter, AgentCall, ModelEndpoint } from '../agent-call.js'
import type { AgentResult, TokenUsage } from '../../agent-result.js'
import { TurnWatchdog } from '../watchdog.js'

/**
 * Fields of Claude Code's final `result` message that this adapter reads. The contract test runs
 * the installed CLI and fails when one of them is gone.
 */
export const CLAUDE_RESULT_FIELDS = [
  'type',
  'subtype',
  'is_error',
  'num_turns',
  'total_cost_usd',
  'stop_reason',
  'terminal_reason',
  'permission_denials',
  'session_id',
  'usage'
] as const

/**
 * The tools allowed when the agent runs as root, where Claude Code refuses
 * --dangerously-skip-permissions. Anything else is denied (and reported in permission_denials)
 * instead of waiting for a prompt nobody answers.
 */
const ROOT_ALLOWED_TOOLS = ['Bash(*)', 'Edit', 'Write', 'Read', 'Glob', 'Grep', 'NotebookEdit', 'TodoWrite']

/** Defaults for an unattended CLI; the user's own values (agent-env) win. */
const CLAUDE_ENV_DEFAULTS: Record<string, string> = {
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1'
}

interface ClaudeAgentOptions {
  /** The CLI: a path or a name looked up on the agent's PATH. */
  binary?: string
  /** Extra arguments from `agent-args` (already checked for refused flags). */
  args?: string[]
}

/**
 * The permission flags for an unattended run, chosen by the uid the CLI will run as. Nobody answers
 * a permission prompt in CI, so one must be settled up front. As an unprivileged user (the agent
 * user loopgate runs it as where the runner allows) every tool is allowed: the user cannot reach
 * loopgate's secrets and the protected gate, not the prompt, decides what counts. As root Claude
 * Code refuses --dangerously-skip-permissions, so the editing and shell tools are allow-listed
 * instead; anything else is denied and shows up in permission_denials.
 */
export function permissionArgs(uid: number): string[] {
  if (uid === 0) return ['--allowedTools', ...ROOT_ALLOWED_TOOLS]
  return ['--dangerously-skip-permissions']
}

export function claudeArgs(call: AgentCall, extra: string[]): string[] {
  return [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--max-turns',
    String(call.maxTurns),
    '--max-budget-usd',
    String(call.callBudgetUsd),
    ...permissionArgs(effectiveUid(call)),
    ...extra
  ]
}

/** What the adapter gathered from the stream while the call ran. */
export interface ClaudeStreamState {
  result?: Record<string, unknown>
  model?: string
  sessionId?: string
  lastText: string
  warnings: string[]
}

/** Feeds one stream line into the state and the watchdog. */
export function readClaudeLine(line: string, state: ClaudeStreamState, watchdog: TurnWatchdog): void {
  const event = parseJsonLine(line)
  if (!event) return
  const type = asString(event.type)
  if (type === 'system') {
    const subtype = asString(event.subtype)
    if (subtype === 'init') {
      state.model = asString(event.model) ?? state.model
      state.sessionId = asString(event.session_id) ?? state.sessionId
    } else if (subtype === 'api_retry') {
      state.warnings.push(
        `API retry ${String(event.attempt ?? '?')}/${String(event.max_retries ?? '?')}: ${String(event.error_status ?? event.error ?? 'error')}`
      )
    }
  } else if (type === 'assistant') {
    // Turns of the main loop only, as --max-turns counts them; a sub-agent's turns carry a parent id.
    if (event.parent_tool_use_id) return
    const message = asRecord(event.message)
    watchdog.count(asString(message?.id))
    const content = Array.isArray(message?.content) ? (message.content as unknown[]) : []
    const texts = content
      .map(asRecord)
      .filter((c) => c?.type === 'text')
      .map((c) => asString(c?.text) ?? '')
    if (texts.length > 0) state.lastText = texts.join('\n')
  } else if (type === 'result') {
    state.result = event
  }
}

function denials(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  return value.map((d) => {
    const r = asRecord(d)
    if (!r) return String(d)
    const input = r.tool_input === undefined ? '' : ` ${JSON.stringify(r.tool_input).slice(0, 200)}`
    return `${asString(r.tool_name) ?? 'tool'}${input}`
  })
}

function tokensOf(usage: Record<string, unknown> | undefined): TokenUsage | undefined {
  if (!usage) return undefined
  const input = asNumber(usage.input_tokens) ?? 0
  const cacheRead = asNumber(usage.cache_read_input_tokens) ?? 0
  const cacheWrite = asNumber(usage.cache_creation_input_tokens) ?? 0
  return { input: input + cacheRead + cacheWrite, cachedInput: cacheRead, output: asNumber(usage.output_tokens) ?? 0 }
}

/** A finished Claude Code call: the call's limits, its process's end, the stream read from it and the turn watchdog. */
interface FinishedClaudeCall {
  call: Pick<AgentCall, 'callBudgetUsd' | 'maxTurns' | 'timeoutMs'>
  run: Pick<RunResult, 'exitCode' | 'signal' | 'timedOut' | 'aborted' | 'durationMs' | 'stdout' | 'stderr'>
  state: ClaudeStreamState
  watchdog: TurnWatchdog
}

/** Turns a finished call into the normalised result. */
export function classifyClaude({ call, run, state, watchdog }: FinishedClaudeCall): AgentResult {
  const r = state.result
  const reportedCost = asNumber(r?.total_cost_usd)
  const costKnown = r !== undefined && reportedCost !== undefined && reportedCost >= 0
  const resultText = asString(r?.result)
  const errors = Array.isArray(r?.errors) ? (r.errors as unknown[]).map(String) : []
  const base: Omit<AgentResult, 'status' | 'reason'> = {
    ...processFacts(run),
    costUsd: costKnown ? (reportedCost as number) : call.callBudgetUsd,
    costSource: costKnown ? 'reported' : 'worst-case',
    turns: watchdog.turns,
    reportedTurns: asNumber(r?.num_turns),
    tokens: tokensOf(asRecord(r?.usage)),
    sessionId: asString(r?.session_id) ?? state.sessionId,
    model: state.model,
    permissionDenials: denials(r?.permission_denials),
    finalText: resultText ?? (errors.join('\n') || state.lastText),
    warnings: [...state.warnings]
  }
  if (!costKnown) base.warnings.push(`no cost reported: charged the full call budget ($${call.callBudgetUsd})`)

  if (watchdog.tripped) {
    return { ...base, status: 'capped', reason: `turn-cap: ${watchdog.turns} turns counted, killed above ${watchdog.killAbove} (max-turns ${call.maxTurns})` }
  }
  const ended = endedByLoopgate(call, run)
  if (ended) return { ...base, ...ended }
  if (!r) {
    const how = exitDescription(run)
    return { ...base, status: 'failed', reason: `no result message (${how})` }
  }
  const subtype = asString(r.subtype) ?? 'unknown'
  const stopReason = asString(r.stop_reason)
  const terminal = asString(r.terminal_reason)
  if (subtype === 'error_max_turns') return { ...base, status: 'capped', reason: 'error_max_turns' }
  if (subtype === 'error_max_budget_usd') return { ...base, status: 'capped', reason: 'error_max_budget_usd' }
  if (stopReason === 'refusal') return { ...base, status: 'failed', reason: 'refusal' }
  if (subtype !== 'success') return { ...base, status: 'failed', reason: subtype }
  if (r.is_error === true) {
    const status = r.api_error_status ?? r.api_error
    const detail = status !== undefined && status !== null ? `api-error ${String(status)}` : (terminal ?? 'is_error')
    return { ...base, status: 'failed', reason: `is_error: ${detail}` }
  }
  if (run.exitCode !== 0) {
    return { ...base, status: 'failed', reason: exitDescription(run) }
  }
  return { ...base, status: 'claimed-done', reason: 'success' }
}

/**
 * The variables that point Claude Code at loopgate's proxy. On Bedrock and Vertex the CLI's own
 * cloud authentication is skipped and the per-call token rides in a header the proxy checks.
 */
function claudeEndpointEnv(endpoint: ModelEndpoint): Record<string, string> {
  const header = `Authorization: Bearer ${endpoint.token}`
  if (endpoint.cloud === 'bedrock') {
    return { CLAUDE_CODE_USE_BEDROCK: '1', ANTHROPIC_BEDROCK_BASE_URL: endpoint.baseUrl, CLAUDE_CODE_SKIP_BEDROCK_AUTH: '1', ANTHROPIC_CUSTOM_HEADERS: header }
  }
  if (endpoint.cloud === 'vertex') {
    return { CLAUDE_CODE_USE_VERTEX: '1', ANTHROPIC_VERTEX_BASE_URL: endpoint.baseUrl, CLAUDE_CODE_SKIP_VERTEX_AUTH: '1', ANTHROPIC_CUSTOM_HEADERS: header }
  }
  return { ANTHROPIC_BASE_URL: endpoint.baseUrl, ANTHROPIC_API_KEY: endpoint.token }
}

/**
 * `agent: claude`: one fresh `claude -p` process per call (never --resume/--continue, so
 * total_cost_usd is this call's cost), its stream read live so loopgate counts turns itself.
 */
export class ClaudeAgent implements AgentAdapter {
  readonly name = 'claude'

  constructor(private readonly opts: ClaudeAgentOptions = {}) {}

  async run(call: AgentCall): Promise<AgentResult> {
    const watchdog = new TurnWatchdog(call.maxTurns)
    const state: ClaudeStreamState = { lastText: '', warnings: [] }
    const command = this.opts.binary ?? 'claude'
    const env = processEnv(call, CLAUDE_ENV_DEFAULTS, call.endpoint ? claudeEndpointEnv(call.endpoint) : {})
    const r = await runStreamingAgent({
      call,
      command,
      args: claudeArgs(call, this.opts.args ?? []),
      env,
      watchdog,
      readLine: (line) => readClaudeLine(line, state, watchdog)
    })
    return classifyClaude({ call, run: r, state, watchdog })
  }
}
