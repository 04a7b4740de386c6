import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ClaudeAgent } from '../src/agents/claude/adapter.js'
import { meteredAgent } from '../src/meter/metered-wiring.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, runEngine } from './helpers/agent-engine.js'
import { copyCliEnvCommand } from './helpers/forged-result.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startCloudServer, type CloudKeys, type CloudServer, type CloudStep, type CloudUsage } from './servers/cloud-model-server.js'

// claude-opus-5-5 in loopgate's price table: $4 in, $20 out per million.
const priced = (sent: CloudUsage[]): number => sent.reduce((sum, u) => sum + (u.input_tokens * 4 + u.output_tokens * 20) / 1e6, 0)

const KEYS: CloudKeys = {
  accessKeyId: 'AKIAEXAMPLELOOPGATE1',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE-session-token',
  region: 'us-west-2',
  googleToken: 'ya29.example-vertex-access-token'
}

let server: CloudServer
let user: AgentUser
const meters: { stop(): Promise<void> }[] = []

beforeAll(async () => {
  server = await startCloudServer(KEYS)
  user = agentUser()
  assertUserCanRun(user, CLAUDE_BIN)
})
afterAll(async () => {
  for (const m of meters) await m.stop()
  await server.close()
})

/** The runner's environment as aws-actions/configure-aws-credentials and google-github-actions/auth leave it. */
function runnerEnv(): NodeJS.ProcessEnv {
  return {
    AWS_ACCESS_KEY_ID: KEYS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
    AWS_SESSION_TOKEN: KEYS.sessionToken,
    AWS_REGION: KEYS.region,
    ANTHROPIC_BEDROCK_BASE_URL: server.url,
    GOOGLE_OAUTH_ACCESS_TOKEN: KEYS.googleToken,
    GOOGLE_APPLICATION_CREDENTIALS: '/home/runner/work/_temp/gha-creds-1234.json',
    ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    ANTHROPIC_VERTEX_PROJECT_ID: 'loopgate-test',
    CLOUD_ML_REGION: 'us-east5'
  }
}

/** What the old wiring handed the CLI: the provider's variables, credentials included. */
function agentEnv(): NodeJS.ProcessEnv {
  const tmp = path.join(user.home, 'tmp')
  mkdirSync(tmp, { recursive: true })
  chownTree(tmp, user)
  return { PATH: process.env.PATH, TMPDIR: tmp, CLAUDE_CODE_MAX_RETRIES: '0', ...runnerEnv() }
}

async function run(provider: 'bedrock' | 'vertex', script: CloudStep[]) {
  server.setScript(script)
  const wired = meteredAgent({ agent: 'claude', agentArgs: [], provider }, runnerEnv(), new ClaudeAgent({ binary: CLAUDE_BIN }))
  if (wired.meter) meters.push(wired.meter)
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  const r = await runEngine({ adapter: wired.adapter, repo, env: agentEnv(), user, callBudgetUsd: 5 })
  return { ...r, repo, agent: r.outcome.iterations[0]?.agent, wired }
}

const big = { input_tokens: 50_000, output_tokens: 700, cache_read_input_tokens: 0 }
const script = (): CloudStep[] => [
  { kind: 'tool', name: 'Bash', input: { command: copyCliEnvCommand('env.seen') }, usage: big },
  { kind: 'text', text: 'Done.', usage: big }
]

function expectNoCloudCredential(seen: string): void {
  expect(seen).not.toMatch(/^AWS_/m)
  expect(seen).not.toMatch(/^GOOGLE_/m)
  expect(seen).not.toContain(KEYS.secretAccessKey)
  expect(seen).not.toContain(KEYS.sessionToken)
  expect(seen).not.toContain(KEYS.googleToken)
  expect(/^ANTHROPIC_CUSTOM_HEADERS=Authorization: Bearer (loopgate-call-[A-Za-z0-9_-]{43})$/m.test(seen)).toBe(true)
}

