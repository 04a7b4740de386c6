import type { AgentAdapter, AgentCall } from '../agents/agent-call.js'
import { modelCredentialVariables } from '../agents/agent-registry.js'
import type { AgentResult } from '../agent-result.js'
import { meteredResult } from './metered-result.js'
import type { WireMeter } from './wire-meter.js'

/** How long a call's last relayed response may take to be priced once its process has ended. */
const SETTLE_MS = 5000

/** Google's credential variables: the proxy holds the access token, the agent none of them. */
const GOOGLE_CREDENTIAL_VARIABLES = [
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_OAUTH_ACCESS_TOKEN',
  'GOOGLE_GHA_CREDS_PATH',
  'CLOUDSDK_AUTH_ACCESS_TOKEN',
  'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE'
]

/**
 * The call's environment without any model credential; behind a cloud route, without any AWS
 * variable or Google credential either (and without the real cloud base URLs).
 */
export function withoutCredentials(env: NodeJS.ProcessEnv, cloud?: 'bedrock' | 'vertex'): NodeJS.ProcessEnv {
  const out = { ...env }
  for (const name of modelCredentialVariables()) delete out[name]
  if (!cloud) return out
  for (const name of Object.keys(out)) if (name.startsWith('AWS_')) delete out[name]
  for (const name of [...GOOGLE_CREDENTIAL_VARIABLES, 'ANTHROPIC_BEDROCK_BASE_URL', 'ANTHROPIC_VERTEX_BASE_URL', 'ANTHROPIC_CUSTOM_HEADERS']) delete out[name]
  return out
}

/**
 * An adapter whose calls go through loopgate's metering proxy: each call gets a token of its own
 * (dead when the call returns) and the proxy's URL instead of the model API and its credential,
 * and is charged what the proxy relayed. When the proxy refuses a request (a limit reached) the
 * call's process group is killed through the call's abort signal.
 */
export class MeteredAdapter implements AgentAdapter {
  readonly name: string

  constructor(
    private readonly inner: AgentAdapter,
    private readonly meter: WireMeter,
    private readonly query?: Record<string, string>
  ) {
    this.name = inner.name
  }

  async run(call: AgentCall): Promise<AgentResult> {
    const origin = await this.meter.url()
    const ended = new AbortController()
    const cancel = (): void => ended.abort()
    if (call.signal?.aborted) ended.abort()
    call.signal?.addEventListener('abort', cancel, { once: true })
    const limit = call.spendLimit ?? { usd: call.callBudgetUsd, name: 'call-budget-usd' }
    const metered = this.meter.open(
      { limitUsd: limit.usd, limitName: limit.name, maxModelRequests: call.maxTurns + 2, deadline: Date.now() + call.timeoutMs },
      () => ended.abort()
    )
    const basePath = this.meter.upstream.base.pathname.replace(/\/+$/, '')
    const api = this.meter.upstream.api
    const cloud = api === 'bedrock' || api === 'vertex' ? api : undefined
    try {
      const inner = await this.inner.run({
        ...call,
        env: withoutCredentials(call.env, cloud),
        endpoint: { baseUrl: `${origin}${basePath}`, token: metered.token, query: this.query, cloud },
        signal: ended.signal
      })
      await metered.settled(SETTLE_MS)
      return meteredResult(inner, this.meter.close(metered), call.signal?.aborted === true)
    } finally {
      this.meter.close(metered)
      call.signal?.removeEventListener('abort', cancel)
    }
  }
}
