import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface RecordedRequest {
  method: string
  url: string
  body: any
  headers: http.IncomingHttpHeaders
}

/**
 * The plumbing of a scripted local HTTP server: 127.0.0.1 and an ephemeral port, each request's
 * body read (and parsed when it is JSON) and recorded, delayed answers and open sockets ended on
 * close, so a test never waits on a server it is done with.
 */
export class LocalHttp {
  readonly requests: RecordedRequest[] = []
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly sockets = new Set<Socket>()
  private readonly server: http.Server

  constructor(handle: (req: http.IncomingMessage, res: http.ServerResponse, body: any) => void) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        let body: any
        try {
          body = raw ? JSON.parse(raw) : undefined
        } catch {
          body = raw
        }
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers })
        handle(req, res, body)
      })
    })
    this.server.on('connection', (s) => {
      this.sockets.add(s)
      s.on('close', () => this.sockets.delete(s))
    })
  }

  /** Runs `fn` after `ms`, unless the server is closed first. */
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t)
      fn()
    }, ms)
    this.timers.add(t)
  }

  /** Cuts the connection mid-answer, as a dropped stream does. */
  cut(res: http.ServerResponse, afterMs = 50): void {
    this.later(afterMs, () => res.socket?.destroy())
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t)
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
