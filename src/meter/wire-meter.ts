import { trackOpenCall, untrackCall } from './live-usage.js'
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PriceTable } from '../agents/pricing.js'
import { presentedToken, sameToken } from './call-token.js'
import { EventStreamUsageReader } from './event-stream.js'
import { chargeResponse } from './charge-response.js'
import { MeteredCall, type CallLimits } from './metered-call.js'
import { relay } from './relay.js'
import { requestTerms, shown } from './request-terms.js'
import { reserve, unpricedKind } from './reservation.js'
import { usageReader, type UsageReader } from './response-usage.js'
import { dialectOf, errorBody, requestKind, withUsageRequested, type Upstream, type WireApi } from './wire-api.js'

/** Attempts at one model request the provider keeps failing, the first included. */
const PROVIDER_ATTEMPTS = 4

/** A model request's body is read whole before it is relayed (to count main-loop turns). */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024

/** A proxy answer: the caller's response, the status, the message and what to do once it is sent. */
interface ProxyAnswer {
  res: http.ServerResponse
  status: number
  message: string
  then?: () => void
}

/** A model request of a running call: the call, the caller's request, its path and body, and the caller's response. */
interface MeteredRequest {
  call: MeteredCall
  req: http.IncomingMessage
  pathname: string
  body: Buffer
  res: http.ServerResponse
}

/**
 * loopgate's metering proxy for one run: `node:http` on 127.0.0.1, an ephemeral port, the one
 * upstream of the run's agent. It holds the real credential; a request is served only with the
 * token of a call that is still open, and each model response is priced as it is relayed.
 */
export class WireMeter {
  private server: http.Server | undefined
  private listening: Promise<string> | undefined
  private readonly calls = new Set<MeteredCall>()

  constructor(
    readonly upstream: Upstream,
    private readonly prices: PriceTable
  ) {}

  /** The proxy's origin, `http://127.0.0.1:PORT` (it starts listening on first use). */
  url(): Promise<string> {
    this.listening ??= new Promise<string>((resolve, reject) => {
      const server = http.createServer({ noDelay: true }, (req, res) => {
        this.serve(req, res).catch((err: Error) => {
          if (res.headersSent) res.destroy()
          else this.answer({ res, status: 400, message: `loopgate's metering proxy: ${err.message}` })
        })
      })
      server.on('error', reject)
      server.listen(0, '127.0.0.1', () => {
        server.unref()
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
      })
      this.server = server
    })
    return this.listening
  }

  /** Opens a call: a fresh token, accepted until the call is closed. */
  open(limits: CallLimits, onRefuse: (why: string) => void): MeteredCall {
    const call = new MeteredCall(limits, onRefuse)
    this.calls.add(call)
    trackOpenCall(call)
    return call
  }

  close(call: MeteredCall): ReturnType<MeteredCall['close']> {
    this.calls.delete(call)
    untrackCall(call)
    return call.close()
  }

