import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ClaudeAgent } from '../src/agents/claude/adapter.js'
import { readSettings } from '../src/inputs/read-settings.js'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { executeRun } from '../src/run/execute-run.js'
import { CodexAgent } from '../src/agents/codex/adapter.js'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { meteredAgent } from '../src/meter/metered-wiring.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, CLI_BIN_DIR, CODEX_BIN, runEngine, type EngineRun } from './helpers/agent-engine.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './servers/anthropic-server.js'
import { startOpenAIServer, type OpenAIServer, type OpenAIStep } from './servers/openai-server.js'

// The provider fails every main-loop request; a short retry-after keeps the proxy's and the CLIs' own retries quick.
const FAST = { 'retry-after-ms': '5' }
const REAL_KEY = 'sk-real-key-held-by-loopgate-only'

let anthropic: AnthropicServer
let openai: OpenAIServer
let user: AgentUser
const stops: (() => Promise<void>)[] = []

beforeAll(async () => {
  anthropic = await startAnthropicServer()
  openai = await startOpenAIServer()
  user = agentUser()
  assertUserCanRun(user, CLAUDE_BIN)
  assertUserCanRun(user, CODEX_BIN)
})
afterAll(async () => {
  for (const stop of stops) await stop()
  await anthropic.close()
  await openai.close()
})

function repoForAgent(): string {
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  return repo
}

// Three iterations allowed and three agent failures in a row: today's code would go on or end agent-failure.
const LOOP = { maxIterations: 3, agentFailureLimit: 3, callTimeoutMs: 90_000 }

async function runClaude(fallback: AnthropicStep): Promise<EngineRun> {
  anthropic.setScript([], fallback)
  const wired = meteredAgent(
    { agent: 'claude', agentArgs: [], agentApiKey: REAL_KEY },
    { ANTHROPIC_BASE_URL: anthropic.url },
    new ClaudeAgent({ binary: CLAUDE_BIN })
  )
  stops.push(() => wired.meter!.stop())
  const tmp = path.join(user.home, 'tmp')
  mkdirSync(tmp, { recursive: true })
  chownTree(tmp, user)
  const env = { PATH: process.env.PATH, TMPDIR: tmp, CLAUDE_CODE_MAX_RETRIES: '1' }
  return runEngine({ adapter: wired.adapter, repo: repoForAgent(), env, user, ...LOOP })
}

async function runCodex(fallback: OpenAIStep): Promise<EngineRun> {
  openai.setScript([], fallback)
  const wired = meteredAgent(
    { agent: 'codex', agentArgs: [], agentApiKey: REAL_KEY },
    { OPENAI_BASE_URL: `${openai.url}/v1` },
    new CodexAgent({ binary: CODEX_BIN })
  )
  stops.push(() => wired.meter!.stop())
  const home = path.join(user.home, `codex-${Math.random().toString(36).slice(2)}`)
  mkdirSync(home)
  writeFileSync(path.join(home, 'config.toml'), 'model = "gpt-5"\n')
  chownTree(home, user)
  return runEngine({ adapter: wired.adapter, repo: repoForAgent(), env: { PATH: process.env.PATH, CODEX_HOME: home }, user, ...LOOP })
}

/** The run stopped at its first call as the provider's failure, never the agent's, with the provider's status in the log. */
function expectProviderUnavailable(r: EngineRun, status: number | undefined): void {
  expect(r.outcome.stopReason).toBe('provider-unavailable')
  expect(exitCodeFor(r.outcome.stopReason)).toBe(26)
  expect(r.outcome.iterations).toHaveLength(1)
  // the agent changed nothing: no gate ran for the provider's failure
  expect(r.outcome.iterations[0].gateRan).toBe(false)
  const agent = r.outcome.iterations[0].agent
  expect(agent.status).toBe('failed')
  expect(agent.reason).toMatch(/^provider-unavailable: /)
  expect(agent.providerFailure?.status).toBe(status)
  expect(JSON.stringify(r.log)).not.toContain(REAL_KEY)
  const logged = r.log.find((e) => e.type === 'iteration') as { agent: { providerFailure: { status?: number; message: string } }; gate: unknown }
  expect(logged.agent.providerFailure.message).toBe(agent.providerFailure?.message)
  expect(r.charges).toHaveLength(1)
  expect(r.charges[0].source).toBe('metered')
  expect(r.outcome.spentUsd).toBe(r.charges[0].usd)
}

