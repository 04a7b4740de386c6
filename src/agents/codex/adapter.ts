import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { exitDescription, type RunResult } from '../../process/run-process.js'
import { CODEX_DEFAULT_MODEL, costOf, DEFAULT_PRICES, priceFor, PRICE_TABLE_VERSION, type PriceTable } from '../pricing.js'
import { endedByLoopgate, processEnv, processFacts, runStreamingAgent } from '../streaming-agent.js'
import { asNumber, asRecord, asString, modelFromArgs, parseJsonLine } from '../json-fields.js'
import type { AgentAdapter, AgentCall, ModelEndpoint } from '../agent-call.js'
import type { AgentResult, TokenUsage } from '../../agent-result.js'
import { TurnWatchdog } from '../watchdog.js'

/** Event fields of `codex exec --json` this adapter reads; the contract test checks them. */
export const CODEX_EVENT_FIELDS = {
  'thread.started': ['thread_id'],
  'turn.completed': ['usage.input_tokens', 'usage.cached_input_tokens', 'usage.output_tokens'],
  'turn.failed': ['error.message'],
  error: ['message'],
  'item.completed': ['item.id', 'item.type']
} as const

/** `{"type":"error","message":"Reconnecting... 1/5 (…)"}`: a retry in progress, not an outcome. */
const RETRY_NOTICE = /^Reconnecting\.\.\. \d+\/\d+/

/** Item types that are the agent's own messages or notes, not actions: they are not turns. */
const NON_ACTION_ITEMS = new Set(['agent_message', 'reasoning', 'error', 'todo_list'])

interface CodexAgentOptions {
  /** The CLI: a path or a name looked up on the agent's PATH. */
  binary?: string
  /** Extra arguments from `agent-args`. */
  args?: string[]
  /** The `price-table` override, merged over the built-in table. */
  prices?: PriceTable
  /** Arguments the provider needs, from the agent's environment (e.g. the Azure endpoint). */
  providerArgs?: (env: NodeJS.ProcessEnv) => string[]
}

/** The variable the metered provider's key is read from: it holds the call's token, never a real key. */
const ENDPOINT_TOKEN_VARIABLE = 'LOOPGATE_CALL_TOKEN'

/**
 * A codex provider pointed at loopgate's proxy (codex honours no base-URL variable alone): the
 * Responses API over plain HTTP streaming, its key the call's token. `-c` overrides win over any
 * config.toml.
 */
function endpointProviderArgs(endpoint: ModelEndpoint): string[] {
  const toml = (value: string): string => JSON.stringify(value)
  const query = endpoint.query ? Object.entries(endpoint.query).map(([k, v]) => `${k} = ${toml(v)}`) : []
  const provider =
    `{ name = "loopgate", base_url = ${toml(endpoint.baseUrl)}, env_key = ${toml(ENDPOINT_TOKEN_VARIABLE)}, ` +
    `wire_api = "responses", supports_websockets = false${query.length > 0 ? `, query_params = { ${query.join(', ')} }` : ''} }`
  return ['-c', 'model_provider="loopgate"', '-c', `model_providers.loopgate=${provider}`]
}

export function codexArgs(extra: string[]): string[] {
  // `-` reads the prompt from stdin, which is then closed: codex never waits for more input.
  return ['exec', '--json', '--sandbox', 'workspace-write', '--skip-git-repo-check', ...extra, '-']
}

/** `model = "…"` at the top level of a codex config.toml (before any table). */
export function modelFromConfigToml(text: string): string | undefined {
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('[')) return undefined
    const m = /^model\s*=\s*["']([^"']+)["']/.exec(line)
    if (m) return m[1]
  }
  return undefined
}

/** `-c model=…` / `--config model=…` overrides in agent-args. */
function modelFromConfigArgs(args: string[]): string | undefined {
  for (let i = 0; i < args.length - 1; i++) {
    if (args[i] !== '-c' && args[i] !== '--config') continue
    const m = /^model\s*=\s*["']?([^"']+)["']?$/.exec(args[i + 1])
    if (m) return m[1]
  }
  return undefined
}

/** The model codex will call: agent-args, then $CODEX_HOME/config.toml, then the CLI's default. */
export function resolveCodexModel(args: string[], env: NodeJS.ProcessEnv): string {
  const fromArgs = modelFromArgs(args) ?? modelFromConfigArgs(args)
  if (fromArgs) return fromArgs
  const home = env.CODEX_HOME || path.join(env.HOME || os.homedir(), '.codex')
  const config = path.join(home, 'config.toml')
  if (existsSync(config)) {
    try {
      const model = modelFromConfigToml(readFileSync(config, 'utf8'))
      if (model) return model
    } catch {
      // unreadable: fall through to the default
    }
  }
  return CODEX_DEFAULT_MODEL
}

interface CodexStreamState {
  threadId?: string
  usage?: TokenUsage
  turnCompleted: boolean
  turnFailed?: string
  /** `error` events that are not retry notices. */
  failures: string[]
  agentMessages: string[]
  warnings: string[]
}

export function newCodexState(): CodexStreamState {
  return { turnCompleted: false, failures: [], agentMessages: [], warnings: [] }
}

function addUsage(prev: TokenUsage | undefined, usage: Record<string, unknown>): TokenUsage {
  const p = prev ?? { input: 0, cachedInput: 0, cacheWrite: 0, output: 0, reasoning: 0 }
  return {
    input: p.input + (asNumber(usage.input_tokens) ?? 0),
    cachedInput: p.cachedInput + (asNumber(usage.cached_input_tokens) ?? 0),
    cacheWrite: (p.cacheWrite ?? 0) + (asNumber(usage.cache_write_input_tokens) ?? 0),
    output: p.output + (asNumber(usage.output_tokens) ?? 0),
    reasoning: (p.reasoning ?? 0) + (asNumber(usage.reasoning_output_tokens) ?? 0)
  }
}

