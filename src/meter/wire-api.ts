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
  sign?: (request: { method: string; url: URL; headers: OutgoingHttpHeaders; body: Buffer }) => void
  /** Values merged into a header the client sent (comma-separated lists such as anthropic-beta). */
  appendHeaders?: Record<string, string>
  /**
   * Readies the real credential before each request (a minted token is renewed near its expiry);
   * resolves to why no request may go out with it (it expired, or could not be renewed) when so.
   */
  ready?: () => Promise<string | undefined>
}

/** What a request is to the proxy: a model request it meters, a free one it relays, or one it refuses. */
export type RequestKind = 'model' | 'free' | 'refused'

const MODEL_PATHS: Record<WireApi, RegExp> = {
  anthropic: /\/v1\/messages$/,
  // codex's remote compaction (`responses/compact`) is billed like a response
  openai: /\/(responses|responses\/compact|chat\/completions)$/,
  azure: /\/(responses|responses\/compact|chat\/completions)$/,
  bedrock: /\/model\/[^/]+\/(invoke|invoke-with-response-stream)$/,
  vertex: /\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/[^/:]+:(rawPredict|streamRawPredict)$/
}

/** Vertex's token counting, named like a model: free, and never taken for one. */
const VERTEX_COUNT_TOKENS = /\/publishers\/anthropic\/models\/count-tokens:rawPredict$/

/**
 * Model requests are metered; reads (GET, HEAD) and token counting are relayed; any other POST is
 * refused, because the real credential could spend through it unseen (batches, files, embeddings).
 */
export function requestKind(api: WireApi, method: string, pathname: string): RequestKind {
  const p = pathname.replace(/\/+$/, '')
  if (api === 'bedrock' || api === 'vertex') return cloudRequestKind(api, method, p)
  if (method === 'POST' && MODEL_PATHS[api].test(p)) return 'model'
  if (method === 'GET' || method === 'HEAD') return 'free'
  if (method === 'POST' && api === 'anthropic' && /\/v1\/messages\/count_tokens$/.test(p)) return 'free'
  return 'refused'
}

/**
 * On Bedrock and Vertex the credential reaches the whole cloud account's API on that host: only
 * model invocations (and Vertex's token counting) are relayed, reads included are refused.
 */
function cloudRequestKind(api: 'bedrock' | 'vertex', method: string, p: string): RequestKind {
  if (method !== 'POST') return 'refused'
  if (api === 'vertex' && VERTEX_COUNT_TOKENS.test(p)) return 'free'
  return MODEL_PATHS[api].test(p) ? 'model' : 'refused'
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