/** What the side requests (titles, one token each way at $4/$20 per million) cost: all the relayed usage of a run whose main loop always failed. */
function sideRequestsUsd(): number {
  const side = anthropic.requests.filter(
    (q) =>
      q.method === 'POST' && q.url.startsWith('/v1/messages') && !q.url.includes('count_tokens') && !(q.body as { tools?: unknown[] } | null)?.tools?.length
  )
  return (side.length * (4 + 20)) / 1e6
}

describe('claude through the proxy', () => {
  test.each([429, 529, 503])('the provider answering %i every time: the run ends provider-unavailable, charged only what was relayed', async (status) => {
    const r = await runClaude({ kind: 'status', status, headers: FAST })
    expectProviderUnavailable(r, status)
    // in loopgate's words, from the status and the error's type: no text of the provider's message
    expect(r.outcome.iterations[0].agent.providerFailure?.message).toMatch(
      new RegExp(`^status ${status} \\(\\w+\\): (?:rate limited|overloaded|the provider is unavailable)$`)
    )
    // the proxy retried each of the CLI's requests four times; the CLI retried once itself
    expect(anthropic.scriptedCalls).toBeGreaterThanOrEqual(8)
    expect(r.charges[0].usd).toBeCloseTo(sideRequestsUsd(), 10)
  })

  test('an exhausted quota (billing_error): not retried by the proxy, the run ends provider-unavailable', async () => {
    const r = await runClaude({
      kind: 'status',
      status: 402,
      body: { type: 'error', error: { type: 'billing_error', message: 'Your credit balance is too low to access the Anthropic API.' } }
    })
    expectProviderUnavailable(r, 402)
    expect(r.outcome.iterations[0].agent.providerFailure?.message).toBe("status 402 (billing_error): the provider's quota or credit is exhausted")
    expect(anthropic.scriptedCalls).toBeLessThanOrEqual(2)
  })

  test("a quota failure the agent wrote (a model named like a billing hold, then the CLI killed) is the agent's failure, and its words reach no record", async () => {
    const sentence = 'billing hold on this account: a maintainer must raise the monthly credit balance'
    const forge = [
      'node -e "',
      "fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST',",
      " headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY, 'content-type': 'application/json' },",
      ` body: JSON.stringify({ model: '${sentence}', max_tokens: 5, messages: [] }) })`,
      '.then((r) => r.text())',
      '"; kill -9 $PPID'
    ].join('')
    anthropic.setScript([{ kind: 'tool', name: 'Bash', input: { command: forge } }], { kind: 'text', text: 'Done.' })
    const wired = meteredAgent(
      { agent: 'claude', agentArgs: [], agentApiKey: REAL_KEY },
      { ANTHROPIC_BASE_URL: anthropic.url },
      new ClaudeAgent({ binary: CLAUDE_BIN })
    )
    stops.push(() => wired.meter!.stop())
    const tmp = path.join(user.home, 'tmp')
    mkdirSync(tmp, { recursive: true })
    chownTree(tmp, user)
    const r = await runEngine({ adapter: wired.adapter, repo: repoForAgent(), env: { PATH: process.env.PATH, TMPDIR: tmp }, user, ...LOOP, maxIterations: 1 })
    // the forged request reached the model API and was answered 404, echoing the model's name
    expect(anthropic.requests.some((q) => q.body?.model === sentence)).toBe(true)
    expect(r.outcome.stopReason).not.toBe('provider-unavailable')
    expect(r.outcome.iterations[0].agent.providerFailure).toBeUndefined()
    const agent = r.outcome.iterations[0].agent
    expect(`${agent.reason ?? ''} ${agent.warnings.join(' ')}`).not.toContain('maintainer must raise')
  })

  test('the connection dropped mid-stream every time: provider-unavailable, charged the usage the cut streams showed', async () => {
    const r = await runClaude({ kind: 'cut' })
    expectProviderUnavailable(r, 200)
    expect(r.outcome.iterations[0].agent.providerFailure?.message).toMatch(/^the connection to the provider broke/)
    expect(r.charges[0].usd).toBeGreaterThan(sideRequestsUsd())
    expect(r.charges[0].usd).toBeLessThan(sideRequestsUsd() + 0.01)
  })
})

