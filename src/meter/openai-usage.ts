import type { Usage } from '../agents/pricing.js'
import { count, parseData, record, type ResponseUsage, type UsageDialect } from './response-usage.js'

/**
 * What a Responses object or a Chat Completions body adds to its usage: the service tier it was
 * served at, and the web searches its output items show (`web_search_call`).
 */
function withServed(usage: Usage | undefined, container: Record<string, unknown>): Usage | undefined {
  if (!usage) return usage
  const out: Usage = { ...usage }
  if (typeof container.service_tier === 'string') out.tier = container.service_tier
  if (Array.isArray(container.output)) {
    const searches = container.output.filter((item) => record(item)?.type === 'web_search_call').length
    if (searches > 0) out.webSearches = searches
  }
  return out
}

/** OpenAI's usage, in the Responses shape (`input_tokens`) or the Chat Completions one (`prompt_tokens`). */
function openaiUsage(fields: Record<string, unknown>): Usage | undefined {
  if (fields.input_tokens !== undefined) {
    const details = record(fields.input_tokens_details)
    return {
      input: count(fields.input_tokens) ?? 0,
      cachedInput: count(details?.cached_tokens) ?? 0,
      cacheWrite: count(details?.cache_write_tokens) ?? 0,
      output: count(fields.output_tokens) ?? 0
    }
  }
  if (fields.prompt_tokens !== undefined) {
    const details = record(fields.prompt_tokens_details)
    return { input: count(fields.prompt_tokens) ?? 0, cachedInput: count(details?.cached_tokens) ?? 0, output: count(fields.completion_tokens) ?? 0 }
  }
  return undefined
}

const FINAL_RESPONSE_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed'])

/**
 * OpenAI Responses (`response.completed.response.usage`, also on `response.incomplete` and
 * `response.failed`) and Chat Completions (the chunk whose `usage` is set, sent last when
 * `stream_options.include_usage` is on; `data: [DONE]` ends the stream).
 */
export const openaiDialect: UsageDialect = {
  // deltas are most of a stream: only events that can name the model or carry usage are read
  skip: (event) => event !== 'response.created' && !FINAL_RESPONSE_EVENTS.has(event),
  event(e, seen) {
    if (e.data === '[DONE]' || (e.event === undefined && !e.data.includes('"usage"'))) return
    const data = parseData(e.data)
    if (!data) return
    const type = typeof data.type === 'string' ? data.type : e.event
    const response = record(data.response)
    if (type && type.startsWith('response.') && response) {
      if (typeof response.model === 'string') seen.model = response.model
      const usage = record(response.usage)
      if (usage && FINAL_RESPONSE_EVENTS.has(type)) {
        seen.usage = withServed(openaiUsage(usage), response) ?? seen.usage
        seen.final = seen.usage !== undefined
      }
      return
    }
    if (typeof data.model === 'string') seen.model = data.model
    const usage = record(data.usage)
    if (usage) {
      seen.usage = withServed(openaiUsage(usage), data) ?? seen.usage
      seen.final = seen.usage !== undefined
    }
  },
  body(data): ResponseUsage {
    const fields = record(data.usage)
    const usage = fields ? withServed(openaiUsage(fields), data) : undefined
    return { model: typeof data.model === 'string' ? data.model : undefined, usage, final: usage !== undefined }
  }
}
