import http from 'node:http'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import { hostAllowed, type HostRules } from './allowed-hosts.js'
import type { EgressLog, SandboxKind } from './egress-log.js'

/** A host as it may be shown: what the agent asked for, reduced to the characters of a host name. */
function shownHost(host: string): string {
  return host.replace(/[^A-Za-z0-9.:[\]-]/g, '?').slice(0, 253) || '?'
}

/** `host:port` of a CONNECT target; null when it is not one. */
function connectTarget(target: string | undefined): { host: string; port: number } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:/\s]+):(\d{1,5})$/.exec(target ?? '')
  return m ? { host: m[1], port: Number(m[2]) } : null
}

/**
 * loopgate's forward proxy for one kind of process: `CONNECT host:port` and absolute-URI requests
 * to the allowed hosts are relayed, everything else is refused (403) and counted. It listens on a
 * unix socket in a root-only folder; the sandbox's first process relays a loopback port to it.
 */
export class EgressProxy {
  private readonly server: http.Server
  private readonly sockets = new Set<Duplex>()

  constructor(
    private readonly kind: SandboxKind,
    private readonly rules: HostRules,
    private readonly log: EgressLog
  ) {
    this.server = http.createServer((req, res) => this.request(req, res))
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.tunnel(req, socket, head))
    this.server.on('connection', (s: net.Socket) => {
      this.sockets.add(s)
      s.on('close', () => this.sockets.delete(s))
    })
  }

  /** Starts listening on `socketPath` (bound before this returns). */
  listen(socketPath: string): void {
    this.server.listen(socketPath)
  }

  close(): void {
    this.server.close()
    for (const s of this.sockets) s.destroy()
  }

  private allowed(host: string, port: number): boolean {
    if (hostAllowed(this.rules, host, port)) return true
    this.log.record({ process: this.kind, kind: 'proxy', host: shownHost(host), port })
    return false
  }

  private tunnel(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy())
    const target = connectTarget(req.url)
    if (!target || !this.allowed(target.host, target.port)) {
      if (!target) this.log.record({ process: this.kind, kind: 'proxy', host: shownHost(req.url ?? ''), port: 0 })
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nloopgate: host not in the allow-list\n')
      return
    }
    const upstream = net.connect(target.port, target.host.replace(/^\[|\]$/g, ''))
    upstream.on('connect', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) upstream.write(head)
      upstream.pipe(socket)
      socket.pipe(upstream)
    })
    upstream.on('error', () => {
      socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n')
    })
    socket.on('close', () => upstream.destroy())
  }

  private request(req: http.IncomingMessage, res: http.ServerResponse): void {
    let url: URL | null = null
    try {
      url = /^https?:\/\//i.test(req.url ?? '') ? new URL(req.url ?? '') : null
    } catch {
      url = null
    }
    const port = url ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : 0
    if (!url || url.protocol !== 'http:' || !this.allowed(url.hostname, port)) {
      if (!url) this.log.record({ process: this.kind, kind: 'proxy', host: shownHost(req.headers.host ?? ''), port: 0 })
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end('loopgate: host not in the allow-list\n')
      return
    }
    const headers = { ...req.headers }
    delete headers['proxy-connection']
    delete headers['proxy-authorization']
    const upstream = http.request(
      { host: url.hostname.replace(/^\[|\]$/g, ''), port, method: req.method, path: `${url.pathname}${url.search}`, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.rawHeaders)
        up.pipe(res)
      }
    )
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { connection: 'close' })
      res.end()
    })
    req.pipe(upstream)
  }
}
