import { ClaudeAgent } from './claude.js'
import { CodexAgent } from './codex.js'
import { CommandAgent } from './command.js'
import { parsePriceTable } from './pricing.js'
import type { AgentAdapter } from './agent-call.js'

/** How the agent's CLI is called: the validated part of the agent's settings an adapter is built from. */
export interface AgentCallSettings {
  agentArgs: string[]
  agentCommand?: string
  priceTable?: string
  /** The `provider` input (one of the agent's providers). */
  provider?: string
  /** The `model` input. */
  model?: string
}

/** A credential from an action input, set in the agent's environment under the CLI's name. */
export interface CredentialInput {
  input: string
  env: string
}

/**
 * Where the agent's model is served. Only the chosen provider's variables reach the agent; none of
 * them ever reaches the gate.
 */
export interface ProviderSpec {
  /** The `provider` input's value. */
  readonly name: string
  /**
   * Variables the provider documents, passed from the runner when set. They are this provider's
   * credentials (e.g. what aws-actions/configure-aws-credentials exports), so the deny rule for
   * tokens and secrets does not apply to them; loopgate names them, a workflow cannot add to them.
   */
  readonly env: readonly string[]
  /** Values loopgate sets for this provider (e.g. CLAUDE_CODE_USE_BEDROCK=1). */
  readonly set?: Readonly<Record<string, string>>
  /** Variables among `env` that hold a credentials file's path: the agent gets a private copy. */
  readonly files?: readonly string[]
  /** The inputs passed with this provider, and the variables the CLI reads them from. */
  readonly credentials: readonly CredentialInput[]
  /** Extra CLI arguments the provider needs, from the runner's environment. */
  readonly args?: (env: NodeJS.ProcessEnv) => string[]
}

/** An npm package providing the agent's CLI, installed when the CLI is not on PATH. */
export interface AgentCli {
  package: string
  /** The version loopgate is tested with: the `agent-version` default. */
  version: string
  bin: string
}

export interface AgentSpec {
  /** The `agent` input's value. */
  readonly name: string
  /** Absent for agents that bring their own command. */
  readonly cli?: AgentCli
  /** The action input holding the API key, and the variable the CLI reads it from (also the local CLI's fallback). */
  readonly apiKey?: { input: string; env: string }
  /** Configuration variables the CLI documents, passed to it when set on the runner. */
  readonly configEnv: readonly string[]
  /** The providers the CLI can use; the first is the default. */
  readonly providers?: readonly ProviderSpec[]
  /** The CLI flag that names the model (the `model` input). */
  readonly modelFlag?: string
  /**
   * `agent-args` refused because each call must be a fresh process: flags (matched before any
   * `=`) and bare words (subcommands, matched whole).
   */
  readonly refusedArgs: readonly string[]
  /** `agent-args` refused because loopgate sets them from its own inputs. */
  readonly controlledArgs: readonly string[]
  /** Inputs the agent cannot run without, and the words of the error when one is missing. */
  readonly requiredInputs?: readonly { input: string; accepted: string }[]
  /** Builds the adapter; `binary` is the installed CLI's path when the agent has one. */
  readonly createAdapter: (settings: AgentCallSettings, binary?: string) => AgentAdapter
}

/** Flags that would resume or reuse an earlier session, or skip the CLI's own safety defaults. */
const FRESH_PROCESS_FLAGS = ['--resume', '--continue', '--bare']
/** Flags loopgate sets itself (turn cap, call budget, permissions, the stream it reads). */
const CONTROLLED_FLAGS = ['--max-turns', '--max-budget-usd', '--dangerously-skip-permissions', '--output-format']

/** `--model <model>` when the `model` input is set. */
function modelArgs(settings: AgentCallSettings): string[] {
  return settings.model ? ['--model', settings.model] : []
}

