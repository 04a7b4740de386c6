import type { Usage } from '../agents/pricing.js'
import { count, parseData, record, type ResponseUsage, type UsageDialect } from './response-usage.js'

/**
 * Anthropic's usage in loopgate's terms: Anthropic counts `input_tokens` without the cache, so
 * the input is all three kinds together. Cache writes are split by lifetime in `cache_creation`
 * (1-hour writes cost more), server tools' web searches counted in `server_tool_use`.
 */
function merge(prev: Usage | undefined, fields: Record<string, unknown>): Usage {
  const creation = record(fields.cache_creation)
  const raw = {
    plain: count(fields.input_tokens),
    read: count(fields.cache_read_input_tokens),
    write: count(fields.cache_creation_input_tokens),
    writeHour: count(creation?.ephemeral_1h_input_tokens),
    writeMinutes: count(creation?.ephemeral_5m_input_tokens),
    output: count(fields.output_tokens),
    searches: count(record(fields.server_tool_use)?.web_search_requests)
  }
  const before = prev ?? { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 }
  const plainBefore = before.input - before.cachedInput - (before.cacheWrite ?? 0)
  const read = raw.read ?? before.cachedInput
  const writeHour = raw.writeHour ?? before.cacheWrite1h ?? 0
  // the split may be all that is sent: the total is never less than its parts
  const write = Math.max(raw.write ?? before.cacheWrite ?? 0, writeHour + (raw.writeMinutes ?? 0))
  const plain = raw.plain ?? plainBefore
  const usage: Usage = { input: plain + read + write, cachedInput: read, cacheWrite: write, output: raw.output ?? before.output }
  if (writeHour > 0) usage.cacheWrite1h = writeHour
  const searches = raw.searches ?? before.webSearches
  if (searches) usage.webSearches = searches
  const tier = typeof fields.service_tier === 'string' ? fields.service_tier : before.tier
  if (tier) usage.tier = tier
  return usage
}

/**
 * Anthropic Messages: `message_start.message` names the model and the input usage (cache reads
 * and writes apart), `message_delta.usage` carries the final, cumulative output count (and may
 * restate the input).
 */
export const anthropicDialect: UsageDialect = {
  // text deltas are most of a stream: only the two events that carry usage are read
  skip: (event) => event !== 'message_start' && event !== 'message_delta',
  event(e, seen) {
    const data = parseData(e.data)
    if (!data) return
    const type = e.event ?? data.type
    if (type === 'message_start') {
      const message = record(data.message)
      if (typeof message?.model === 'string') seen.model = message.model
      const usage = record(message?.usage)
      if (usage) seen.usage = merge(seen.usage, usage)
    } else if (type === 'message_delta') {
      const usage = record(data.usage)
      if (usage) {
        seen.usage = merge(seen.usage, usage)
        seen.final = true
      }
    }
  },
  body(data): ResponseUsage {
    const usage = record(data.usage)
    return { model: typeof data.model === 'string' ? data.model : undefined, usage: usage ? merge(undefined, usage) : undefined, final: usage !== undefined }
  }
}
