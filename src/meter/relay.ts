import http from 'node:http'
import https from 'node:https'
import { droppedConnection, retryDelayMs, type ProviderFailure } from './provider-failure.js'
import { classified, mayRetry, ONE_ATTEMPT, pause, type HeldAnswer, type ProviderFailureSeen, type RetryPolicy } from './relay-retry.js'
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
function upstreamHeaders(incoming: http.IncomingHttpHeaders, upstream: Upstream, bodyLength: number): http.OutgoingHttpHeaders {
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
  /** Set when the caller got the provider's failure: its retries ran out, or its quota is exhausted. */
  providerFailure?: ProviderFailureSeen
}

/**
 * The caller's path and query on the upstream's origin. Joined as text, never resolved as a URL:
 * a request line such as `//elsewhere/…` or `http://elsewhere/…` must not carry the real
 * credential to another host.
 */
function targetUrl(upstream: Upstream, requestUrl: string): URL {
  const target = new URL(`${upstream.base.origin}${requestUrl.startsWith('/') ? '' : '/'}${requestUrl}`)
  if (target.origin !== upstream.base.origin) throw new Error(`request line ${JSON.stringify(requestUrl)} leaves the upstream`)
  return target
}

/** A caller's request and its body, the caller's response, the upstream, the usage reader's choice and the retry policy. */
interface RelayRequest {
  req: http.IncomingMessage
  body: Buffer
  res: http.ServerResponse
  upstream: Upstream
  readerFor: (status: number, contentType: string | undefined) => UsageReader | undefined
  policy?: RetryPolicy
}

/**
 * Sends one request upstream and streams the answer back unchanged, each chunk handed to the
 * usage reader `readerFor` chooses on the way (no buffering of the whole body). A provider's
 * failure that has not begun streaming (see relay-retry.ts) is retried under `policy`, and the
 * caller gets only the last one.
 */
export async function relay({ req, body, res, upstream, readerFor, policy = ONE_ATTEMPT }: RelayRequest): Promise<RelayEnd> {
  const target = targetUrl(upstream, req.url ?? '/')
  for (let attempt = 0; ; attempt++) {
    // Signed again for each attempt: a signature carries its time.
    const headers = upstreamHeaders(req.headers, upstream, body.length)
    await upstream.sign?.({ method: req.method ?? 'POST', url: target, headers, body })
    const giveUpAt = Number.isFinite(policy.deadline) ? policy.deadline + READ_AFTER_CALL_MS : Date.now() + READ_UNBOUNDED_MS
    const tried = await relayOnce({ target, method: req.method, headers, body, res, readerFor, giveUpAt })
    if (tried.kind === 'relayed') return tried.end
    const failure = tried.kind === 'held' ? classified(tried) : droppedConnection(tried.error)
    const waitMs = retryDelayMs(tried.kind === 'held' ? tried.headers : {}, attempt)
    if (failure && mayRetry({ policy, failure, attempt, waitMs, res })) {
      await pause(waitMs, res)
      if (!res.destroyed) continue
    }
    return answerFailure({ res, tried, failure })
  }
}

type ReaderFor = (status: number, contentType: string | undefined) => UsageReader | undefined

interface Exchange {
  target: URL
  method: string | undefined
  headers: http.OutgoingHttpHeaders
  body: Buffer
  res: http.ServerResponse
  readerFor: ReaderFor
  /** Epoch milliseconds after which an answer nobody waits for is given up (the call has been charged its reservation by then). */
  giveUpAt: number
}

/** How long after the call's end an answer its caller left is still read; without a call, how long at most. */
const READ_AFTER_CALL_MS = 60_000
const READ_UNBOUNDED_MS = 10 * 60_000

/** One attempt: streamed to the caller, an error answer held back, or no answer at all. */
type Attempt = { kind: 'relayed'; end: RelayEnd } | HeldAnswer | { kind: 'unreachable'; error: string }

function responseHeaders(incoming: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(incoming)) if (value !== undefined && !DROPPED_RESPONSE.has(name)) headers[name] = value
  return headers
}

/** One attempt in progress: bytes read, whether the caller left, and how it settles. */
interface AttemptState {
  bytes: number
  callerGone: boolean
  done: (a: Attempt) => void
}

/**
 * One attempt. The caller hanging up ends nothing upstream: the answer is read to its end (and
 * its usage) whether or not anyone is left to relay it to, so a request that reached the model is
 * charged what the model served.
 */