/** Claude Code's providers, with the variables its documentation lists for each. */
const CLAUDE_PROVIDERS: readonly ProviderSpec[] = [
  {
    name: 'anthropic',
    env: ['ANTHROPIC_BASE_URL'],
    credentials: [
      { input: 'anthropic-api-key', env: 'ANTHROPIC_API_KEY' },
      { input: 'claude-code-oauth-token', env: 'CLAUDE_CODE_OAUTH_TOKEN' }
    ]
  },
  {
    name: 'bedrock',
    env: [
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'AWS_REGION',
      'AWS_DEFAULT_REGION',
      'AWS_PROFILE',
      'AWS_CONFIG_FILE',
      'AWS_SHARED_CREDENTIALS_FILE',
      'AWS_BEARER_TOKEN_BEDROCK',
      'ANTHROPIC_BEDROCK_BASE_URL',
      'ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION',
      'CLAUDE_CODE_SKIP_BEDROCK_AUTH'
    ],
    set: { CLAUDE_CODE_USE_BEDROCK: '1' },
    files: ['AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE'],
    credentials: []
  },
  {
    name: 'vertex',
    env: [
      'GOOGLE_APPLICATION_CREDENTIALS',
      'CLOUD_ML_REGION',
      'ANTHROPIC_VERTEX_PROJECT_ID',
      'ANTHROPIC_VERTEX_BASE_URL',
      'GOOGLE_CLOUD_PROJECT',
      'GCLOUD_PROJECT',
      'CLOUDSDK_CORE_PROJECT',
      'CLAUDE_CODE_SKIP_VERTEX_AUTH'
    ],
    set: { CLAUDE_CODE_USE_VERTEX: '1' },
    files: ['GOOGLE_APPLICATION_CREDENTIALS'],
    credentials: []
  }
]

/** The codex CLI's Azure OpenAI provider, as its configuration documentation writes it. */
export function codexAzureArgs(env: NodeJS.ProcessEnv): string[] {
  const url = env.AZURE_OPENAI_BASE_URL ?? ''
  const toml = (value: string): string => JSON.stringify(value)
  const version = env.AZURE_OPENAI_API_VERSION ? `, query_params = { api-version = ${toml(env.AZURE_OPENAI_API_VERSION)} }` : ''
  const provider =
    `{ name = "Azure", base_url = ${toml(url)}, env_key = "AZURE_OPENAI_API_KEY", ` +
    `env_http_headers = { "api-key" = "AZURE_OPENAI_API_KEY" }, wire_api = "responses"${version} }`
  return ['-c', 'model_provider="azure"', '-c', `model_providers.azure=${provider}`]
}

/** Codex's providers. */
const CODEX_PROVIDERS: readonly ProviderSpec[] = [
  { name: 'openai', env: ['OPENAI_BASE_URL'], credentials: [{ input: 'openai-api-key', env: 'OPENAI_API_KEY' }] },
  {
    name: 'azure',
    env: ['AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_BASE_URL', 'AZURE_OPENAI_API_VERSION'],
    credentials: [{ input: 'openai-api-key', env: 'AZURE_OPENAI_API_KEY' }],
    args: codexAzureArgs
  }
]

