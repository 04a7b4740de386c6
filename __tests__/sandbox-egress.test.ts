import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { hostRules } from '../src/isolation/allowed-hosts.js'
import { egressGuard } from '../src/isolation/egress-guard.js'
import type { Refusal } from '../src/isolation/egress-log.js'
import { probeSandbox, Sandbox, type RefusalWatchers } from '../src/isolation/sandbox.js'
import { runProcess, type RunResult } from '../src/process/run-process.js'
import { agentUser, type AgentUser } from './helpers/agent-user.js'
import { sharedTempDir } from './helpers/repo.js'

const LONG = 60_000
/** The Node the sandboxed processes run (another version's binary can be given to try its `fetch`). */
const NODE = process.env.LOOPGATE_TEST_NODE ?? '/usr/bin/node'

/** A server on a loopback address standing in for a host on the internet; it counts what reaches it. */
async function server(host: string): Promise<{ url: string; port: number; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = []
  const s = http.createServer((req, res) => {
    hits.push(req.url ?? '')
    res.end('reached\n')
  })
  await new Promise<void>((resolve) => s.listen(0, host, resolve))
  const port = (s.address() as AddressInfo).port
  return { url: `http://${host}:${port}`, port, hits, close: () => new Promise((resolve) => s.close(() => resolve())) }
}

const probe = probeSandbox()
const maybe = probe.ok ? describe : describe.skip

