import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ClaudeAgent } from '../src/agents/claude/adapter.js'
import { DEFAULT_PRICES } from '../src/agents/pricing.js'
import { vertexUpstream } from '../src/meter/cloud-routes.js'
import { meteredAgent } from '../src/meter/metered-wiring.js'
import { WireMeter } from '../src/meter/wire-meter.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, runEngine } from './helpers/agent-engine.js'
import { copyCliEnvCommand } from './helpers/forged-result.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startCloudServer, type CloudKeys, type CloudServer } from './servers/cloud-model-server.js'
import { serviceAccountKey, startTokenServer, type TokenServer } from './servers/google-token-server.js'

// Vertex with only GOOGLE_APPLICATION_CREDENTIALS: loopgate mints the access tokens itself from
// the key (a JWT it signs, exchanged at the key's token_uri), and the agent gets neither the key
// nor its path.

const KEYS: CloudKeys = {
  accessKeyId: 'unused',
  secretAccessKey: 'unused',
  sessionToken: 'unused',
  region: 'us-east-1',
  googleToken: 'ya29.minted-by-loopgate'
}

let cloud: CloudServer
let tokens: TokenServer
let user: AgentUser
const meters: { stop(): Promise<void> }[] = []

beforeAll(async () => {
  cloud = await startCloudServer(KEYS)
  tokens = await startTokenServer()
  user = agentUser()
  assertUserCanRun(user, CLAUDE_BIN)
})
afterAll(async () => {
  for (const m of meters) await m.stop()
  await cloud.close()
  await tokens.close()
})
beforeEach(() => {
  tokens.exchanges.length = 0
  tokens.issue = { tokens: Array.from({ length: 5 }, () => KEYS.googleToken), expiresIn: 3600 }
})

/** A key file outside the workspace, as google-github-actions/auth writes it to the runner's temp folder. */
function keyFile(content: string): string {
  const file = path.join(tempDir('loopgate-runner-temp-'), 'gha-creds-3f9a1c.json')
  writeFileSync(file, content, { mode: 0o600 })
  return file
}

function vertexEnv(file: string): NodeJS.ProcessEnv {
  return {
    GOOGLE_APPLICATION_CREDENTIALS: file,
    ANTHROPIC_VERTEX_BASE_URL: `${cloud.url}/v1`,
    ANTHROPIC_VERTEX_PROJECT_ID: 'loopgate-test',
    CLOUD_ML_REGION: 'us-east5'
  }
}

test('Vertex from a service-account key: the proxy mints the token (RS256 JWT), the CLI is metered at the wire and never sees the key or its path', async () => {
  const key = serviceAccountKey(`${tokens.url}/token`)
  tokens.publicKey = key.publicKey
  const file = keyFile(key.json)
  const usage = { input_tokens: 40_000, output_tokens: 600 }
  cloud.setScript([
    { kind: 'tool', name: 'Bash', input: { command: copyCliEnvCommand('env.seen') }, usage },
    { kind: 'text', text: 'Done.', usage }
  ])
  const wired = meteredAgent({ agent: 'claude', agentArgs: [], provider: 'vertex' }, vertexEnv(file), new ClaudeAgent({ binary: CLAUDE_BIN }))
  meters.push(wired.meter!)
  expect(wired.meteredAtWire).toBe(`Vertex AI via ${new URL(cloud.url).host}`)
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  const tmp = path.join(user.home, 'tmp')
  mkdirSync(tmp, { recursive: true })
  chownTree(tmp, user)
  // what the old wiring handed the CLI: the provider's variables, the key file's path among them
  const env = { PATH: process.env.PATH, TMPDIR: tmp, CLAUDE_CODE_MAX_RETRIES: '0', ...vertexEnv(file) }
  const r = await runEngine({ adapter: wired.adapter, repo, env, user, callBudgetUsd: 5 })
  expect(r.outcome.iterations[0].agent.status).toBe('claimed-done')
  expect(tokens.exchanges).toHaveLength(1)
  expect(tokens.exchanges[0].refused).toBeUndefined()
  expect(tokens.exchanges[0].claims?.iss).toBe('vertex-caller@loopgate-test.iam.gserviceaccount.com')
  const models = cloud.requests.filter((q) => /:streamRawPredict$/.test(q.url))
  expect(models.length).toBeGreaterThanOrEqual(2)
  for (const q of cloud.requests) expect(q.refused).toBeUndefined()
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeCloseTo(
    cloud.sent.reduce((s, u) => s + (u.input_tokens * 4 + u.output_tokens * 20) / 1e6, 0),
    9
  )
  const seen = readFileSync(path.join(repo, 'env.seen'), 'utf8')
  expect(seen).not.toMatch(/^GOOGLE_/m)
  expect(seen).not.toContain(file)
  expect(seen).not.toContain(path.basename(file))
  expect(seen).not.toContain(KEYS.googleToken)
  expect(seen).toMatch(/^ANTHROPIC_VERTEX_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1$/m)
})

