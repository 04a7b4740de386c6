import { WEB_SEARCH_USD } from '../agents/pricing.js'
import { record } from './response-usage.js'
import type { WireApi } from './wire-api.js'

/** The field that caps a request's output tokens. */
type OutputCapField = 'max_tokens' | 'max_output_tokens' | 'max_completion_tokens'

/** What a model request asks for that decides its price, read from its body before it is relayed. */
export interface RequestTerms {
  /** The parsed body (absent when it is not a JSON object). */
  data?: Record<string, unknown>
  model?: string
  outputCap?: { field: OutputCapField; tokens: number }
  /** Answers asked for at once (Chat Completions' `n`): each may reach the output cap. */
  choices: number
  /** The request marks content for the prompt cache (written at the cache-write rate). */
  cacheWrites: boolean
  /** ...for 1 hour (written at the 1-hour rate). */
  cacheHour: boolean
  /** The service tier it asks for, when it names one. */
  tier?: string
  /** Web searches its server tools may run (each priced `WEB_SEARCH_USD`). */
  webSearches: number
  /** A billed kind the proxy cannot price or must not relay, named: the request is refused. */
  unpriced?: string
}

/** Text the agent chose, as a refusal names it: identifier characters only, the rest `?`, cut at `max`. */
export function shown(text: string, max: number): string {
  return text.slice(0, max).replace(/[^A-Za-z0-9_.:/@%-]/g, '?')
}

/** Web searches reserved for a web-search tool that sets no `max_uses`. */
const DEFAULT_WEB_SEARCHES = 10

/** Tool types that cost only tokens: the agent's own tools, run by the CLI, and server tools billed by their tokens. */
const TOKEN_ONLY_TOOLS: Record<'anthropic' | 'openai', RegExp> = {
  anthropic: /^(?:custom|bash_\d+|text_editor_\d+|computer_\d+|memory_\d+|web_fetch_\d+|tool_search_tool_\w+)$/,
  openai: /^(?:function|custom|local_shell|shell|apply_patch|computer_use_preview)$/
}
const WEB_SEARCH_TOOL: Record<'anthropic' | 'openai', RegExp> = {
  anthropic: /^web_search_\d+$/,
  openai: /^web_search(?:_preview)?(?:_\d{4}_\d{2}_\d{2})?$/
}
/** The tiers a request may name, by API; `priority` only where the model has a priority price. */
const REQUEST_TIERS: Record<'anthropic' | 'openai', Set<string>> = {
  anthropic: new Set(['auto', 'standard_only']),
  openai: new Set(['auto', 'default', 'flex', 'priority'])
}

function family(api: WireApi): 'anthropic' | 'openai' {
  return api === 'openai' || api === 'azure' ? 'openai' : 'anthropic'
}

/** Bedrock and Vertex name the model in the path, not the body. */
function modelInPath(api: WireApi, pathname: string): string | undefined {
  const m = api === 'bedrock' ? /\/model\/([^/]+)\//.exec(pathname) : api === 'vertex' ? /\/models\/([^/:]+):/.exec(pathname) : null
  if (!m) return undefined
  try {
    return decodeURIComponent(m[1])
  } catch {
    return m[1]
  }
}

function cap(data: Record<string, unknown>, api: WireApi): RequestTerms['outputCap'] {
  const fields: OutputCapField[] = family(api) === 'openai' ? ['max_output_tokens', 'max_completion_tokens', 'max_tokens'] : ['max_tokens']
  for (const field of fields) {
    const n = data[field]
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return { field, tokens: Math.ceil(n) }
  }
  return undefined
}

/** Every `cache_control` in the body: whether any asks for the cache, and for 1 hour. */
function cacheMarks(value: unknown, found: { any: boolean; hour: boolean }, depth = 0): void {
  if (depth > 64 || value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    for (const v of value) cacheMarks(v, found, depth + 1)
    return
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'cache_control' && record(v)) {
      found.any = true
      if (record(v)?.ttl === '1h') found.hour = true
    } else if (typeof v === 'object') cacheMarks(v, found, depth + 1)
  }
}

function toolTerms(tools: unknown, api: WireApi, terms: RequestTerms): void {
  const kind = family(api)
  const visit = (list: unknown, depth: number): void => {
    if (!Array.isArray(list) || depth > 4) return
    for (const tool of list) {
      const t = record(tool)
      const type = typeof t?.type === 'string' ? t.type : kind === 'anthropic' ? 'custom' : undefined
      if (type === undefined) continue
      // codex groups its own functions in namespaces: each member is priced as itself
      if (kind === 'openai' && type === 'namespace') visit(t?.tools, depth + 1)
      else if (WEB_SEARCH_TOOL[kind].test(type)) {
        const uses = t?.max_uses
        terms.webSearches += typeof uses === 'number' && Number.isFinite(uses) && uses >= 0 ? Math.ceil(uses) : DEFAULT_WEB_SEARCHES
      } else if (!TOKEN_ONLY_TOOLS[kind].test(type)) {
        terms.unpriced ??= `the server tool '${shown(type, 60)}' (the price table prices tokens and web searches only)`
      }
    }
  }
  visit(tools, 0)
}

/** Reads the terms of a model request of `api` at `pathname` from its body. */
export function requestTerms(api: WireApi, pathname: string, body: Buffer): RequestTerms {
  const terms: RequestTerms = { cacheWrites: false, cacheHour: false, webSearches: 0, choices: 1, model: modelInPath(api, pathname) }
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    return terms
  }
  const data = record(parsed)
  if (!data) return terms
  terms.data = data
  if (typeof data.model === 'string') terms.model ??= data.model
  terms.outputCap = cap(data, api)
  if (typeof data.n === 'number' && Number.isFinite(data.n) && data.n > 1) terms.choices = Math.ceil(data.n)
  const marks = { any: false, hour: false }
  cacheMarks(data, marks)
  terms.cacheWrites = marks.any
  terms.cacheHour = marks.hour
  const kind = family(api)
  if (data.service_tier !== undefined && data.service_tier !== null) {
    const tier = String(data.service_tier)
    if (REQUEST_TIERS[kind].has(tier)) terms.tier = tier
    else terms.unpriced = `the '${shown(tier, 40)}' service tier`
  }
  if (data.background === true) terms.unpriced ??= 'a background response (its answer is read later, through an endpoint the proxy does not relay)'
  if (data.web_search_options !== undefined) terms.unpriced ??= 'web_search_options (searches the price table cannot count)'
  toolTerms(data.tools, api, terms)
  return terms
}

/** The worst-case cost of the searches a request may run. */
export function searchesUsd(terms: RequestTerms): number {
  return terms.webSearches * WEB_SEARCH_USD
}