function relayOnce(x: Exchange): Promise<Attempt> {
  const client = x.target.protocol === 'https:' ? https : http
  return new Promise<Attempt>((resolve) => {
    let settled = false
    let answer: http.IncomingMessage | undefined
    let giveUp: NodeJS.Timeout | undefined
    const state: AttemptState = {
      bytes: 0,
      callerGone: false,
      done: (a) => {
        if (settled) return
        settled = true
        clearTimeout(giveUp)
        x.res.off('close', callerLeft)
        resolve(a)
      }
    }
    const callerLeft = (): void => {
      if (x.res.writableFinished) return
      state.callerGone = true
      answer?.resume()
      // an upstream that never answers must not hold a socket for ever
      giveUp = setTimeout(() => out.destroy(new Error('no answer long after the call ended')), Math.max(0, x.giveUpAt - Date.now()))
      giveUp.unref()
    }
    x.res.on('close', callerLeft)
    const out = client.request(x.target, { method: x.method, headers: x.headers, agent: x.target.protocol === 'https:' ? agents.https : agents.http })
    out.on('socket', (socket) => socket.setNoDelay(true))
    out.on('error', (err) => {
      if (answer) return
      if (!x.res.headersSent) return state.done({ kind: 'unreachable', error: err.message })
      state.done({ kind: 'relayed', end: { status: x.res.statusCode, bytes: state.bytes, error: err.message } })
    })
    out.on('response', (up) => {
      answer = up
      if ((up.statusCode ?? 502) >= 400) holdError(up, state)
      else streamAnswer(up, x, state)
    })
    out.end(x.body)
  })
}

/** An error answer is small: held whole, so that a retry can replace it unseen. */
function holdError(up: http.IncomingMessage, state: AttemptState): void {
  const chunks: Buffer[] = []
  let ended = false
  up.on('data', (c: Buffer) => chunks.push(c))
  up.on('end', () => {
    ended = true
    state.done({ kind: 'held', status: up.statusCode ?? 502, headers: up.headers, body: Buffer.concat(chunks) })
  })
  const broke = (why: string): void => state.done({ kind: 'unreachable', error: why })
  up.on('error', (err) => broke(err.message))
  up.on('close', () => ended || broke('the answer ended early'))
}

/** A success streamed to the caller while it is there, every chunk read for its usage until the end either way. */
function streamAnswer(up: http.IncomingMessage, x: Exchange, state: AttemptState): void {
  const status = up.statusCode ?? 502
  let ended = false
  if (!state.callerGone) x.res.writeHead(status, responseHeaders(up.headers))
  const reader = x.readerFor(status, up.headers['content-type'])
  up.on('data', (chunk: Buffer) => {
    state.bytes += chunk.length
    reader?.push(chunk)
    if (state.callerGone || x.res.destroyed) return
    if (!x.res.write(chunk)) {
      up.pause()
      x.res.once('drain', () => up.resume())
    }
  })
  up.on('end', () => {
    ended = true
    if (state.callerGone) return state.done({ kind: 'relayed', end: { status, bytes: state.bytes, error: 'the caller went away' } })
    x.res.end()
    state.done({ kind: 'relayed', end: { status, bytes: state.bytes } })
  })
  const broke = (why: string): void => {
    if (ended) return
    ended = true
    const end: RelayEnd = { status, bytes: state.bytes, error: why }
    if (!state.callerGone) {
      end.providerFailure = { kind: 'transient', status, message: droppedConnection(why).detail }
      x.res.destroy()
    }
    state.done({ kind: 'relayed', end })
  }
  up.on('error', (err) => broke(err.message))
  up.on('close', () => broke('aborted'))
}

/** The caller's response, the attempt that did not relay and how the provider failed. */
interface FailedAttempt {
  res: http.ServerResponse
  tried: Exclude<Attempt, { kind: 'relayed' }>
  failure: ProviderFailure | undefined
}

/** The provider's id of one answer, for its support: an identifier only. */
function requestId(headers: http.IncomingHttpHeaders): string | undefined {
  for (const name of ['request-id', 'x-request-id', 'x-amzn-requestid']) {
    const value = headers[name]?.toString()
    if (value && /^[A-Za-z0-9_-]{1,100}$/.test(value)) return value
  }
  return undefined
}

/**
 * The caller gets the provider's last answer as it came (or a 502 when none came); a provider
 * failure is recorded with it in loopgate's words: its status, the provider's code and request id,
 * never the message, which can echo what the agent sent.
 */
function answerFailure({ res, tried, failure }: FailedAttempt): RelayEnd {
  let seen: ProviderFailureSeen | undefined
  if (failure && tried.kind === 'held') {
    const id = requestId(tried.headers)
    seen = { kind: failure.kind, status: tried.status, message: id ? `${failure.detail} (request ${id})` : failure.detail }
  } else if (failure) seen = { kind: failure.kind, message: failure.detail }
  if (res.destroyed) return { status: tried.kind === 'held' ? tried.status : 502, bytes: 0, error: 'the caller went away', providerFailure: seen }
  if (tried.kind === 'unreachable') {
    res.writeHead(502, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { message: `loopgate's metering proxy could not reach the model API: ${tried.error}` } }))
    return { status: 502, bytes: 0, error: tried.error, providerFailure: seen }
  }
  res.writeHead(tried.status, responseHeaders(tried.headers))
  res.end(tried.body)
  return { status: tried.status, bytes: tried.body.length, providerFailure: seen }
}