const body = JSON.stringify({ anthropic_version: 'vertex-2023-10-16', max_tokens: 10, messages: [], tools: [{ name: 'Task' }] })
const modelPath = '/v1/projects/loopgate-test/locations/us-east5/publishers/anthropic/models/claude-opus-5-5:rawPredict'

test('a long run: the minted token is renewed before it expires, and a token that expired unrenewed stops the call as the provider’s failure', async () => {
  const key = serviceAccountKey(`${tokens.url}/token`)
  tokens.publicKey = key.publicKey
  tokens.issue = { tokens: ['ya29.first', 'ya29.second'], expiresIn: 3600 }
  let now = Date.parse('2026-01-01T00:00:00Z')
  const meter = new WireMeter(
    vertexUpstream(vertexEnv(keyFile(key.json)), () => now),
    DEFAULT_PRICES
  )
  meters.push(meter)
  cloud.setScript([])
  const send = async (token: string): Promise<number> =>
    (
      await fetch(`${await meter.url()}${modelPath}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body
      })
    ).status
  let ended = ''
  const call = meter.open({ limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 10 }, (why) => (ended = why))
  expect(await send(call.token)).toBe(403) // the scripted server knows only KEYS.googleToken
  now += 50 * 60_000
  expect(await send(call.token)).toBe(403)
  // minted once: 50 minutes into its hour the token is still used
  expect(tokens.exchanges.map((e) => e.issued)).toEqual(['ya29.first'])
  // inside its last five minutes it is renewed before the request goes out
  now += 6 * 60_000
  await send(call.token)
  expect(tokens.exchanges.map((e) => e.issued)).toEqual(['ya29.first', 'ya29.second'])
  expect(cloud.requests.map((q) => q.headers.authorization)).toEqual(['Bearer ya29.first', 'Bearer ya29.first', 'Bearer ya29.second'])
  // the token server goes away: the token is used while it is valid, then no request goes out
  tokens.issue.down = true
  now += 56 * 60_000
  await send(call.token)
  expect(cloud.requests).toHaveLength(4)
  now += 5 * 60_000
  expect(await send(call.token)).toBe(401)
  expect(cloud.requests).toHaveLength(4)
  const reading = meter.close(call)
  expect(reading.providerFailure?.message).toMatch(/^the Vertex access token from GOOGLE_APPLICATION_CREDENTIALS expired or could not be minted: .*503/)
  expect(ended).toBe(reading.providerFailure?.message)
})

test('an authorized_user file: the refresh token is exchanged by the proxy', async () => {
  tokens.refreshToken = '1//refresh-token-of-the-runner'
  const file = keyFile(
    JSON.stringify({
      type: 'authorized_user',
      client_id: 'cid.apps.googleusercontent.com',
      client_secret: 'csecret',
      refresh_token: tokens.refreshToken,
      token_uri: `${tokens.url}/token`
    })
  )
  const meter = new WireMeter(vertexUpstream(vertexEnv(file)), DEFAULT_PRICES)
  meters.push(meter)
  cloud.setScript([{ kind: 'text', text: 'hi', usage: { input_tokens: 10, output_tokens: 2 } }])
  const call = meter.open({ limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 10 }, () => undefined)
  const res = await fetch(`${await meter.url()}${modelPath}`, {
    method: 'POST',
    headers: { 'x-api-key': call.token, 'content-type': 'application/json' },
    body
  })
  expect(res.status).toBe(200)
  expect(tokens.exchanges.map((e) => [e.grant, e.refused])).toEqual([['refresh_token', undefined]])
  expect(meter.close(call).responses).toBe(1)
})

test('credentials files loopgate cannot mint from without running code or the OIDC request token are refused before any spend', () => {
  const externalFile = keyFile(
    JSON.stringify({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q',
      token_url: 'https://sts.googleapis.com/v1/token',
      credential_source: { file: '/var/run/token' }
    })
  )
  expect(() => vertexUpstream(vertexEnv(externalFile))).toThrow(/GOOGLE_APPLICATION_CREDENTIALS.*"external_account".*GOOGLE_OAUTH_ACCESS_TOKEN/)
  const oidc = keyFile(
    JSON.stringify({
      type: 'external_account',
      credential_source: { url: 'https://pipelines.actions.githubusercontent.com/x/idtoken/y', headers: { Authorization: 'Bearer t' } }
    })
  )
  expect(() => vertexUpstream(vertexEnv(oidc))).toThrow(/GOOGLE_APPLICATION_CREDENTIALS.*runner's OIDC token endpoint/)
  expect(() => vertexUpstream({ CLOUD_ML_REGION: 'us-east5' })).toThrow(/'provider'.*"vertex".*GOOGLE_OAUTH_ACCESS_TOKEN.*credentials_json/)
  expect(tokens.exchanges).toHaveLength(0)
})
