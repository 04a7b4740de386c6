import { ClaudeAgent } from './claude.js'
import { CodexAgent } from './codex.js'
import { CommandAgent } from './command.js'
import { parsePriceTable } from './pricing.js'
import type { AgentAdapter } from './types.js'

/** The validated settings an adapter is built from. */
export interface AgentSettings {
  agentArgs: string[]
  agentCommand?: string
  priceTable?: string
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
  readonly createAdapter: (settings: AgentSettings, binary?: string) => AgentAdapter
}

/** Flags that would resume or reuse an earlier session, or skip the CLI's own safety defaults. */
const FRESH_PROCESS_FLAGS = ['--resume', '--continue', '--bare']
/** Flags loopgate sets itself (turn cap, call budget, permissions, the stream it reads). */
const CONTROLLED_FLAGS = ['--max-turns', '--max-budget-usd', '--dangerously-skip-permissions', '--output-format']

/** The agents, one entry each. Adding one is an entry here and its adapter file. */
export const AGENTS: readonly AgentSpec[] = [
  {
    name: 'claude',
    cli: { package: '@anthropic-ai/claude-code', version: '2.1.328', bin: 'claude' },
    apiKey: { input: 'anthropic-api-key', env: 'ANTHROPIC_API_KEY' },
    configEnv: [
      'ANTHROPIC_BASE_URL',
      'ANTHROPIC_MODEL',
      'ANTHROPIC_SMALL_FAST_MODEL',
      'CLAUDE_CODE_USE_BEDROCK',
      'CLAUDE_CODE_USE_VERTEX',
      'CLAUDE_CONFIG_DIR',
      'DISABLE_AUTOUPDATER',
      'DISABLE_TELEMETRY',
      'DISABLE_ERROR_REPORTING',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'
    ],
    // Claude Code's short forms of --resume and --continue.
    refusedArgs: [...FRESH_PROCESS_FLAGS, '-r', '-c'],
    controlledArgs: CONTROLLED_FLAGS,
    createAdapter: (settings, binary) => new ClaudeAgent({ binary, args: settings.agentArgs })
  },
  {
    name: 'codex',
    cli: { package: '@openai/codex', version: '0.171.0', bin: 'codex' },
    apiKey: { input: 'openai-api-key', env: 'OPENAI_API_KEY' },
    configEnv: ['OPENAI_BASE_URL', 'CODEX_HOME', 'RUST_LOG'],
    // `codex exec resume` continues a session; codex's -c is a config override and stays allowed.
    refusedArgs: [...FRESH_PROCESS_FLAGS, 'resume'],
    controlledArgs: CONTROLLED_FLAGS,
    createAdapter: (settings, binary) => {
      const prices = settings.priceTable ? parsePriceTable(settings.priceTable) : undefined
      if (typeof prices === 'string') throw new Error(`price-table: ${prices}`)
      return new CodexAgent({ binary, args: settings.agentArgs, prices })
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

/** The `agent-args` entry that is refused for this agent, and why; undefined when all may pass. */
export function refusedArg(spec: AgentSpec, args: readonly string[]): { arg: string; why: 'fresh-process' | 'controlled' } | undefined {
  for (const arg of args) {
    const flag = arg.startsWith('-') ? arg.split('=')[0] : arg
    if (spec.refusedArgs.includes(flag)) return { arg: flag, why: 'fresh-process' }
    if (spec.controlledArgs.includes(flag)) return { arg: flag, why: 'controlled' }
  }
  return undefined
}
