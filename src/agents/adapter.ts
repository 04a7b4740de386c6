import type { AgentUser } from '../isolation/agent-user.js'
import { agentBinaryProblem } from '../preflight/agent-binary.js'
import { PreflightError } from '../preflight/error.js'
import { ensureAgentCli } from './install.js'
import { agentSpec, providerSpec, type AgentCallSettings } from './agent-registry.js'
import type { AgentAdapter } from './agent-call.js'

/** What the adapter of the configured agent is built from. */
export interface AdapterSettings extends AgentCallSettings {
  agent: string
  agentVersion?: string
  /** The configured agent's API key, read from its registry input. */
  agentApiKey?: string
  /** The agent's credential inputs that are set (input name → value). */
  agentCredentials?: Record<string, string>
}

/** The adapter for the configured agent; `binary` is the CLI's path (see prepareAdapter). */
export function createAdapter(settings: AdapterSettings, binary?: string): AgentAdapter {
  return agentSpec(settings.agent).createAdapter(settings, binary)
}

/**
 * Installs the agent's CLI when it has one and the agent's user cannot run one on PATH (timed and
 * reported), checks that user can run it (before any call: a PreflightError otherwise), then
 * creates the adapter.
 */
export async function prepareAdapter(
  settings: AdapterSettings,
  ctx: { env: NodeJS.ProcessEnv; report: (line: string) => void; user?: AgentUser; agentPath?: string }
): Promise<AgentAdapter> {
  if (!agentSpec(settings.agent).cli) return createAdapter(settings)
  const usable = (binary: string): boolean => agentBinaryProblem(binary, ctx.user, ctx.agentPath ?? ctx.env.PATH) === null
  const cli = await ensureAgentCli(settings.agent, { version: settings.agentVersion, path: ctx.env.PATH, env: ctx.env, report: ctx.report, usable })
  const problem = agentBinaryProblem(cli.binary, ctx.user, ctx.agentPath ?? ctx.env.PATH)
  if (problem) throw new PreflightError('agent', problem)
  return createAdapter(settings, cli.binary)
}

/** The API key for the agent's process, under the variable its CLI reads. */
export function apiKeyFor(settings: AdapterSettings): { name: string; value: string } | undefined {
  const key = agentSpec(settings.agent).apiKey
  return key && settings.agentApiKey ? { name: key.env, value: settings.agentApiKey } : undefined
}

/**
 * The credentials the agent's process gets: those of its provider that are set (for Claude on
 * Anthropic the API key and the subscription token; for Codex on Azure the key as
 * AZURE_OPENAI_API_KEY), each under the variable its CLI reads. An agent without providers gets
 * its API key.
 */
export function credentialsFor(settings: AdapterSettings): { name: string; value: string }[] {
  const spec = agentSpec(settings.agent)
  const provider = providerSpec(spec, settings.provider)
  if (!provider) {
    const key = apiKeyFor(settings)
    return key ? [key] : []
  }
  const given = { ...(spec.apiKey && settings.agentApiKey ? { [spec.apiKey.input]: settings.agentApiKey } : {}), ...(settings.agentCredentials ?? {}) }
  return provider.credentials.flatMap((c) => (given[c.input] ? [{ name: c.env, value: given[c.input] }] : []))
}
