import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ClaudeAgent } from '../src/agents/claude/adapter.js'
import { meteredAgent } from '../src/meter/metered-wiring.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, lastResultLine, runEngine } from './helpers/agent-engine.js'
import { copyCliEnvCommand, forgerCommand } from './helpers/forged-result.js'
import { buggyProject, makeRepo } from './helpers/repo.js'
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './servers/anthropic-server.js'

// claude-opus-5-5, the CLI's default model, in loopgate's price table: $4 in, $20 out per million.
const usd = (input: number, output: number): number => (input * 4 + output * 20) / 1_000_000
const REAL_KEY = 'sk-ant-real-key-held-by-loopgate-only'

let server: AnthropicServer
let user: AgentUser

beforeAll(async () => {
  server = await startAnthropicServer()
  user = agentUser()
  assertUserCanRun(user, CLAUDE_BIN)
})
afterAll(async () => {
  await server.close()
})

function agentEnv(): NodeJS.ProcessEnv {
  const tmp = path.join(user.home, 'tmp')
  mkdirSync(tmp, { recursive: true })
  chownTree(tmp, user)
  // What the old wiring handed the CLI: the real key, the real base URL.
  return { PATH: process.env.PATH, TMPDIR: tmp, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: REAL_KEY, CLAUDE_CODE_MAX_RETRIES: '1' }
}

function repoForAgent(): string {
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  return repo
}

/** The claude agent as the run wires it: behind the metering proxy, which holds the real key. */
function wiredClaude() {
  return meteredAgent({ agent: 'claude', agentArgs: [], agentApiKey: REAL_KEY }, { ANTHROPIC_BASE_URL: server.url }, new ClaudeAgent({ binary: CLAUDE_BIN }))
}

const meters: { stop(): Promise<void> }[] = []
afterAll(async () => {
  for (const m of meters) await m.stop()
})

async function run(script: AnthropicStep[], opts: Partial<Parameters<typeof runEngine>[0]> = {}, fallback?: AnthropicStep) {
  server.setScript(script, fallback)
  const wired = wiredClaude()
  if (wired.meter) meters.push(wired.meter)
  const repo = opts.repo ?? repoForAgent()
  const r = await runEngine({ adapter: wired.adapter, repo, env: agentEnv(), user, ...opts })
  return { ...r, repo, agent: r.outcome.iterations[0]?.agent, meter: wired.meter! }
}

const big = { input_tokens: 100_000, output_tokens: 1000 }

