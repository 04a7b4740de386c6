import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Launcher, ProcessStart } from '../process/run-process.js'
import { SYSTEM_PATH, systemProgram } from '../process/system-program.js'
import { loopbackPorts, proxiedLoopback, type HostRules } from './allowed-hosts.js'
import { EgressLog, type RefusalKind, type SandboxKind } from './egress-log.js'
import { EgressProxy } from './egress-proxy.js'
import { FETCH_PROXY_PRELOAD } from './fetch-proxy-preload.js'
import { LOOPBACK_SNIFFER } from './loopback-sniffer.js'
import { SANDBOX_INIT } from './sandbox-init.js'

/** What a caller adds to a sandbox: more `unshare` flags, and shell steps run as root inside before the command. */
interface SandboxExtra {
  flags?: readonly string[]
  setup?: readonly string[]
}

/**
 * The programs that name a refused connection's or datagram's destination: the packet watcher
 * (the system's Python 3), else iproute2's `ss` (line-buffered by coreutils' `stdbuf`) for TCP
 * only; without them, refusals are only counted. Null where the system has none.
 */
export interface RefusalWatchers {
  python: string | null
  ss: string | null
  stdbuf: string | null
}

/** How a namespace watched refused connections when its packet watcher could not run: closed sockets (`ss`), or only the kernel's count. */
export type WeakWatch = 'sockets' | 'counter'

type SandboxProbe = { ok: true; unshare: string; ip: string } | { ok: false; why: string }

/**
 * Whether this runner lets loopgate give each process private network and PID namespaces: root,
 * `unshare` and `ip`, and a kernel (and container) that allow them. Tried once, before any spend.
 */
export function probeSandbox(): SandboxProbe {
  const uid = process.getuid?.()
  if (uid !== 0) return { ok: false, why: `loopgate runs as uid ${uid ?? 'unknown'}, not root, so it cannot make network and PID namespaces` }
  const unshare = systemProgram('unshare')
  const ip = systemProgram('ip')
  if (!unshare || !ip) return { ok: false, why: `${unshare ? '' : '`unshare` (util-linux) '}${ip ? '' : '`ip` (iproute2) '}not found` }
  const r = spawnSync(unshare, ['--net', '--pid', '--fork', '--mount-proc', ip, 'link', 'set', 'lo', 'up'], { encoding: 'utf8', timeout: 10_000 })
  if (r.status !== 0)
    return {
      ok: false,
      why: `this runner does not allow network and PID namespaces (${String(r.stderr || r.error?.message || `exit ${r.status}`)
        .trim()
        .slice(0, 200)})`
    }
  return { ok: true, unshare, ip }
}

/** The loopback port loopgate's forward proxy has inside a namespace, unless the call relays that port. */
function proxyPort(taken: readonly number[]): number {
  let port = 3128
  while (taken.includes(port)) port++
  return port
}

/**
 * The one way loopgate starts an agent or a gate process: in a private PID namespace (it lists
 * only its own processes, and all of them die with it) and, unless its allow-list is `*`, a
 * private network namespace with loopback only. Into that namespace loopgate relays what the
 * process may reach: its forward proxy (the allow-list) and the loopback ports of the call (the
 * metering proxy). Every refusal lands in `log`.
 */
export class Sandbox {
  readonly log = new EgressLog()
  private readonly dir: string
  private readonly shared: string
  private readonly preload: string
  private readonly servers: net.Server[] = []
  private readonly proxies: EgressProxy[] = []
  private readonly relayed = new Map<number, string>()
  private readonly left: Record<SandboxKind, number> = { agent: 0, gate: 0 }
  private readonly open: Record<SandboxKind, Set<net.Socket>> = { agent: new Set(), gate: new Set() }
  private readonly waiting: Record<SandboxKind, (() => void)[]> = { agent: [], gate: [] }
  private readonly watch: RefusalWatchers
  /** How the namespaces of each process watched refusals, where less than the packet watcher, since last asked. */
  private readonly weak: Record<SandboxKind, WeakWatch | null> = { agent: null, gate: null }

