import { existsSync } from 'node:fs'
import path from 'node:path'
import { bareRemote, checkoutOf, tipOf } from './helpers/bare-remote.js'
import { DIST_INDEX, runAction } from './helpers/action-runner.js'
import { CLI_BIN_DIR, CLAUDE_BIN, CODEX_BIN } from './helpers/agent-engine.js'
import { assertUserCanRun, agentUser } from './helpers/agent-user.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { startAnthropicServer, type AnthropicServer } from './servers/anthropic-server.js'
import { startOpenAIServer, type OpenAIServer } from './servers/openai-server.js'

/**
 * The provider failing, through the bundled action as the runner starts it: the real `claude` and
 * `codex` CLIs behind loopgate's metering proxy, a scripted model server answering 529 to every request, the
 * local GitHub server and a bare remote. The run is the provider's failure, never the agent's.
 */

const TOKEN = 'ghs_providerUnavailableE2eToken0000000001'
const MODEL_KEY = 'sk-ant-provider-e2e-key-held-by-loopgate'
const OPENAI_KEY = 'sk-openai-provider-e2e-key-held-by-loopgate'

describe('the provider failing, through the bundled action', () => {
  let gh: GitHubServer
  let anthropic: AnthropicServer
  let openai: OpenAIServer

  beforeAll(async () => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
    assertUserCanRun(agentUser(), CLAUDE_BIN)
    assertUserCanRun(agentUser(), CODEX_BIN)
    anthropic = await startAnthropicServer()
    openai = await startOpenAIServer()
  })
  afterAll(async () => {
    await anthropic?.close()
    await openai?.close()
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  it('escalates as provider-unavailable: no gate ran, the escalation says to wait or raise the quota, nothing pushed', async () => {
    anthropic.setScript([], { kind: 'status', status: 529, headers: { 'retry-after-ms': '5' } })
    const { server, bare } = bareRemote()
    const r = await runAction({
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
        agent: 'claude',
        'anthropic-api-key': MODEL_KEY,
        prompt: 'Make add() return the sum of its two arguments, and keep the tests green.',
        'gate-command': 'node test/run.mjs',
        'github-token': TOKEN,
        'max-iterations': '3',
        'max-turns': '5',
        'call-budget-usd': '0.5',
        'spend-ceiling-usd': '2',
        'loop-id': 'provider'
      },
      timeoutMs: 300_000
    })

    expect(r.outputs['stop-reason']).toBe('provider-unavailable')
    // An escalation, not a failed step: the issue is what a person acts on (the CLI exits 26).
    expect(r.outputs.outcome).toBe('escalated')
    expect(r.exitCode).toBe(0)
    expect(r.outputs.iterations).toBe('1')
    // The proxy retried the CLI's requests before giving up; every one reached the scripted server.
    expect(anthropic.scriptedCalls).toBeGreaterThanOrEqual(4)
    // Charged only the usage relayed: the side requests' few tokens, never the call budget.
    expect(Number(r.outputs['spend-usd'])).toBeLessThan(0.01)

    expect(gh.issues).toHaveLength(1)
    const body = gh.issues[0].body
    expect(gh.issues[0].title).toMatch(/ — provider-unavailable$/)
    const decision = body.split('\n').find((line) => line.startsWith('**Decision:**')) ?? ''
    expect(decision).toMatch(/wait/i)
    expect(decision).toMatch(/quota/i)
    expect(decision).toContain('529')
    // Not the agent's failure, and no gate ran on a tree the agent never changed.
    expect(body).not.toMatch(/agent-failure/)
    expect(body).not.toMatch(/Gate: failed/)
    expect(tipOf(bare, 'loopgate/provider')).toBeNull()
    for (const text of [r.stdout, r.stderr, body, r.summary]) {
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(MODEL_KEY)
    }
  }, 360_000)

  it('codex: the provider answering 429 every time escalates as provider-unavailable, charged nothing, nothing pushed', async () => {
    openai.setScript([], { kind: 'status', status: 429, headers: { 'retry-after-ms': '5' } })
    const { server, bare } = bareRemote()
    const r = await runAction({
      workspace: checkoutOf(bare),
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      env: {
        PATH: `${CLI_BIN_DIR}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
        OPENAI_BASE_URL: `${openai.url}/v1`,
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: `file://${server}`,
        GITHUB_REF: 'refs/heads/main'
      },
      inputs: {
        agent: 'codex',
        'openai-api-key': OPENAI_KEY,
        prompt: 'Make add() return the sum of its two arguments, and keep the tests green.',
        'gate-command': 'node test/run.mjs',
        'github-token': TOKEN,
        'max-iterations': '3',
        'call-budget-usd': '0.5',
        'spend-ceiling-usd': '2',
        'loop-id': 'provider-codex'
      },
      timeoutMs: 300_000
    })

    expect(r.outputs['stop-reason']).toBe('provider-unavailable')
    expect(r.outputs.outcome).toBe('escalated')
    expect(r.exitCode).toBe(0)
    expect(r.outputs.iterations).toBe('1')
    // The proxy retried codex's requests before giving up; each reached the scripted server.
    expect(openai.scriptedCalls).toBeGreaterThanOrEqual(2)
    expect(Number(r.outputs['spend-usd'])).toBe(0)
    expect(gh.issues).toHaveLength(1)
    const body = gh.issues[0].body
    const decision = body.split('\n').find((line) => line.startsWith('**Decision:**')) ?? ''
    expect(decision).toMatch(/wait/i)
    expect(decision).toContain('429')
    expect(body).not.toMatch(/agent-failure/)
    expect(tipOf(bare, 'loopgate/provider-codex')).toBeNull()
    for (const text of [r.stdout, r.stderr, body, r.summary]) {
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(OPENAI_KEY)
    }
  }, 360_000)
})
