import { claude } from './claude/index.js'
import { codex } from './codex/index.js'
import { command } from './command/index.js'
import type { AgentSpec, ProviderSpec } from './agent-spec.js'

export type { AgentCallSettings, AgentCli, AgentSpec, CredentialInput, MeterRouteId, ProviderSpec } from './agent-spec.js'

/**
 * The agents, one descriptor each: a folder `src/agents/<name>/` whose `index.ts` holds every fact
 * about the agent (see agent-spec.ts), and one line here.
 */
export const AGENTS: readonly AgentSpec[] = [claude, codex, command]

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

/** Every variable a registered agent's CLI reads a model credential from. */
export function modelCredentialVariables(): string[] {
  return [...new Set(agentSpecs().flatMap((spec) => spec.modelCredentials ?? []))]
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