  constructor(
    private readonly probe: Extract<SandboxProbe, { ok: true }>,
    private readonly rules: Record<SandboxKind, HostRules>,
    watchers: Partial<RefusalWatchers> = {}
  ) {
    this.watch = { python: systemProgram('python3'), ss: systemProgram('ss'), stdbuf: systemProgram('stdbuf'), ...watchers }
    // Short (unix socket paths are limited) and root's alone: only the namespaces' first process connects.
    const tmp = os.tmpdir().length > 60 || /\s/.test(os.tmpdir()) ? '/tmp' : os.tmpdir()
    this.dir = mkdtempSync(path.join(tmp, 'lg-net-'))
    // Read by the run's processes, changed by root alone, and this run's own.
    this.shared = mkdtempSync(path.join(tmp, 'lg-node-'))
    chmodSync(this.shared, 0o755)
    this.preload = path.join(this.shared, 'fetch-proxy.cjs')
    writeFileSync(this.preload, FETCH_PROXY_PRELOAD, { mode: 0o644 })
    for (const kind of ['agent', 'gate'] as const) {
      this.listenReports(kind)
      if (rules[kind].any) continue
      const proxy = new EgressProxy(kind, rules[kind], this.log)
      proxy.listen(this.socket(`proxy-${kind}`))
      this.proxies.push(proxy)
    }
  }

  private socket(name: string): string {
    return path.join(this.dir, `${name}.sock`)
  }

  /** What a namespace's first process reports: DNS queries, direct connections and UDP datagrams refused. */
  private listenReports(kind: SandboxKind): void {
    const server = net.createServer((s) => {
      let pending = ''
      this.open[kind].add(s)
      s.on('close', () => {
        this.open[kind].delete(s)
        if (this.open[kind].size === 0) for (const wake of this.waiting[kind].splice(0)) wake()
      })
      s.on('error', () => s.destroy())
      s.on('data', (d: Buffer) => {
        pending = (pending + d.toString('utf8')).slice(-100_000)
        const lines = pending.split('\n')
        pending = lines.pop() ?? ''
        for (const line of lines) this.readReport(kind, line)
      })
    })
    server.listen(this.socket(`report-${kind}`))
    this.servers.push(server)
  }

  /** Resolves once every ended namespace of `kind` has finished its report (at most `ms` later). */
  reported(kind: SandboxKind, ms = 1000): Promise<void> {
    if (this.open[kind].size === 0) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms)
      timer.unref()
      this.waiting[kind].push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  /** How many processes of `kind` the namespaces' ends killed since this was last asked. */
  leftovers(kind: SandboxKind): number {
    const n = this.left[kind]
    this.left[kind] = 0
    return n
  }

  /** How `kind`'s namespaces watched refusals since this was last asked, where less than the packet watcher (the weakest seen). */
  weakWatch(kind: SandboxKind): WeakWatch | null {
    const w = this.weak[kind]
    this.weak[kind] = null
    return w
  }

  private readReport(kind: SandboxKind, line: string): void {
    try {
      const e = JSON.parse(line) as { kind?: unknown; by?: unknown; host?: unknown; port?: unknown; count?: unknown }
      if (e.kind === 'leftover' && typeof e.count === 'number' && e.count > 0) this.left[kind] += Math.min(e.count, 1e6)
      if (e.kind === 'watch' && (e.by === 'sockets' || e.by === 'counter') && this.weak[kind] !== 'counter') this.weak[kind] = e.by
      const what = e.kind === 'dns' || e.kind === 'connect' || e.kind === 'udp' ? (e.kind as RefusalKind) : null
      if (!what) return
      const host = typeof e.host === 'string' && e.host ? shownAddress(what, e.host) : '?'
      const port = what === 'dns' ? 53 : typeof e.port === 'number' && Number.isInteger(e.port) && e.port > 0 && e.port < 65536 ? e.port : 0
      const count = typeof e.count === 'number' && e.count > 0 ? Math.min(e.count, 1e6) : 1
      this.log.record({ process: kind, kind: what, host, port, count })
    } catch {
      // a line cut short
    }
  }

