import { mkdirSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { ClaudeAgent } from '../src/agents/claude/adapter.js'
import { DEFAULT_PRICES } from '../src/agents/pricing.js'
import { bedrockUpstream } from '../src/meter/cloud-routes.js'
import { MeteredAdapter } from '../src/meter/metered-adapter.js'
import { WireMeter } from '../src/meter/wire-meter.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, runEngine } from './helpers/agent-engine.js'
import { buggyProject, makeRepo } from './helpers/repo.js'
import { startCloudServer, type CloudKeys, type CloudServer } from './servers/cloud-model-server.js'

// Runner credentials with a known expiry (AWS_CREDENTIAL_EXPIRATION) are never used past it: the
// request that would carry them is held back and the run stops as the provider's failure.

const KEYS: CloudKeys = {
  accessKeyId: 'AKIAEXPIRINGEXAMPLE1',
  secretAccessKey: 'expiring/secret+EXAMPLE',
  sessionToken: 'session-that-expires-mid-run',
  region: 'us-east-2',
  googleToken: 'unused'
}
const EXPIRES = '2026-03-01T12:00:00Z'
const BEFORE = Date.parse('2026-03-01T11:00:00Z')
const AFTER = Date.parse('2026-03-01T12:00:01Z')

let server: CloudServer
let user: AgentUser
const meters: WireMeter[] = []
beforeAll(async () => {
  server = await startCloudServer(KEYS)
  user = agentUser()
  assertUserCanRun(user, CLAUDE_BIN)
})
afterAll(async () => {
  for (const m of meters) await m.stop()
  await server.close()
})

const runnerEnv = (): NodeJS.ProcessEnv => ({
  AWS_ACCESS_KEY_ID: KEYS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
  AWS_SESSION_TOKEN: KEYS.sessionToken,
  AWS_CREDENTIAL_EXPIRATION: EXPIRES,
  AWS_REGION: KEYS.region,
  ANTHROPIC_BEDROCK_BASE_URL: server.url
})

test('the AWS session expires mid-run: no request goes out with it, and the run stops as provider-unavailable, not as the agent’s failure', async () => {
  const step = { kind: 'tool' as const, name: 'Bash', input: { command: 'echo turn >> turns.log' }, usage: { input_tokens: 1000, output_tokens: 50 } }
  server.setScript([step, step, step, step])
  // the clock passes the expiry once two requests have reached Bedrock
  const meter = new WireMeter(
    bedrockUpstream(runnerEnv(), () => (server.requests.length >= 2 ? AFTER : BEFORE)),
    DEFAULT_PRICES
  )
  meters.push(meter)
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  const tmp = path.join(user.home, 'tmp')
  mkdirSync(tmp, { recursive: true })
  chownTree(tmp, user)
  const env = { PATH: process.env.PATH, TMPDIR: tmp, CLAUDE_CODE_MAX_RETRIES: '0', ...runnerEnv() }
  const r = await runEngine({
    adapter: new MeteredAdapter(new ClaudeAgent({ binary: CLAUDE_BIN }), meter),
    repo,
    env,
    user,
    maxIterations: 3,
    agentFailureLimit: 3
  })
  expect(server.requests).toHaveLength(2)
  for (const q of server.requests) expect(q.refused).toBeUndefined()
  expect(r.outcome.stopReason).toBe('provider-unavailable')
  expect(r.outcome.iterations).toHaveLength(1)
  const agent = r.outcome.iterations[0].agent
  expect(agent.reason).toBe(
    "provider-unavailable: the runner's AWS credentials expired at 2026-03-01T12:00:00.000Z (AWS_CREDENTIAL_EXPIRATION) and loopgate cannot renew them; " +
      'give the run credentials that outlast it (role-duration-seconds of aws-actions/configure-aws-credentials)'
  )
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeCloseTo(
    server.sent.reduce((s, u) => s + (u.input_tokens * 4 + u.output_tokens * 20) / 1e6, 0),
    9
  )
})

test('a request is held back within 30 s of the expiry (it could arrive after it); without a known expiry none is', async () => {
  let now = Date.parse(EXPIRES) - 31_000
  const meter = new WireMeter(
    bedrockUpstream(runnerEnv(), () => now),
    DEFAULT_PRICES
  )
  meters.push(meter)
  server.setScript([])
  const call = meter.open({ limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 10 }, () => undefined)
  const send = async (): Promise<number> =>
    (
      await fetch(`${await meter.url()}/model/anthropic.claude-opus-5-5/invoke`, {
        method: 'POST',
        headers: { 'x-api-key': call.token, 'content-type': 'application/json' },
        body: JSON.stringify({ max_tokens: 5, messages: [] })
      })
    ).status
  expect(await send()).toBe(200)
  now += 2000
  expect(await send()).toBe(401)
  expect(server.requests).toHaveLength(1)
  expect(meter.close(call).providerFailure?.message).toMatch(/^the runner's AWS credentials expired at 2026-03-01T12:00:00\.000Z/)
  const { AWS_CREDENTIAL_EXPIRATION: _, ...unknown } = runnerEnv()
  expect(bedrockUpstream(unknown, () => AFTER).ready).toBeUndefined()
  expect(() => bedrockUpstream({ ...runnerEnv(), AWS_CREDENTIAL_EXPIRATION: 'soon' })).toThrow(/AWS_CREDENTIAL_EXPIRATION.*ISO 8601/)
})

test('credentials whose expiry loopgate did not know: the cloud’s “expired” answer is the provider’s failure, not retried and not the agent’s', async () => {
  let hits = 0
  const expired = http.createServer((req, res) => {
    hits++
    req.resume()
    res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'ExpiredTokenException' })
    res.end(JSON.stringify({ message: 'The security token included in the request is expired' }))
  })
  await new Promise<void>((resolve) => expired.listen(0, '127.0.0.1', resolve))
  const { AWS_CREDENTIAL_EXPIRATION: _, ...env } = runnerEnv()
  const meter = new WireMeter(
    bedrockUpstream({ ...env, ANTHROPIC_BEDROCK_BASE_URL: `http://127.0.0.1:${(expired.address() as AddressInfo).port}` }),
    DEFAULT_PRICES
  )
  meters.push(meter)
  try {
    const call = meter.open({ limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 10 }, () => undefined)
    const res = await fetch(`${await meter.url()}/model/anthropic.claude-opus-5-5/invoke`, {
      method: 'POST',
      headers: { 'x-api-key': call.token, 'content-type': 'application/json' },
      body: JSON.stringify({ max_tokens: 5, messages: [] })
    })
    expect(res.status).toBe(403)
    expect(hits).toBe(1)
    expect(meter.close(call).providerFailure).toEqual({
      kind: 'credential',
      status: 403,
      message: "status 403 (ExpiredTokenException): the model API refused loopgate's credential"
    })
  } finally {
    expired.close()
  }
})
