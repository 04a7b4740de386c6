import type { OutgoingHttpHeaders } from 'node:http'
import { anthropicDialect } from './anthropic-usage.js'
import { openaiDialect } from './openai-usage.js'
import type { UsageDialect } from './response-usage.js'

/** The model APIs the proxy serves. */
export type WireApi = 'anthropic' | 'openai' | 'azure' | 'bedrock' | 'vertex'

/** Where the proxy sends a call's requests, and the real credential it sets on them. */
export interface Upstream {
  api: WireApi
  /** The real base URL: the runner's (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, AZURE_OPENAI_BASE_URL) or the public API. */
  base: URL
  /** The header that carries the real credential, and its value (absent where requests are signed). */
  auth?: { header: string; value: string }
  /** Signs each request with the real credential (Bedrock's SigV4), once its headers are final. */
  sign?: (request: { method: string; url: URL; headers: OutgoingHttpHeaders; body: Buffer }) => void | Promise<void>
  /** Values merged into a header the client sent (comma-separated lists such as anthropic-beta). */
  appendHeaders?: Record<string, string>
  /**
   * Readies the real credential before each request (a minted token is renewed near its expiry);
   * resolves to why no request may go out with it (it expired, or could not be renewed) when so.
   */
  ready?: () => Promise<string | undefined>
}

/** What a request is to the proxy: a model request it meters, a free one it relays, or one it refuses. */
type RequestKind = 'model' | 'free' | 'refused'

/** A model's id in a path: no slash and no escape that could turn into one upstream. */
const ID = '(?:[A-Za-z0-9._:@-]|%3[Aa])+'

/**
 * The model requests of each API, on the path below the upstream's base path (Anthropic's base
 * has none; OpenAI's is `/v1`, Azure's `/openai/v1`). codex's remote compaction
 * (`responses/compact`) is billed like a response.
 */
const MODEL_PATHS: Record<WireApi, RegExp> = {
  anthropic: /^\/v1\/messages$/,
  openai: /^\/(?:responses|responses\/compact|chat\/completions)$/,
  azure: /^\/(?:responses|responses\/compact|chat\/completions)$/,
  bedrock: new RegExp(`^/model/${ID}/(?:invoke|invoke-with-response-stream)$`),
  vertex: new RegExp(`^(?:/v1)?/projects/${ID}/locations/${ID}/publishers/anthropic/models/(?:(?!count-tokens:)${ID}):(?:rawPredict|streamRawPredict)$`)
}

/**
 * The reads the supported CLIs make, relayed unmetered: Claude Code's connectivity check
 * (`HEAD /api/hello`), the model list and one model's entry (codex asks for `models`), and token
 * counting. Nothing else: files, batches, stored and background responses are other workloads'
 * data on the same credential.
 */
const READ_PATHS: Record<WireApi, { get: RegExp; post?: RegExp }> = {
  anthropic: { get: new RegExp(`^/(?:api/hello|v1/models(?:/${ID})?)$`), post: /^\/v1\/messages\/count_tokens$/ },
  openai: { get: new RegExp(`^/models(?:/${ID})?$`) },
  azure: { get: new RegExp(`^/models(?:/${ID})?$`) },
  bedrock: { get: /(?!)/ },
  // Vertex's token counting, named like a model
  vertex: { get: /(?!)/, post: new RegExp(`^(?:/v1)?/projects/${ID}/locations/${ID}/publishers/anthropic/models/count-tokens:rawPredict$`) }
}

/**
 * What a request is: a model request (metered), one of the reads the CLIs make (relayed
 * unmetered), or anything else (refused, because the real credential reaches the whole account
 * through it: batches, files, stored responses, embeddings). `requestUrl` is the request line's
 * target as it would be relayed, `basePath` the upstream's base path: a target that is not a plain
 * path under it (`//host/…`, `http://…`, dot segments, an escaped slash) is refused.
 */
export function requestKind(upstream: Pick<Upstream, 'api' | 'base'>, method: string, requestUrl: string): RequestKind {
  const { api } = upstream
  const path = requestUrl.split('?')[0]
  if (!path.startsWith('/') || new URL(path, 'http://proxy').pathname !== path || /%2[fFeE]|\\/.test(path)) return 'refused'
  const base = upstream.base.pathname.replace(/\/+$/, '')
  if (base && !path.startsWith(`${base}/`)) return 'refused'
  const below = path.slice(base.length)
  if (method === 'POST' && MODEL_PATHS[api].test(below)) return 'model'
  const reads = READ_PATHS[api]
  if ((method === 'GET' || method === 'HEAD') && reads.get.test(below)) return 'free'
  if (method === 'POST' && reads.post?.test(below)) return 'free'
  return 'refused'
}

export function dialectOf(api: WireApi): UsageDialect {
  return api === 'openai' || api === 'azure' ? openaiDialect : anthropicDialect
}

/** An error body in the API's own shape, so the CLI shows the message and does not retry (4xx). */
export function errorBody(api: WireApi, status: number, message: string): string {
  if (api === 'anthropic' || api === 'bedrock' || api === 'vertex') {
    const type = status === 401 ? 'authentication_error' : status === 403 ? 'permission_error' : 'invalid_request_error'
    return JSON.stringify({ type: 'error', error: { type, message } })
  }
  const code = status === 401 ? 'invalid_api_key' : 'loopgate_refused'
  return JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } })
}

/**
 * A streamed Chat Completions request sends its usage only when asked (`stream_options.include_usage`):
 * the proxy asks for it, so the stream ends with a usage chunk it can charge.
 */
export function withUsageRequested(pathname: string, body: Buffer): Buffer {
  if (!/\/chat\/completions\/?$/.test(pathname)) return body
  let data: Record<string, unknown>
  try {
    data = JSON.parse(body.toString('utf8')) as Record<string, unknown>
  } catch {
    return body
  }
  if (data === null || typeof data !== 'object' || data.stream !== true) return body
  const options = data.stream_options !== null && typeof data.stream_options === 'object' ? (data.stream_options as Record<string, unknown>) : {}
  if (options.include_usage === true) return body
  return Buffer.from(JSON.stringify({ ...data, stream_options: { ...options, include_usage: true } }))
}