  /** A unix socket that relays to `127.0.0.1:port` outside (made once per port). */
  private relayTo(port: number): string {
    const known = this.relayed.get(port)
    if (known) return known
    const file = this.socket(`tcp-${port}`)
    const server = net.createServer((inside) => {
      const outside = net.connect(port, '127.0.0.1')
      const end = (): void => {
        inside.destroy()
        outside.destroy()
      }
      inside.on('error', end)
      outside.on('error', end)
      inside.pipe(outside)
      outside.pipe(inside)
    })
    server.listen(file)
    this.servers.push(server)
    this.relayed.set(port, file)
    return file
  }

  /**
   * Starts `kind`'s processes in the sandbox; `loopback` are origins on 127.0.0.1 outside the
   * process reaches at the same address inside (the metering proxy's).
   */
  launcher(kind: SandboxKind, loopback: readonly string[] = [], extra: SandboxExtra = {}): Launcher {
    const rules = this.rules[kind]
    const ports = rules.any ? [] : [...new Set([...loopback.map(portOf).filter((p): p is number => p !== null), ...loopbackPorts(rules)])]
    const inner = proxyPort(ports)
    return (start: ProcessStart): ProcessStart => {
      const relays = rules.any ? [] : [{ port: inner, socket: this.socket(`proxy-${kind}`) }, ...ports.map((port) => ({ port, socket: this.relayTo(port) }))]
      const env = rules.any ? start.env : { ...start.env, ...proxyEnv(`http://127.0.0.1:${inner}`, rules), ...nodeProxyEnv(this.preload, start.env) }
      const file = path.join(this.dir, `launch-${randomUUID()}.json`)
      const config = {
        net: !rules.any,
        ip: this.probe.ip,
        python: this.watch.python,
        sniffer: LOOPBACK_SNIFFER,
        ss: this.watch.ss,
        stdbuf: this.watch.stdbuf,
        relays,
        report: this.socket(`report-${kind}`),
        setup: extra.setup ?? [],
        command: start.command,
        args: start.args,
        env,
        uid: start.uid,
        gid: start.gid
      }
      writeFileSync(file, JSON.stringify(config), { mode: 0o600 })
      const flags = [...(rules.any ? [] : ['--net']), '--pid', '--fork', '--mount-proc', '--kill-child', ...(extra.flags ?? [])]
      return { command: this.probe.unshare, args: [...flags, '--', process.execPath, '-e', SANDBOX_INIT, file], env: { PATH: SYSTEM_PATH } }
    }
  }

  close(): void {
    for (const s of this.servers) s.close()
    for (const p of this.proxies) p.close()
    rmSync(this.dir, { recursive: true, force: true })
    rmSync(this.shared, { recursive: true, force: true })
  }
}

/** What a namespace reported as inert text: a name asked of DNS, or the address a direct connection or datagram went to. */
function shownAddress(kind: RefusalKind, host: string): string {
  return kind === 'dns' ? host.replace(/[^A-Za-z0-9._-]/g, '?').slice(0, 253) : host.replace(/[^0-9A-Fa-f.:]/g, '?').slice(0, 45)
}

function portOf(origin: string): number | null {
  try {
    const url = new URL(origin)
    return url.hostname === '127.0.0.1' && url.port ? Number(url.port) : null
  } catch {
    return null
  }
}

/** The variables HTTP clients read their proxy from (curl, Python, npm, pip, Yarn); loopback stays direct unless allowed through the proxy. */
function proxyEnv(proxy: string, rules: HostRules): NodeJS.ProcessEnv {
  const proxied = proxiedLoopback(rules)
  const direct = ['localhost', '127.0.0.1', '::1'].filter((h) => !proxied.includes(h)).join(',')
  return {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    YARN_HTTP_PROXY: proxy,
    YARN_HTTPS_PROXY: proxy,
    NO_PROXY: direct,
    no_proxy: direct
  }
}

/** What makes Node's `fetch` use that proxy too: Node's own switch where it has one, the preload where it has not. */
function nodeProxyEnv(preload: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { NODE_USE_ENV_PROXY: '1', NODE_OPTIONS: [`--require ${preload}`, env.NODE_OPTIONS].filter(Boolean).join(' ') }
}
