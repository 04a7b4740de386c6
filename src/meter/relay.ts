import http from 'node:http'
import https from 'node:https'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { UsageReader } from './response-usage.js'
import type { Upstream } from './wire-api.js'

/** Headers that belong to one hop, or carry the caller's credential: never passed on. */
const DROPPED_REQUEST = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'authorization',
  'x-api-key',
  'api-key',
  'accept-encoding'
])
const DROPPED_RESPONSE = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'trailer', 'upgrade'])

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) }

/** The headers sent upstream: the caller's, less its auth and hop headers, plus the real credential. */
export function upstreamHeaders(incoming: http.IncomingHttpHeaders, upstream: Upstream, bodyLength: number): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined && !DROPPED_REQUEST.has(name)) out[name] = value
  }
  for (const [name, value] of Object.entries(upstream.appendHeaders ?? {})) {
    const had = out[name]
    out[name] = had ? `${String(had)},${value}` : value
  }
  if (upstream.auth) out[upstream.auth.header] = upstream.auth.value
  // The usage is read from the bytes relayed: a compressed body would hide it.
  out['accept-encoding'] = 'identity'
  out['content-length'] = String(bodyLength)
  return out
}

/** How one relayed exchange ended. */
export interface RelayEnd {
  status: number
  /** Bytes of the response body relayed to the caller. */
  bytes: number
  /** Set when the upstream could not be reached or the stream broke. */
  error?: string
}

/**
 * The caller's path and query on the upstream's origin. Joined as text, never resolved as a URL:
 * a request line such as `//elsewhere/…` or `http://elsewhere/…` must not carry the real
 * credential to another host.
 */
export function targetUrl(upstream: Upstream, requestUrl: string): URL {
  const target = new URL(`${upstream.base.origin}${requestUrl.startsWith('/') ? '' : '/'}${requestUrl}`)
  if (target.origin !== upstream.base.origin) throw new Error(`request line ${JSON.stringify(requestUrl)} leaves the upstream`)
  return target
}

/**
 * Sends one request upstream and streams the answer back unchanged, each chunk handed to the
 * usage reader `readerFor` chooses on the way (no buffering of the whole body).
 */
export function relay(
  req: http.IncomingMessage,
  body: Buffer,
  res: http.ServerResponse,
  upstream: Upstream,
  readerFor: (status: number, contentType: string | undefined) => UsageReader | undefined
): Promise<RelayEnd> {
  const target = targetUrl(upstream, req.url ?? '/')
  const client = target.protocol === 'https:' ? https : http
  return new Promise<RelayEnd>((resolve) => {
    let bytes = 0
    const headers = upstreamHeaders(req.headers, upstream, body.length)
    upstream.sign?.({ method: req.method ?? 'POST', url: target, headers, body })
    const out = client.request(target, {
      method: req.method,
      headers,
      agent: target.protocol === 'https:' ? agents.https : agents.http
    })
    out.on('socket', (socket) => socket.setNoDelay(true))
    const abandon = (): void => {
      if (!res.writableFinished) out.destroy()
    }
    res.on('close', abandon)
    out.on('error', (err) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: `loopgate's metering proxy could not reach the model API: ${err.message}` } }))
      } else res.destroy()
      resolve({ status: res.headersSent ? res.statusCode : 502, bytes, error: err.message })
    })
    out.on('response', (up) => {
      const status = up.statusCode ?? 502
      const headers: http.OutgoingHttpHeaders = {}
      for (const [name, value] of Object.entries(up.headers)) if (value !== undefined && !DROPPED_RESPONSE.has(name)) headers[name] = value
      res.writeHead(status, headers)
      const reader = readerFor(status, up.headers['content-type'])
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length
          reader?.push(chunk)
          done(null, chunk)
        }
      })
      pipeline(up, tap, res).then(
        () => resolve({ status, bytes }),
        (err: Error) => resolve({ status, bytes, error: err.message })
      )
    })
    out.end(body)
  })
}