export function readCodexLine(line: string, state: CodexStreamState, watchdog: TurnWatchdog): void {
  const event = parseJsonLine(line)
  if (!event) return
  switch (asString(event.type)) {
    case 'thread.started':
      state.threadId = asString(event.thread_id)
      return
    case 'turn.completed': {
      state.turnCompleted = true
      const usage = asRecord(event.usage)
      if (usage) state.usage = addUsage(state.usage, usage)
      return
    }
    case 'turn.failed':
      state.turnFailed = `turn.failed: ${asString(asRecord(event.error)?.message) ?? 'no message'}`
      return
    case 'error': {
      const message = asString(event.message) ?? 'no message'
      // codex announces its own stream retries as error events; a retry that then succeeds is no failure
      if (RETRY_NOTICE.test(message)) state.warnings.push(`codex retry: ${message}`)
      else state.failures.push(`error: ${message}`)
      return
    }
    case 'item.started':
    case 'item.updated':
    case 'item.completed': {
      const item = asRecord(event.item)
      const type = asString(item?.type)
      if (!item || !type) return
      if (!NON_ACTION_ITEMS.has(type)) watchdog.count(asString(item.id))
      if (event.type !== 'item.completed') return
      if (type === 'agent_message') state.agentMessages.push(asString(item.text) ?? '')
      // error items carry warnings (e.g. missing model metadata); turn.failed / error events are the failures
      else if (type === 'error') state.warnings.push(asString(item.message) ?? 'error item')
      return
    }
    default:
      return
  }
}

/** A finished codex call: the call's limits, its process's end, the stream read from it, the turn watchdog, the model and the prices. */
interface FinishedCodexCall {
  call: Pick<AgentCall, 'callBudgetUsd' | 'maxTurns' | 'timeoutMs'>
  run: Pick<RunResult, 'exitCode' | 'signal' | 'timedOut' | 'aborted' | 'durationMs' | 'stdout' | 'stderr'>
  state: CodexStreamState
  watchdog: TurnWatchdog
  model: string
  prices: PriceTable
}

export function classifyCodex({ call, run, state, watchdog, model, prices }: FinishedCodexCall): AgentResult {
  const warnings = [...state.warnings]
  const price = priceFor(model, prices)
  let costUsd = call.callBudgetUsd
  let costSource: AgentResult['costSource'] = 'worst-case'
  if (!state.usage) {
    warnings.push(`no token usage reported: charged the full call budget ($${call.callBudgetUsd})`)
  } else if (!price) {
    warnings.push(
      `no price for model '${model}' (price table ${PRICE_TABLE_VERSION}; set the price-table input): charged the full call budget ($${call.callBudgetUsd})`
    )
  } else {
    costUsd = costOf(state.usage, price)
    costSource = 'priced'
  }
  const finalText = state.agentMessages.at(-1) ?? [...state.failures, ...(state.turnFailed ? [state.turnFailed] : [])].join('\n')
  const base: Omit<AgentResult, 'status' | 'reason'> = {
    ...processFacts(run),
    costUsd,
    costSource,
    turns: watchdog.turns,
    tokens: state.usage,
    sessionId: state.threadId,
    model,
    permissionDenials: [],
    finalText,
    warnings
  }
  if (watchdog.tripped) {
    return { ...base, status: 'capped', reason: `turn-cap: ${watchdog.turns} actions counted, killed above ${watchdog.killAbove} (max-turns ${call.maxTurns})` }
  }
  const ended = endedByLoopgate(call, run)
  if (ended) return { ...base, ...ended }
  // exit 0 is not success: a failed turn or an error event is a failure whatever the exit status
  if (state.turnFailed) return { ...base, status: 'failed', reason: state.turnFailed }
  if (state.failures.length > 0) return { ...base, status: 'failed', reason: state.failures.at(-1) as string }
  if (run.exitCode !== 0) {
    return { ...base, status: 'failed', reason: exitDescription(run) }
  }
  if (!state.turnCompleted) return { ...base, status: 'failed', reason: 'no turn.completed event' }
  // A refusal arrives as a message part codex does not print: the turn ends with no answer at all.
  if (state.agentMessages.length === 0) return { ...base, status: 'failed', reason: 'no agent message (refusal or empty answer)' }
  return { ...base, status: 'claimed-done', reason: 'turn.completed' }
}

/** `agent: codex`: one `codex exec --json` per call, priced from its token usage. */
export class CodexAgent implements AgentAdapter {
  readonly name = 'codex'

  constructor(private readonly opts: CodexAgentOptions = {}) {}

  async run(call: AgentCall): Promise<AgentResult> {
    const env = processEnv(call, {}, call.endpoint ? { [ENDPOINT_TOKEN_VARIABLE]: call.endpoint.token } : {})
    // the metered provider comes last: a later `-c` wins, so agent-args cannot route around the proxy
    const args = call.endpoint
      ? [...(this.opts.args ?? []), ...endpointProviderArgs(call.endpoint)]
      : [...(this.opts.providerArgs?.(env) ?? []), ...(this.opts.args ?? [])]
    const model = resolveCodexModel(args, env)
    const prices = { ...DEFAULT_PRICES, ...(this.opts.prices ?? {}) }
    const watchdog = new TurnWatchdog(call.maxTurns)
    const state = newCodexState()
    const r = await runStreamingAgent({
      call,
      command: this.opts.binary ?? 'codex',
      args: codexArgs(args),
      env,
      watchdog,
      readLine: (line) => readCodexLine(line, state, watchdog)
    })
    return classifyCodex({ call, run: r, state, watchdog, model, prices })
  }
}