test('Claude on Bedrock through the proxy: every request SigV4-signed with the runner keys, the event stream metered, no AWS variable in the agent', async () => {
  const r = await run('bedrock', script())
  expect(r.wired.meteredAtWire).toBe(`Amazon Bedrock via ${new URL(server.url).host}`)
  expect(r.agent.status).toBe('claimed-done')
  const models = server.requests.filter((q) => /\/model\/[^/]+\/invoke-with-response-stream$/.test(q.url))
  expect(models.length).toBeGreaterThanOrEqual(2)
  expect(server.requests.map((q) => q.refused)).toEqual(server.requests.map(() => undefined))
  for (const q of models)
    expect(String(q.headers.authorization)).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${KEYS.accessKeyId}/\\d{8}/us-west-2/bedrock/`))
  expect(r.charges).toHaveLength(1)
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeCloseTo(priced(server.sent), 9)
  expect(r.charges[0].usd).toBeGreaterThanOrEqual(priced([big, big]))
  const seen = readFileSync(path.join(r.repo, 'env.seen'), 'utf8')
  expectNoCloudCredential(seen)
  expect(seen).toMatch(/^CLAUDE_CODE_SKIP_BEDROCK_AUTH=1$/m)
  expect(/^ANTHROPIC_BEDROCK_BASE_URL=(.*)$/m.exec(seen)?.[1]).not.toBe(server.url)
})

test('Claude on Vertex through the proxy: the access token added by the proxy, the SSE stream metered, no Google credential in the agent', async () => {
  const r = await run('vertex', script())
  expect(r.wired.meteredAtWire).toBe(`Vertex AI via ${new URL(server.url).host}`)
  expect(r.agent.status).toBe('claimed-done')
  const models = server.requests.filter((q) =>
    /\/v1\/projects\/loopgate-test\/locations\/us-east5\/publishers\/anthropic\/models\/[^/]+:streamRawPredict$/.test(q.url)
  )
  expect(models.length).toBeGreaterThanOrEqual(2)
  expect(server.requests.map((q) => q.refused)).toEqual(server.requests.map(() => undefined))
  for (const q of server.requests) expect(q.headers.authorization).toBe(`Bearer ${KEYS.googleToken}`)
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeCloseTo(priced(server.sent), 9)
  const seen = readFileSync(path.join(r.repo, 'env.seen'), 'utf8')
  expectNoCloudCredential(seen)
  expect(seen).toMatch(/^CLAUDE_CODE_SKIP_VERTEX_AUTH=1$/m)
})

test('without a credential loopgate can hold the cloud routes are refused before any spend (the CLI never gets the cloud credentials)', () => {
  const bare = { AWS_REGION: 'us-east-1', CLOUD_ML_REGION: 'us-east5', HOME: tempDir('loopgate-empty-home-') }
  for (const provider of ['bedrock', 'vertex']) {
    expect(() => meteredAgent({ agent: 'claude', agentArgs: [], provider }, bare, new ClaudeAgent({ binary: CLAUDE_BIN }))).toThrow(
      new RegExp(`Input 'provider' has the value "${provider}"`)
    )
  }
})

test('on Bedrock too, a request is refused once the call has used its budget: the call ends charged what was relayed', async () => {
  const dear = JSON.stringify({ 'claude-opus-5-5': { input: 40, output: 200, cachedInput: 4, cacheWrite: 50 } })
  const step: CloudStep = { kind: 'tool', name: 'Bash', input: { command: 'echo x >> turns.log' }, usage: { input_tokens: 100_000, output_tokens: 1000 } }
  server.setScript([step, step, step, step, step, step])
  const wired = meteredAgent({ agent: 'claude', agentArgs: [], provider: 'bedrock', priceTable: dear }, runnerEnv(), new ClaudeAgent({ binary: CLAUDE_BIN }))
  meters.push(wired.meter!)
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  const r = await runEngine({ adapter: wired.adapter, repo, env: agentEnv(), user, callBudgetUsd: 10, maxTurns: 20 })
  const agent = r.outcome.iterations[0].agent
  // each scripted response costs $4.20: the third crosses $10, the fourth request never reaches the model
  expect(server.sent.filter((u) => u.input_tokens === 100_000)).toHaveLength(3)
  expect(agent.status).toBe('capped')
  expect(agent.reason).toMatch(/^wire-limit: loopgate refused this model request: the call has used \$12\.6\d+, which reached call-budget-usd/)
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeCloseTo(priced(server.sent) * 10, 6)
})