/** The agents, one entry each. Adding one is an entry here and its adapter file. */
export const AGENTS: readonly AgentSpec[] = [
  {
    name: 'claude',
    cli: { package: '@anthropic-ai/claude-code', version: '2.1.328', bin: 'claude' },
    apiKey: { input: 'anthropic-api-key', env: 'ANTHROPIC_API_KEY' },
    configEnv: [
      'ANTHROPIC_MODEL',
      'ANTHROPIC_SMALL_FAST_MODEL',
      'CLAUDE_CONFIG_DIR',
      'DISABLE_AUTOUPDATER',
      'DISABLE_TELEMETRY',
      'DISABLE_ERROR_REPORTING',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'
    ],
    providers: CLAUDE_PROVIDERS,
    modelFlag: '--model',
    // Claude Code's short forms of --resume and --continue.
    refusedArgs: [...FRESH_PROCESS_FLAGS, '-r', '-c'],
    controlledArgs: CONTROLLED_FLAGS,
    createAdapter: (settings, binary) => new ClaudeAgent({ binary, args: [...modelArgs(settings), ...settings.agentArgs] })
  },
  {
    name: 'codex',
    cli: { package: '@openai/codex', version: '0.171.0', bin: 'codex' },
    apiKey: { input: 'openai-api-key', env: 'OPENAI_API_KEY' },
    configEnv: ['CODEX_HOME', 'RUST_LOG'],
    providers: CODEX_PROVIDERS,
    modelFlag: '--model',
    // `codex exec resume` continues a session; codex's -c is a config override and stays allowed.
    refusedArgs: [...FRESH_PROCESS_FLAGS, 'resume'],
    controlledArgs: CONTROLLED_FLAGS,
    createAdapter: (settings, binary) => {
      const prices = settings.priceTable ? parsePriceTable(settings.priceTable) : undefined
      if (typeof prices === 'string') throw new Error(`price-table: ${prices}`)
      const provider = CODEX_PROVIDERS.find((p) => p.name === settings.provider)
      return new CodexAgent({ binary, args: [...modelArgs(settings), ...settings.agentArgs], prices, providerArgs: provider?.args })
    }
  },
  {
    name: 'command',
    configEnv: [],
    refusedArgs: FRESH_PROCESS_FLAGS,
    controlledArgs: CONTROLLED_FLAGS,
    requiredInputs: [{ input: 'agent-command', accepted: "a shell command when 'agent' is 'command'" }],
    createAdapter: (settings) => new CommandAgent(settings.agentCommand ?? '')
  }
]

const registry = new Map<string, AgentSpec>(AGENTS.map((spec) => [spec.name, spec]))

/** The `agent` input's accepted values, in the table's order. */
export function agentNames(): string[] {
  return [...registry.keys()]
}

export function agentSpec(name: string): AgentSpec {
  const spec = registry.get(name)
  if (!spec) throw new Error(`unknown agent ${JSON.stringify(name)} (known: ${agentNames().join(', ')})`)
  return spec
}

/** Every registered agent. */
export function agentSpecs(): AgentSpec[] {
  return [...registry.values()]
}

/**
 * Adds an agent to the registry (an embedding program's own agent, or a test's); returns the
 * function that removes it again. A built-in agent cannot be replaced.
 */
export function registerAgent(spec: AgentSpec): () => void {
  // The name becomes part of tool-cache folders and messages.
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(spec.name)) throw new Error(`agent name ${JSON.stringify(spec.name)}: lower-case letters, digits and '-'`)
  if (registry.has(spec.name)) throw new Error(`agent ${JSON.stringify(spec.name)} is already registered`)
  registry.set(spec.name, spec)
  return () => {
    if (registry.get(spec.name) === spec) registry.delete(spec.name)
  }
}

/** The agent's provider by name (the default when none is given); undefined for an agent without providers or an unknown name. */
export function providerSpec(spec: AgentSpec, name?: string): ProviderSpec | undefined {
  if (!spec.providers) return undefined
  return name === undefined ? spec.providers[0] : spec.providers.find((p) => p.name === name)
}

/** Every input that holds one of the agent's credentials (its API key and its providers'). */
export function credentialInputs(spec: AgentSpec): string[] {
  const inputs = [...(spec.apiKey ? [spec.apiKey.input] : []), ...(spec.providers ?? []).flatMap((p) => p.credentials.map((c) => c.input))]
  return [...new Set(inputs)]
}

/** The `agent-args` entry that is refused for this agent, and why; undefined when all may pass. */
export function refusedArg(spec: AgentSpec, args: readonly string[]): { arg: string; why: 'fresh-process' | 'controlled' } | undefined {
  for (const arg of args) {
    const flag = arg.startsWith('-') ? arg.split('=')[0] : arg
    if (spec.refusedArgs.includes(flag)) return { arg: flag, why: 'fresh-process' }
    if (spec.controlledArgs.includes(flag)) return { arg: flag, why: 'controlled' }
  }
  return undefined
}
