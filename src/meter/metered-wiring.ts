import type { AdapterSettings } from '../agents/adapter.js'
import { DEFAULT_PRICES, parsePriceTable, type PriceTable } from '../agents/pricing.js'
import type { AgentAdapter } from '../agents/agent-call.js'
import { MeteredAdapter } from './metered-adapter.js'
import { meterRouteFor } from './upstream-for.js'
import { WireMeter } from './wire-meter.js'

/** The built-in price table with the `price-table` input over it. */
function priceTableOf(settings: Pick<AdapterSettings, 'priceTable'>): PriceTable {
  const custom = settings.priceTable ? parsePriceTable(settings.priceTable) : {}
  if (typeof custom === 'string') throw new Error(`price-table: ${custom}`)
  return { ...DEFAULT_PRICES, ...custom }
}

const API_WORDS = {
  anthropic: 'Anthropic Messages',
  openai: 'OpenAI Responses',
  azure: 'Azure OpenAI',
  bedrock: 'Amazon Bedrock',
  vertex: 'Vertex AI'
} as const

/**
 * The agent behind loopgate's metering proxy where its route is metered at the wire (see
 * meterRouteFor), with the words the run's report uses for it; the adapter unchanged elsewhere.
 */
export function meteredAgent(
  settings: AdapterSettings,
  runnerEnv: NodeJS.ProcessEnv,
  adapter: AgentAdapter
): { adapter: AgentAdapter; meteredAtWire?: string; meter?: WireMeter } {
  const route = meterRouteFor(settings, runnerEnv)
  if (!route) return { adapter }
  const meter = new WireMeter(route.upstream, priceTableOf(settings))
  return { adapter: new MeteredAdapter(adapter, meter, route.query), meteredAtWire: `${API_WORDS[route.upstream.api]} via ${route.upstream.base.host}`, meter }
}
