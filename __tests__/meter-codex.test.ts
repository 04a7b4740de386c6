import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { CodexAgent } from '../src/agents/codex/adapter.js'
import { CODEX_DEFAULT_MODEL, DEFAULT_PRICES } from '../src/agents/pricing.js'
import { meteredAgent } from '../src/meter/metered-wiring.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CODEX_BIN, runEngine } from './helpers/agent-engine.js'
import { buggyProject, makeRepo } from './helpers/repo.js'
import { startOpenAIServer, type OpenAIServer, type ResponsesUsage } from './servers/openai-server.js'

const REAL_KEY = 'sk-proj-real-key-held-by-loopgate-only'
let server: OpenAIServer
let user: AgentUser
const stops: (() => Promise<void>)[] = []

beforeAll(async () => {
  server = await startOpenAIServer()
  user = agentUser()
  assertUserCanRun(user, CODEX_BIN)
})
afterAll(async () => {
  for (const stop of stops) await stop()
  await server.close()
})

/** A CODEX_HOME whose config.toml points codex straight at the server: the proxy's provider must win. */
function codexHome(): string {
  const home = path.join(user.home, `codex-${Math.random().toString(36).slice(2)}`)
  mkdirSync(home)
  writeFileSync(
    path.join(home, 'config.toml'),
    [
      'model_provider = "local"',
      '[model_providers.local]',
      'name = "local"',
      `base_url = "${server.url}/v1"`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      ''
    ].join('\n')
  )
  chownTree(home, user)
  return home
}

function priced(usages: ResponsesUsage[]): number {
  const p = DEFAULT_PRICES[CODEX_DEFAULT_MODEL]
  let cost = 0
  for (const u of usages) {
    const cached = u.cached_tokens ?? 0
    cost += ((u.input_tokens - cached) * p.input + cached * p.cachedInput + u.output_tokens * p.output) / 1e6
  }
  return cost
}

test('codex through the proxy: charged from the usage the proxy relayed, the real key only upstream', async () => {
  const u1: ResponsesUsage = { input_tokens: 50_000, cached_tokens: 10_000, output_tokens: 2000 }
  const u2: ResponsesUsage = { input_tokens: 60_000, cached_tokens: 40_000, output_tokens: 500 }
  server.setScript([
    { kind: 'exec', cmd: 'env > env.seen', usage: u1 },
    { kind: 'text', text: 'Done.', usage: u2 }
  ])
  const wired = meteredAgent(
    { agent: 'codex', agentArgs: [], agentApiKey: REAL_KEY },
    { OPENAI_BASE_URL: `${server.url}/v1` },
    new CodexAgent({ binary: CODEX_BIN })
  )
  stops.push(() => wired.meter!.stop())
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  const env = { PATH: process.env.PATH, CODEX_HOME: codexHome(), OPENAI_API_KEY: REAL_KEY }
  const r = await runEngine({ adapter: wired.adapter, repo, env, user, callBudgetUsd: 5 })
  const agent = r.outcome.iterations[0].agent
  expect(agent.status).toBe('claimed-done')
  expect(server.scriptedCalls).toBe(2)
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeCloseTo(priced([u1, u2]), 10)
  // codex priced its own turn.completed usage the same: no cross-check warning
  expect(agent.warnings.join('\n')).not.toMatch(/cross-check/)
  for (const q of server.requests.filter((q) => q.url.startsWith('/v1/responses'))) expect(q.headers.authorization).toBe(`Bearer ${REAL_KEY}`)
  const seen = readFileSync(path.join(repo, 'env.seen'), 'utf8')
  expect(seen).not.toContain(REAL_KEY)
  expect(seen).toMatch(/^LOOPGATE_CALL_TOKEN=loopgate-call-/m)
})
