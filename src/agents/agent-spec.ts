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
 * The metering proxy's routes (src/meter/upstream-for.ts): the model API a provider's requests go
 * to, and how the proxy holds its credential.
 */
export type MeterRouteId = 'anthropic' | 'openai' | 'azure' | 'bedrock' | 'vertex'

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
  /** A runner variable the provider cannot work without, and the words of the error when it is missing. */
  readonly requiredEnv?: { name: string; accepted: string }
  /** The metering proxy's route for this provider; absent where its calls are not metered at the wire. */
  readonly meterRoute?: MeterRouteId
}

/** An npm package providing the agent's CLI, installed when the CLI is not on PATH. */
export interface AgentCli {
  package: string
  /** The version loopgate is tested with: the `agent-version` default. */
  version: string
  bin: string
}

/** An option's words in `loopgate run --help`: its value's placeholder and one short line. */
export type HelpWords = readonly [placeholder: string, text: string]

/** Everything loopgate knows about one agent: its folder `src/agents/<name>/` exports it from `index.ts`. */
export interface AgentSpec {
  /** The `agent` input's value. */
  readonly name: string
  /** What the agent is, in the `agent` input's description and `--help` (after its name, in parentheses). */
  readonly summary: string
  /** Absent for agents that bring their own command. */
  readonly cli?: AgentCli
  /** The action input holding the API key, and the variable the CLI reads it from (also the local CLI's fallback). */
  readonly apiKey?: { input: string; env: string }
  /** Configuration variables the CLI documents, passed to it when set on the runner. */
  readonly configEnv: readonly string[]
  /**
   * Every variable the CLI reads a model credential from: none reaches a call metered at the wire,
   * whichever agent runs (the proxy holds the credential).
   */
  readonly modelCredentials?: readonly string[]
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
  /** The `--help` words of the inputs this agent brings (its credential inputs). */
  readonly inputHelp?: Readonly<Record<string, HelpWords>>
  /** Builds the adapter; `binary` is the installed CLI's path when the agent has one. */
  readonly createAdapter: (settings: AgentCallSettings, binary?: string) => AgentAdapter
}

/** Flags that would resume or reuse an earlier session, or skip the CLI's own safety defaults. */
export const FRESH_PROCESS_FLAGS = ['--resume', '--continue', '--bare']
/** Flags loopgate sets itself (turn cap, call budget, permissions, the stream it reads). */
export const CONTROLLED_FLAGS = ['--max-turns', '--max-budget-usd', '--dangerously-skip-permissions', '--output-format']

/** `--model <model>` when the `model` input is set. */
export function modelArgs(settings: AgentCallSettings): string[] {
  return settings.model ? ['--model', settings.model] : []
}