test("a forged $0 result written into the CLI's own stdout does not change the charge: the ledger holds what the proxy relayed", async () => {
  const repo = repoForAgent()
  const r = await run(
    [
      { kind: 'tool', name: 'Bash', input: { command: forgerCommand(path.join(user.home, 'tmp')) }, usage: big },
      { kind: 'text', text: 'Done.', usage: big }
    ],
    {
      repo,
      callBudgetUsd: 5
    }
  )
  // the attack landed: the last result line on the CLI's stdout is the forged one
  expect(lastResultLine(r.agent.outputTail)?.result).toBe('forged')
  const relayed = usd(200_000, 2000)
  expect(r.charges).toHaveLength(1)
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeGreaterThanOrEqual(relayed)
  // the side requests (a title) cost a few tokens more, never less
  expect(r.charges[0].usd).toBeLessThan(relayed + 0.001)
  expect(r.outcome.spentUsd).toBe(r.charges[0].usd)
  const logged = r.log.find((e) => e.type === 'iteration') as { agent: { warnings: string[]; wire: { reportedCostUsd: number } } }
  expect(logged.agent.warnings.join('\n')).toMatch(/cost cross-check: the CLI's own report says \$0\.0000, loopgate metered \$0\.84/)
  expect(logged.agent.wire.reportedCostUsd).toBe(0)
})

test('the CLI sees only its per-call token: no real key in its environment, and the upstream gets the real key', async () => {
  const r = await run(
    [
      { kind: 'tool', name: 'Bash', input: { command: copyCliEnvCommand('env.seen') } },
      { kind: 'text', text: 'Done.' }
    ],
    {
      env: { ...agentEnv(), CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat-real-subscription-token' }
    }
  )
  expect(r.agent.status).toBe('claimed-done')
  const seen = readFileSync(path.join(r.repo, 'env.seen'), 'utf8')
  expect(seen).not.toContain(REAL_KEY)
  expect(seen).not.toContain('sk-ant-oat-')
  const token = /^ANTHROPIC_API_KEY=(.*)$/m.exec(seen)?.[1]
  expect(token).toMatch(/^loopgate-call-[A-Za-z0-9_-]{43}$/)
  expect(/^ANTHROPIC_BASE_URL=(.*)$/m.exec(seen)?.[1]).not.toBe(server.url)
  const upstream = server.requests.filter((q) => q.url.startsWith('/v1/messages'))
  expect(upstream.length).toBeGreaterThan(0)
  for (const q of upstream) {
    expect(q.headers['x-api-key']).toBe(REAL_KEY)
    expect(JSON.stringify(q.headers)).not.toContain(token)
  }
  // the token died with the call; a made-up one never lived
  const proxy = /^ANTHROPIC_BASE_URL=(.*)$/m.exec(seen)?.[1] as string
  for (const key of [token as string, 'loopgate-call-guessed']) {
    const before = server.requests.length
    const res = await fetch(`${proxy}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{"model":"claude-opus-5-5","max_tokens":10,"messages":[]}'
    })
    expect(res.status).toBe(401)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/no token of a running call/)
    expect(server.requests.length).toBe(before)
  }
})

test('a request is refused once the call has used its budget: the call ends after the response that crossed it, charged what was relayed', async () => {
  // loopgate prices this model ten times what the CLI does, so the CLI's own --max-budget-usd never stops it first
  const dear = JSON.stringify({ 'claude-opus-5-5': { input: 40, output: 200, cachedInput: 4, cacheWrite: 50 } })
  const perResponse = (100_000 * 40 + 1000 * 200) / 1e6
  server.setScript([], { kind: 'tool', name: 'Bash', input: { command: 'echo x >> turns.log' }, usage: big })
  const wired = meteredAgent(
    { agent: 'claude', agentArgs: [], agentApiKey: REAL_KEY, priceTable: dear },
    { ANTHROPIC_BASE_URL: server.url },
    new ClaudeAgent({ binary: CLAUDE_BIN })
  )
  meters.push(wired.meter!)
  const repo = repoForAgent()
  const r = await runEngine({ adapter: wired.adapter, repo, env: agentEnv(), user, callBudgetUsd: 10, maxTurns: 20 })
  const agent = r.outcome.iterations[0].agent
  expect(perResponse).toBeGreaterThan(10 / 3)
  // three responses crossed $10; the fourth request never reached the model
  expect(server.scriptedCalls).toBe(3)
  expect(agent.status).toBe('capped')
  expect(agent.reason).toMatch(/^wire-limit: loopgate refused this model request: the call has used \$12\.6\d+, which reached call-budget-usd \(\$10\.0000\)/)
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeGreaterThanOrEqual(3 * perResponse)
  expect(r.charges[0].usd).toBeLessThan(3 * perResponse + 0.01)
  expect(readFileSync(path.join(repo, 'turns.log'), 'utf8')).toBe('x\nx\nx\n')
})

test("max-turns: the CLI's own cap still ends the call (the proxy's count of main-loop requests stays within its allowance)", async () => {
  const step: AnthropicStep = { kind: 'tool', name: 'Bash', input: { command: 'echo x >> turns.log' }, usage: { input_tokens: 500, output_tokens: 10 } }
  const r = await run([], { maxTurns: 3 }, step)
  expect(r.agent.status).toBe('capped')
  expect(r.agent.reason).toBe('error_max_turns')
  expect(r.agent.turns).toBe(3)
  const logged = r.log.find((e) => e.type === 'iteration') as { agent: { wire: { modelRequests: number } } }
  expect(logged.agent.wire.modelRequests).toBe(server.scriptedCalls)
  expect(logged.agent.wire.modelRequests).toBeLessThanOrEqual(3 + 2)
  expect(r.charges[0]).toEqual(expect.objectContaining({ source: 'metered' }))
  expect(r.charges[0].usd).toBeGreaterThanOrEqual((server.scriptedCalls * (500 * 4 + 10 * 20)) / 1e6)
})

test('an agent command that hangs up on its own large requests before each answer: the ledger holds what the model computed, and stops at the ceiling', async () => {
  // ten non-streamed requests of ~150,000 input tokens through the proxy with the call's token, each abandoned after 0.5 s
  const attack = [
    "const body = JSON.stringify({ model: 'claude-opus-5-5', max_tokens: 4000, tools: [{ name: 'Bash' }], messages: [{ role: 'user', content: 'x'.repeat(600000) }] })",
    'for (let i = 0; i < 10; i++) {',
    '  const gone = new AbortController()',
    '  setTimeout(() => gone.abort(), 500)',
    "  await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST', headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY, 'content-type': 'application/json' }, body, signal: gone.signal }).then((r) => r.text(), () => undefined)",
    '}'
  ].join('\n')
  const tmp = path.join(user.home, 'tmp')
  const large = { input_tokens: 150_000, output_tokens: 4000 }
  const script: AnthropicStep[] = [
    { kind: 'tool', name: 'Bash', input: { command: `cat > ${tmp}/hangup.mjs <<'EOF'\n${attack}\nEOF\nnode ${tmp}/hangup.mjs; echo sent` } },
    ...Array.from({ length: 10 }, (): AnthropicStep => ({ kind: 'late', delayMs: 1000, usage: large }))
  ]
  const r = await run(script, { callBudgetUsd: 3, spendCeilingUsd: 3 })
  const perAnswer = usd(150_000, 4000)
  const computed = server.billed.reduce((sum, u) => sum + usd(u.input_tokens, u.output_tokens), 0)
  // the model computed the CLI's own turn and some of the ten; the proxy refused the rest before they left
  expect(server.billed.length).toBeGreaterThan(1)
  expect(server.billed.length).toBeLessThan(11)
  expect(r.charges).toHaveLength(1)
  expect(r.charges[0].usd).toBeGreaterThanOrEqual(computed - 1e-9)
  expect(r.charges[0].usd).toBeLessThanOrEqual(3 + perAnswer)
  expect(r.agent.status).toBe('capped')
  expect(r.agent.reason).toMatch(/^wire-limit: loopgate refused this model request: its input .* more than is left under (?:call-budget|spend-ceiling)-usd/)
})

test("an agent command reading the account's files and batches with the call's token is refused, and the refusals are in the attempt log", async () => {
  const read = [
    'node -e "',
    "const get = (p) => fetch(process.env.ANTHROPIC_BASE_URL + p, { headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY } }).then((r) => console.log(p, r.status));",
    "get('/v1/files').then(() => get('/v1/messages/batches'))",
    '" > reads.out'
  ].join('')
  const r = await run([
    { kind: 'tool', name: 'Bash', input: { command: read } },
    { kind: 'text', text: 'Done.' }
  ])
  expect(readFileSync(path.join(r.repo, 'reads.out'), 'utf8')).toBe('/v1/files 403\n/v1/messages/batches 403\n')
  expect(server.requests.filter((q) => q.method === 'GET')).toEqual([])
  const logged = r.log.find((e) => e.type === 'iteration') as { agent: { warnings: string[] } }
  const warnings = logged.agent.warnings.join('\n')
  expect(warnings).toContain("loopgate's metering proxy refused GET /v1/files")
  expect(warnings).toContain("loopgate's metering proxy refused GET /v1/messages/batches")
})
