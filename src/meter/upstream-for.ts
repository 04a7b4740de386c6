import { credentialsFor, type AdapterSettings } from '../agents/adapter.js'
import { agentSpec, providerSpec } from '../agents/agent-registry.js'
import { bedrockUpstream, vertexUpstream } from './cloud-routes.js'
import type { Upstream } from './wire-api.js'

/** A run's route through the proxy: the upstream, and the query its requests carry. */
interface MeterRoute {
  upstream: Upstream
  query?: Record<string, string>
}

const ANTHROPIC_API = 'https://api.anthropic.com'
const OPENAI_API = 'https://api.openai.com/v1'
/** The beta flag Anthropic's API wants on requests authorised by a Claude subscription token. */
const OAUTH_BETA = 'oauth-2025-04-20'

function baseUrl(value: string | undefined, fallback: string, variable: string): URL {
  const raw = value && value.trim() ? value.trim() : fallback
  try {
    const url = new URL(raw)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // reported below
  }
  throw new Error(`${variable} must be an http(s) URL (got ${JSON.stringify(raw)})`)
}

/**
 * The route through loopgate's metering proxy for the run's agent and provider: Claude on
 * Anthropic's API (an API key, or a subscription token sent as a Bearer token), Codex on OpenAI or
 * Azure OpenAI, Claude on Bedrock (signed by the proxy) or Vertex (the proxy's access token).
 * Undefined where the call is not metered at the wire: `agent: command`, or no credential given
 * (Bedrock and Vertex without a credential loopgate can hold are refused instead, see cloud-routes.ts).
 */
export function meterRouteFor(settings: AdapterSettings, runnerEnv: NodeJS.ProcessEnv): MeterRoute | undefined {
  const given = new Map(credentialsFor(settings).map((c) => [c.name, c.value]))
  const route = providerSpec(agentSpec(settings.agent), settings.provider)?.meterRoute
  if (route === 'anthropic') {
    const base = baseUrl(runnerEnv.ANTHROPIC_BASE_URL, ANTHROPIC_API, 'ANTHROPIC_BASE_URL')
    const key = given.get('ANTHROPIC_API_KEY')
    if (key) return { upstream: { api: 'anthropic', base, auth: { header: 'x-api-key', value: key } } }
    const oauth = given.get('CLAUDE_CODE_OAUTH_TOKEN')
    if (oauth) {
      return {
        upstream: { api: 'anthropic', base, auth: { header: 'authorization', value: `Bearer ${oauth}` }, appendHeaders: { 'anthropic-beta': OAUTH_BETA } }
      }
    }
    return undefined
  }
  if (route === 'bedrock' || route === 'vertex') {
    return { upstream: route === 'bedrock' ? bedrockUpstream(runnerEnv) : vertexUpstream(runnerEnv) }
  }
  if (route === 'openai') {
    const key = given.get('OPENAI_API_KEY')
    if (!key) return undefined
    return {
      upstream: {
        api: 'openai',
        base: baseUrl(runnerEnv.OPENAI_BASE_URL, OPENAI_API, 'OPENAI_BASE_URL'),
        auth: { header: 'authorization', value: `Bearer ${key}` }
      }
    }
  }
  if (route === 'azure') {
    const key = given.get('AZURE_OPENAI_API_KEY') ?? runnerEnv.AZURE_OPENAI_API_KEY
    if (!key || !runnerEnv.AZURE_OPENAI_BASE_URL) return undefined
    const version = runnerEnv.AZURE_OPENAI_API_VERSION
    return {
      upstream: { api: 'azure', base: baseUrl(runnerEnv.AZURE_OPENAI_BASE_URL, '', 'AZURE_OPENAI_BASE_URL'), auth: { header: 'api-key', value: key } },
      query: version ? { 'api-version': version } : undefined
    }
  }
  return undefined
}
