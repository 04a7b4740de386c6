import { agentSpec, providerSpec } from '../agents/agent-registry.js'

/** What the credential check reads of the settings. */
interface CredentialSettings {
  agent: string
  provider?: string
  agentApiKey?: string
  agentCredentials?: Record<string, string>
}

const named = (inputs: { input: string; env: string }[]): string => inputs.map((c) => `\`${c.input}\` (locally also ${c.env})`).join(' or ')

/**
 * Why the chosen agent and provider have no model credential, or null. An agent that brings its own
 * command needs none; a provider whose credentials come from the cloud's own chain (Bedrock, Vertex:
 * environment, profile files or the instance's metadata service) cannot be seen from here and is
 * left to the agent's first call.
 */
export function missingCredential(settings: CredentialSettings): string | null {
  const spec = agentSpec(settings.agent)
  const provider = providerSpec(spec, settings.provider)
  const given = { ...(settings.agentCredentials ?? {}), ...(spec.apiKey && settings.agentApiKey ? { [spec.apiKey.input]: settings.agentApiKey } : {}) }
  const accepted = provider ? [...provider.credentials] : spec.apiKey ? [spec.apiKey] : []
  if (accepted.length === 0 || accepted.some((c) => (given[c.input] ?? '').trim() !== '')) return null
  const where = provider ? `agent ${spec.name} with provider ${provider.name}` : `agent ${spec.name}`
  return `no model credential for ${where}: set ${named(accepted)}. Nothing was spent.`
}