maybe('the sandbox every agent and gate process starts in', () => {
  let outside: Awaited<ReturnType<typeof server>>
  let allowed: Awaited<ReturnType<typeof server>>
  let meter: Awaited<ReturnType<typeof server>>
  let sandbox: Sandbox
  let user: AgentUser

  beforeAll(async () => {
    outside = await server('127.0.0.2')
    allowed = await server('127.0.0.3')
    meter = await server('127.0.0.1')
    user = agentUser()
    if (!probe.ok) throw new Error(probe.why)
    sandbox = new Sandbox(probe, { agent: hostRules(['127.0.0.3']), gate: hostRules([]) })
  })
  afterAll(async () => {
    sandbox?.close()
    await Promise.all([outside?.close(), allowed?.close(), meter?.close()])
  })

  function run(kind: 'agent' | 'gate', script: string, loopback: string[] = []): Promise<RunResult> {
    return runProcess({
      command: '/bin/bash',
      args: ['-c', script],
      cwd: '/',
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: user.home },
      uid: user.uid,
      gid: user.gid,
      timeoutMs: 30_000,
      launch: sandbox.launcher(kind, loopback)
    })
  }

  /** Each way out a process might try, to `base` (http://host:port); one line per way: `name ok|failed`. */
  function attempts(base: string): string {
    const { hostname, port } = new URL(base)
    const py = (code: string): string => `/usr/bin/python3 -c ${JSON.stringify(code)}`
    const node = (code: string): string => `${NODE} -e ${JSON.stringify(code)}`
    const ways = {
      curl: `curl -sf -m 5 ${base}/curl`,
      'curl-connect': `curl -sf -m 5 --proxytunnel ${base}/tunnel`,
      urllib: py(`import urllib.request; urllib.request.urlopen('${base}/urllib', timeout=5).read()`),
      fetch: node(`fetch('${base}/fetch').then(r => r.text()).then(() => process.exit(0), () => process.exit(1))`),
      tcp: node(`require('net').connect(${port}, '${hostname}').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`),
      'python-tcp': py(`import socket; socket.create_connection(('${hostname}', ${port}), timeout=5)`),
      'bash-tcp': `bash -c 'exec 3<>/dev/tcp/${hostname}/${port}'`,
      'tcp-afar': node(`require('net').connect(443, '203.0.113.7').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`),
      dns: py(`import socket; socket.gethostbyname('exfil.example.com')`)
    }
    return Object.entries(ways)
      .map(([name, cmd]) => `if ${cmd} >/dev/null 2>&1; then echo "${name} ok"; else echo "${name} failed"; fi`)
      .join('\n')
  }

  it(
    'refuses every way to a host outside the allow-list, and lists each refusal',
    async () => {
      for (const kind of ['agent', 'gate'] as const) {
        const r = await run(kind, attempts(outside.url))
        expect(r.stdout.trim().split('\n')).toEqual([
          'curl failed',
          'curl-connect failed',
          'urllib failed',
          'fetch failed',
          'tcp failed',
          'python-tcp failed',
          'bash-tcp failed',
          'tcp-afar failed',
          'dns failed'
        ])
        const refused = sandbox.log.since(kind)
        const proxy = refused.filter((x) => x.kind === 'proxy' && x.host === '127.0.0.2' && x.port === outside.port)
        expect(proxy.reduce((n, x) => n + x.count, 0)).toBe(4)
        // Each direct connection is listed with where it went, bash's blocking connect too.
        expect(refused.filter((x) => x.kind === 'connect')).toEqual([
          { process: kind, kind: 'connect', host: '127.0.0.2', port: outside.port, count: 3 },
          { process: kind, kind: 'connect', host: '203.0.113.7', port: 443, count: 1 }
        ])
        expect(refused.some((x) => x.kind === 'dns' && x.host === 'exfil.example.com')).toBe(true)
      }
      expect(outside.hits).toEqual([])
    },
    LONG
  )

  it(
    "names a blocking connect's port and each UDP datagram nothing answered, IPv4 and IPv6; the command's own local servers are not listed",
    async () => {
      const py = (code: string): string => `/usr/bin/python3 -c ${JSON.stringify(code)} 2>/dev/null; echo "exit $?"`
      const script = [
        // The run's user tries to end every other process it can see first, the watcher among them.
        'for p in /proc/[0-9]*; do p=${p#/proc/}; [ "$p" = "$$" ] || kill -9 "$p" 2>/dev/null; done',
        // Blocking connects (no timeout): the kernel clears a failed one's port before its socket closes.
        py(`import socket; socket.socket().connect(('127.0.0.2', 9))`),
        py(`import socket; socket.socket(socket.AF_INET6).connect(('::1', 10))`),
        // Datagrams nothing listens for, a burst of them counted whole.
        py(`import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); [s.sendto(b'x', ('127.0.0.2', 5000)) for _ in range(300)]`),
        py(`import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('8.8.8.8', 123))`),
        py(`import socket; socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).sendto(b'x', ('2001:db8::7', 5001))`),
        // A test's own servers inside the namespace: a connection accepted then reset, a datagram received.
        py(
          [
            'import socket, struct',
            "srv = socket.socket(); srv.bind(('127.0.0.4', 8080)); srv.listen()",
            "c = socket.create_connection(('127.0.0.4', 8080)); conn, _ = srv.accept(); c.sendall(b'hello')",
            "conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0)); conn.close()",
            "u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(('127.0.0.4', 5002))",
            "socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.4', 5002)); print(u.recv(10))"
          ].join('; ')
        )
      ].join('\n')
      for (const kind of ['agent', 'gate'] as const) {
        const r = await run(kind, script)
        expect(r.stdout.trim().split('\n')).toEqual(['exit 1', 'exit 1', 'exit 0', 'exit 0', 'exit 0', "b'x'", 'exit 0'])
        expect(sandbox.log.since(kind)).toEqual([
          { process: kind, kind: 'connect', host: '127.0.0.2', port: 9, count: 1 },
          { process: kind, kind: 'connect', host: '::1', port: 10, count: 1 },
          { process: kind, kind: 'udp', host: '127.0.0.2', port: 5000, count: 300 },
          { process: kind, kind: 'udp', host: '8.8.8.8', port: 123, count: 1 },
          { process: kind, kind: 'udp', host: '2001:db8::7', port: 5001, count: 1 }
        ])
        // The watcher is root's and loopgate's: never the command's leftover.
        expect(sandbox.leftovers(kind)).toBe(0)
      }
    },
    LONG
  )

  it(
    'without the packet watcher, refused connections are named from closed sockets, else counted, datagrams counted, and the notes say which',
    async () => {
      const script = [
        `/usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.2', 9), timeout=5)"`,
        `/usr/bin/python3 -c "import socket; socket.socket().connect(('127.0.0.2', 9))"`,
        `/usr/bin/python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.2', 5000))"`,
        'true'
      ].join('\n')
      const ok = probe as Extract<typeof probe, { ok: true }>
      const fallback = async (watchers: Partial<RefusalWatchers>): Promise<{ refused: Refusal[]; notes: string[] }> => {
        const box = makeSandbox(watchers)
        try {
          await runProcess({
            command: '/bin/bash',
            args: ['-c', script],
            cwd: '/',
            env: { PATH: '/usr/bin:/bin' },
            uid: user.uid,
            gid: user.gid,
            timeoutMs: 30_000,
            launch: box.launcher('agent')
          })
          const notes = (await egressGuard(box).afterCall(1)).notes ?? []
          return { refused: box.log.all(), notes }
        } finally {
          box.close()
        }
      }
      function makeSandbox(watchers: Partial<RefusalWatchers>): Sandbox {
        return new Sandbox(ok, { agent: hostRules([]), gate: hostRules([]) }, watchers)
      }
      const sockets = await fallback({ python: null })
      expect(sockets.refused).toEqual([
        { process: 'agent', kind: 'connect', host: '127.0.0.2', port: 9, count: 1 },
        { process: 'agent', kind: 'connect', host: '127.0.0.2', port: 0, count: 1 },
        { process: 'agent', kind: 'udp', host: '?', port: 0, count: 1 }
      ])
      expect(sockets.notes).toEqual([expect.stringContaining('network refused during the call'), expect.stringContaining('named from closed sockets (`ss`')])
      const counted = await fallback({ python: null, ss: null })
      expect(counted.refused).toEqual([
        { process: 'agent', kind: 'connect', host: '?', port: 0, count: 2 },
        { process: 'agent', kind: 'udp', host: '?', port: 0, count: 1 }
      ])
      expect(counted.notes).toEqual([expect.stringContaining('destination unseen'), expect.stringContaining('only counted')])
    },
    LONG
  )

  it(
    'lets the agent reach an allowed host through the proxy, and the loopback origins it is given',
    async () => {
      const r = await run('agent', `${attempts(allowed.url)}\ncurl -sf ${meter.url}/v1/messages && echo meter ok`, [meter.url])
      expect(r.stdout).toContain('curl ok')
      expect(r.stdout).toContain('curl-connect ok')
      expect(r.stdout).toContain('urllib ok')
      expect(r.stdout).toContain('fetch ok')
      expect(r.stdout).toContain('meter ok')
      expect(allowed.hits).toEqual(expect.arrayContaining(['/curl', '/tunnel', '/urllib', '/fetch']))
      expect(meter.hits).toEqual(['/v1/messages'])
      // The gate's list is empty: the same host is refused to it.
      const gate = await run('gate', `curl -sf -m 5 ${allowed.url}/gate && echo reached`)
      expect(gate.stdout).not.toContain('reached')
      expect(sandbox.log.since('gate')).toEqual([expect.objectContaining({ kind: 'proxy', host: '127.0.0.3', port: allowed.port, count: 1 })])
    },
    LONG
  )

  it(
    "Node's fetch reaches an allowed HTTPS host through the proxy's tunnel, checking its certificate",
    async () => {
      const dir = sharedTempDir()
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          'key.pem',
          '-out',
          'cert.pem',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.3',
          '-addext',
          'subjectAltName=IP:127.0.0.3'
        ],
        { cwd: dir, stdio: 'ignore' }
      )
      const tls = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (req, res) =>
        res.end(`secure ${req.url}`)
      )
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.3', resolve))
      try {
        const url = `https://127.0.0.3:${(tls.address() as AddressInfo).port}/fetch`
        const fetchIt = (ca: string): string =>
          `NODE_EXTRA_CA_CERTS=${ca} ${NODE} -e "fetch('${url}').then(r => r.text()).then(t => console.log(t), e => console.log('failed', e.cause?.code ?? e.message))"`
        const r = await run('agent', `${fetchIt(path.join(dir, 'cert.pem'))}\n${fetchIt('/dev/null')}`)
        expect(r.stdout.trim().split('\n')).toEqual(['secure /fetch', expect.stringMatching(/^failed .*(CERT|SELF_SIGNED|self-signed)/i)])
      } finally {
        tls.close()
      }
    },
    LONG
  )

  it(
    "a process cannot list another sandboxed process's processes",
    async () => {
      const other = new Sandbox(probe as Extract<typeof probe, { ok: true }>, { agent: hostRules(['*']), gate: hostRules([]) })
      try {
        const stop = new AbortController()
        const long = runProcess({
          command: '/bin/sleep',
          args: ['31.25'],
          cwd: '/',
          env: { PATH: '/usr/bin:/bin' },
          uid: user.uid,
          gid: user.gid,
          signal: stop.signal,
          killGraceMs: 100,
          launch: other.launcher('agent')
        })
        await new Promise((resolve) => setTimeout(resolve, 500))
        const look = await run('agent', 'ps -eo pid,args; ls /proc | grep -c "^[0-9]"')
        expect(look.stdout).not.toContain('31.25')
        // Itself, its shell, ps: a handful of processes, never the runner's.
        expect(Number(look.stdout.trim().split('\n').pop())).toBeLessThan(10)
        stop.abort()
        expect((await long).aborted).toBe(true)
      } finally {
        other.close()
      }
    },
    LONG
  )
})