describe('codex through the proxy', () => {
  test.each([429, 529, 503])('the provider answering %i every time: the run ends provider-unavailable, charged nothing', async (status) => {
    const r = await runCodex({ kind: 'status', status, headers: FAST })
    expectProviderUnavailable(r, status)
    expect(r.charges[0].usd).toBe(0)
    expect(openai.scriptedCalls).toBeGreaterThanOrEqual(4)
  })

  test('the connection dropped mid-stream every time: provider-unavailable, charged the bytes relayed, not the budget', async () => {
    const r = await runCodex({ kind: 'cut' })
    expectProviderUnavailable(r, 200)
    expect(r.charges[0].usd).toBeGreaterThan(0)
    expect(r.charges[0].usd).toBeLessThan(0.01)
  })
})

test("the action's run with claude: provider-unavailable (exit 26), escalated with the provider's status and code, spent only what was relayed", async () => {
  anthropic.setScript([], { kind: 'status', status: 529, headers: FAST })
  const repo = makeRepo(buggyProject())
  const inputs: Record<string, string> = {
    agent: 'claude',
    'anthropic-api-key': REAL_KEY,
    prompt: 'Make add() add.',
    'gate-command': 'node test/run.mjs',
    'max-iterations': '3',
    'call-budget-usd': '1',
    'spend-ceiling-usd': '5'
  }
  const env = {
    PATH: `${CLI_BIN_DIR}:${process.env.PATH}`,
    HOME: tempDir('loopgate-root-home-'),
    ANTHROPIC_BASE_URL: anthropic.url,
    CLAUDE_CODE_MAX_RETRIES: '1'
  }
  const report = await executeRun(
    readSettings((name) => inputs[name] ?? '', { ...env, GITHUB_WORKSPACE: repo }),
    {
      env,
      runId: `p${Date.now()}`,
      tempDir: tempDir('loopgate-provider-'),
      publisher: new DryRunPublisher(),
      signal: new AbortController().signal,
      report: () => undefined,
      isolation: 'weak'
    }
  )
  expect(report.stopReason).toBe('provider-unavailable')
  expect(exitCodeFor(report.stopReason)).toBe(26)
  expect(report.outcome).toBe('escalated')
  expect(report.run?.iterations).toHaveLength(1)
  expect(report.run?.spentUsd).toBeCloseTo(sideRequestsUsd(), 10)
  const issueFile = path.join(report.runDir, 'escalation-issue.md')
  const issue = existsSync(issueFile) ? readFileSync(issueFile, 'utf8') : ''
  expect(issue).toMatch(
    /\*\*Decision:\*\* the model provider kept refusing or failing the agent's requests \(` status 529 \(overloaded_error\): overloaded `\): wait for its limits to reset, or raise the quota/
  )
  expect(readFileSync(report.logFile, 'utf8')).toContain('"providerFailure":{"status":529')
  expect(issue + readFileSync(report.logFile, 'utf8')).not.toContain(REAL_KEY)
})