  async stop(): Promise<void> {
    const server = this.server
    if (!server) return
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  private callFor(req: http.IncomingMessage): MeteredCall | undefined {
    const token = presentedToken(req.headers)
    if (token === undefined) return undefined
    let found: MeteredCall | undefined
    // every open call is compared, so the time taken says nothing about which one matched
    for (const call of this.calls) if (sameToken(token, call.token) && call.open) found = call
    return found
  }

  private answer({ res, status, message, then }: ProxyAnswer): void {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(errorBody(this.upstream.api, status, message), then)
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const call = this.callFor(req)
    if (!call) {
      req.resume()
      return this.answer({ res, status: 401, message: "loopgate's metering proxy: this request carries no token of a running call" })
    }
    const body = await readBody(req)
    if (!body) return this.answer({ res, status: 413, message: "loopgate's metering proxy: request body too large" })
    const pathname = new URL(req.url ?? '/', 'http://proxy').pathname
    const kind = requestKind(this.upstream, req.method ?? '', req.url ?? '/')
    if (kind === 'refused') {
      const why = `loopgate's metering proxy refused ${shown(req.method ?? '', 16)} ${shown(pathname, 160)}: it relays model requests and the reads the agent CLIs use only`
      call.note(why)
      return this.answer({ res, status: 403, message: why })
    }
    if (kind === 'free') {
      const expired = await this.upstream.ready?.()
      if (expired) return this.credentialExpired(call, res, expired)
      await relay({ req, body, res, upstream: this.upstream, readerFor: () => undefined })
      return
    }
    await call.inTurn(() => this.meter({ call, req, pathname, body: withUsageRequested(pathname, body), res }))
  }

  /** No request goes out with an expired credential: the call ends on the provider's side, not the agent's. */
  private credentialExpired(call: MeteredCall, res: http.ServerResponse, why: string): void {
    call.ended({ kind: 'credential', message: why })
    this.answer({ res, status: 401, message: `loopgate's metering proxy: ${why}`, then: () => call.end(why) })
  }

  private async meter({ call, req, pathname, body, res }: MeteredRequest): Promise<void> {
    const terms = requestTerms(this.upstream.api, pathname, body)
    const unpriced = unpricedKind(terms, this.prices)
    if (unpriced) {
      call.note(unpriced)
      return this.answer({ res, status: 400, message: unpriced })
    }
    const refused = call.admit(isMainLoopRequest(this.upstream.api, terms.data), createHash('sha256').update(body).digest('hex'))
    if (refused) return this.answer({ res, status: 400, message: refused, then: () => call.end(refused) })
    const reservation = reserve({ terms, body, prices: this.prices, remainingUsd: call.remainingUsd, limitName: call.limits.limitName })
    if ('refused' in reservation) {
      call.stop(reservation.refused)
      return this.answer({ res, status: 400, message: reservation.refused, then: () => call.end(reservation.refused) })
    }
    if (reservation.note) call.note(reservation.note)
    const expired = await this.upstream.ready?.()
    if (expired) return this.credentialExpired(call, res, expired)
    call.reserve(reservation.usd)
    let reader: UsageReader | undefined
    const policy = {
      maxAttempts: PROVIDER_ATTEMPTS,
      deadline: call.limits.deadline ?? Infinity,
      mayContinue: () => call.open && call.remainingUsd > 0
    }
    const end = await relay({
      req,
      body: reservation.body,
      res,
      upstream: this.upstream,
      readerFor: (status, type) => {
        reader = status < 400 ? readerFor(this.upstream.api, type) : undefined
        return reader
      },
      policy
    })
    call.ended(end.providerFailure)
    call.charge(chargeResponse({ end, seen: reader?.end(), prices: this.prices, reservedUsd: reservation.usd }))
  }
}

/** Bedrock streams in AWS's binary event-stream framing; every other answer is SSE or JSON. */
function readerFor(api: WireApi, contentType: string | undefined): UsageReader {
  return /application\/vnd\.amazon\.eventstream/i.test(contentType ?? '') ? new EventStreamUsageReader() : usageReader(dialectOf(api), contentType)
}

function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size <= MAX_REQUEST_BYTES) chunks.push(c)
    })
    req.on('end', () => resolve(size <= MAX_REQUEST_BYTES ? Buffer.concat(chunks) : undefined))
    req.on('error', () => resolve(undefined))
  })
}

/** The tools that only Claude Code's main loop offers: its sub-agents cannot start sub-agents. */
const MAIN_LOOP_ONLY_TOOLS = new Set(['Task', 'Agent'])

/**
 * A request of the agent's main loop, as max-turns counts it: one that offers tools (the CLIs'
 * side requests, titles and summaries, offer none); for Claude, one that also offers the sub-agent
 * tool, which sub-agents' own requests never do.
 */
function isMainLoopRequest(api: WireApi, data: Record<string, unknown> | undefined): boolean {
  const tools = data?.tools
  if (!Array.isArray(tools) || tools.length === 0) return false
  if (api === 'openai' || api === 'azure') return true
  return tools.some((t: unknown) => MAIN_LOOP_ONLY_TOOLS.has(String((t as { name?: unknown } | null)?.name)))
}
