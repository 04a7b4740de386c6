import { ensureAgentCli } from './install.js'
import { agentSpec, type AgentSettings } from './registry.js'
import type { AgentAdapter } from './types.js'

/** What the adapter of the configured agent is built from. */
export interface AdapterSettings extends AgentSettings {
  agent: string
  agentVersion?: string
  /** The configured agent's API key, read from its registry input. */
  agentApiKey?: string
}

/** The adapter for the configured agent; `binary` is the CLI's path (see prepareAdapter). */
export function createAdapter(settings: AdapterSettings, binary?: string): AgentAdapter {
  return agentSpec(settings.agent).createAdapter(settings, binary)
}

/** Installs the agent's CLI when it has one and it is not on PATH (timed and reported), then creates the adapter. */
export async function prepareAdapter(settings: AdapterSettings, ctx: { env: NodeJS.ProcessEnv; report: (line: string) => void }): Promise<AgentAdapter> {
  if (!agentSpec(settings.agent).cli) return createAdapter(settings)
  const cli = await ensureAgentCli(settings.agent, { version: settings.agentVersion, path: ctx.env.PATH, env: ctx.env, report: ctx.report })
  return createAdapter(settings, cli.binary)
}

/** The API key for the agent's process, under the variable its CLI reads. */
export function apiKeyFor(settings: AdapterSettings): { name: string; value: string } | undefined {
  const key = agentSpec(settings.agent).apiKey
  return key && settings.agentApiKey ? { name: key.env, value: settings.agentApiKey } : undefined
}
