import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { CodexAgent } from '../src/agents/codex/adapter.js'
import { CODEX_DEFAULT_MODEL, DEFAULT_PRICES } from '../src/agents/pricing.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CODEX_BIN, processesIn, runEngine } from './helpers/agent-engine.js'
import { hasTool, needs } from './helpers/needs-tools.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startOpenAIServer, type OpenAIServer, type OpenAIStep, type ResponsesUsage } from './servers/openai-server.js'

let server: OpenAIServer
let user: AgentUser

beforeAll(async () => {
  server = await startOpenAIServer()
  if (!hasTool('second-user')) return
  user = agentUser()
  assertUserCanRun(user, CODEX_BIN)
})
afterAll(async () => {
  await server.close()
})

/** The real CLIs run as a user of their own (Claude Code refuses to skip permissions as root). */
const asUser = needs('second-user')

/** A CODEX_HOME the agent user owns, its config.toml pointing codex at the scripted server. */
function codexHome(model?: string): string {
  const home = path.join(user.home, `codex-${Math.random().toString(36).slice(2)}`)
  mkdirSync(home)
  writeFileSync(
    path.join(home, 'config.toml'),
    [
      ...(model ? [`model = "${model}"`] : []),
      'model_provider = "local"',
      '[model_providers.local]',
      'name = "local"',
      `base_url = "${server.url}/v1"`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      'supports_websockets = false',
      // bound codex's own retries so API-error tests stay fast
      'request_max_retries = 1',
      'stream_max_retries = 1',
      'stream_idle_timeout_ms = 20000',
      ''
    ].join('\n')
  )
  chownTree(home, user)
  return home
}

function env(model?: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, CODEX_HOME: codexHome(model), OPENAI_API_KEY: 'sk-test-not-a-secret' }
}

function repoForAgent(): string {
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  return repo
}

/** Usage × the table's price for the CLI's default model. */
function priced(usages: ResponsesUsage[], model = CODEX_DEFAULT_MODEL): number {
  const p = DEFAULT_PRICES[model]
  let cost = 0
  for (const u of usages) {
    const cached = u.cached_tokens ?? 0
    const written = u.cache_write_tokens ?? 0
    cost += ((u.input_tokens - cached - written) * p.input + cached * p.cachedInput + written * (p.cacheWrite ?? p.input) + u.output_tokens * p.output) / 1e6
  }
  return cost
}

async function run(script: OpenAIStep[], opts: Partial<Parameters<typeof runEngine>[0]> & { model?: string } = {}, fallback?: OpenAIStep) {
  server.setScript(script, fallback)
  const repo = opts.repo ?? repoForAgent()
  const r = await runEngine({ adapter: opts.adapter ?? new CodexAgent({ binary: CODEX_BIN }), repo, env: env(opts.model), user, ...opts })
  return { ...r, repo, agent: r.outcome.iterations[0]?.agent }
}

asUser.test('success: codex runs commands that edit real files, the gate passes, the ledger is usage × price', async () => {
  const u1 = { input_tokens: 12_000, cached_tokens: 4_000, cache_write_tokens: 6_000, output_tokens: 800, reasoning_tokens: 300 }
  const u2 = { input_tokens: 14_000, cached_tokens: 11_000, output_tokens: 600 }
  const u3 = { input_tokens: 15_000, cached_tokens: 14_000, output_tokens: 100 }
  const r = await run([
    { kind: 'exec', cmd: "sed -i 's/a - b/a + b/' src/math.mjs", usage: u1 },
    { kind: 'exec', cmd: 'printf "fixed add\\n" > NOTES.md', usage: u2 },
    { kind: 'text', text: 'Fixed add(); tests pass.', usage: u3 }
  ])
  expect(readFileSync(path.join(r.repo, 'src/math.mjs'), 'utf8')).toContain('a + b')
  expect(r.outcome.stopReason).toBe('verified')
  expect(r.agent.status).toBe('claimed-done')
  expect(r.agent.reason).toBe('turn.completed')
  expect(r.agent.exitCode).toBe(0)
  expect(r.agent.turns).toBe(2)
  expect(r.agent.model).toBe(CODEX_DEFAULT_MODEL)
  expect(server.requests[0].body.model).toBe(CODEX_DEFAULT_MODEL)
  expect(r.agent.finalText).toBe('Fixed add(); tests pass.')
  expect(r.agent.sessionId).toBeTruthy()
  expect(r.agent.tokens).toEqual(expect.objectContaining({ input: 41_000, cachedInput: 29_000, cacheWrite: 6_000, output: 1_500 }))
  const expected = priced([u1, u2, u3])
  expect(r.agent.costSource).toBe('priced')
  expect(r.charges).toHaveLength(1)
  expect(r.charges[0].source).toBe('priced')
  expect(Math.abs(r.charges[0].usd - expected) / expected).toBeLessThan(0.01)
  expect(r.outcome.iterations[0].changedFiles.sort()).toEqual(['NOTES.md', 'src/math.mjs'])
})

asUser.test('turn cap: codex has no turn flag, so loopgate kills it past max-turns + 1 actions', async () => {
  const started = Date.now()
  const r = await run([], { maxTurns: 3, callBudgetUsd: 0.5 }, { kind: 'exec', cmd: 'echo x >> turns.log' })
  expect(Date.now() - started).toBeLessThan(30_000)
  expect(r.agent.status).toBe('capped')
  expect(r.agent.turns).toBe(5)
  expect(r.agent.reason).toMatch(/^turn-cap: 5 actions counted, killed above 4 \(max-turns 3\)/)
  expect(processesIn(r.repo)).toEqual([])
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0.5, source: 'worst-case' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test('a refusal (no answer, exit 0) is a failure', async () => {
  const u = { input_tokens: 3000, cached_tokens: 0, output_tokens: 20 }
  const r = await run([{ kind: 'refusal', text: 'I cannot help with that.', usage: u }])
  expect(r.agent.exitCode).toBe(0)
  expect(r.agent.status).toBe('failed')
  expect(r.agent.reason).toMatch(/refusal/)
  expect(r.charges[0].source).toBe('priced')
  expect(r.charges[0].usd).toBeCloseTo(priced([u]), 10)
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test.each([429, 529, 500])('API %i answers (after the bounded retry): turn.failed → failed, charged the full budget', async (status) => {
  const started = Date.now()
  const r = await run([], { callBudgetUsd: 0.4 }, { kind: 'status', status })
  expect(Date.now() - started).toBeLessThan(30_000)
  expect(r.agent.status).toBe('failed')
  expect(r.agent.reason).toMatch(/^turn\.failed: /)
  expect(r.agent.exitCode).toBe(1)
  expect(server.scriptedCalls).toBeGreaterThanOrEqual(1)
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0.4, source: 'worst-case' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test('a 500 that codex retries ("Reconnecting..." error event) and then answers is a success with a warning', async () => {
  const r = await run([
    { kind: 'status', status: 500 },
    { kind: 'status', status: 500 },
    { kind: 'exec', cmd: "sed -i 's/a - b/a + b/' src/math.mjs" },
    { kind: 'text', text: 'Done.' }
  ])
  expect(r.agent.status).toBe('claimed-done')
  expect(r.agent.warnings.join('\n')).toMatch(/codex retry: Reconnecting\.\.\. 1\/1/)
  expect(r.agent.costSource).toBe('priced')
  expect(r.outcome.stopReason).toBe('verified')
})

asUser.test('the stream cut mid-call is a failure', async () => {
  const r = await run([], { callBudgetUsd: 0.3 }, { kind: 'cut' })
  expect(r.agent.status).toBe('failed')
  expect(r.agent.reason).toMatch(/^turn\.failed: stream disconnected before completion/)
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0.3, source: 'worst-case' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test('a call killed by the per-call timeout: failed, charged the full call budget', async () => {
  const started = Date.now()
  const r = await run([{ kind: 'slow', delayMs: 60_000 }], { callTimeoutMs: 3000, callBudgetUsd: 0.75 })
  expect(Date.now() - started).toBeLessThan(30_000)
  expect(r.agent.status).toBe('failed')
  expect(r.agent.timedOut).toBe(true)
  expect(r.agent.reason).toBe('timeout after 3 s')
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0.75, source: 'worst-case' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
  expect(processesIn(r.repo)).toEqual([])
})

asUser.test('turn.failed with exit status 0 is still a failure', async () => {
  // codex 0.171 exits 1 after turn.failed; older builds and wrappers have exited 0. The real binary
  // runs here behind a wrapper that swallows its exit status.
  const dir = tempDir('loopgate-codex0-')
  const wrapper = path.join(dir, 'codex')
  writeFileSync(wrapper, `#!/bin/sh\n"${CODEX_BIN}" "$@"\nexit 0\n`)
  chmodSync(wrapper, 0o755)
  chmodSync(dir, 0o755)
  const r = await run([], { adapter: new CodexAgent({ binary: wrapper }), callBudgetUsd: 0.2 }, { kind: 'failed', message: 'model exploded' })
  expect(r.agent.exitCode).toBe(0)
  expect(r.agent.status).toBe('failed')
  expect(r.agent.reason).toBe('turn.failed: stream disconnected before completion: model exploded')
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0.2, source: 'worst-case' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test('an unknown model is charged the full call budget with a warning; a price-table override prices it', async () => {
  const u = { input_tokens: 2000, cached_tokens: 500, output_tokens: 100 }
  const unknown = await run(
    [
      { kind: 'exec', cmd: "sed -i 's/a - b/a + b/' src/math.mjs", usage: u },
      { kind: 'text', text: 'Done.', usage: u }
    ],
    {
      adapter: new CodexAgent({ binary: CODEX_BIN, args: ['--model', 'mystery-model'] }),
      callBudgetUsd: 0.9
    }
  )
  expect(server.requests[0].body.model).toBe('mystery-model')
  expect(unknown.agent.status).toBe('claimed-done')
  expect(unknown.agent.model).toBe('mystery-model')
  expect(unknown.charges[0]).toEqual(expect.objectContaining({ usd: 0.9, source: 'worst-case' }))
  expect(unknown.agent.warnings.join('\n')).toMatch(/no price for model 'mystery-model'.*price-table/)
  expect(unknown.outcome.stopReason).toBe('verified')

  const prices = { 'mystery-model': { input: 3, cachedInput: 0.3, output: 15 } }
  const known = await run([{ kind: 'text', text: 'Nothing to do.', usage: u }], {
    adapter: new CodexAgent({ binary: CODEX_BIN, args: ['-m', 'mystery-model'], prices }),
    callBudgetUsd: 0.9
  })
  const expected = (1500 * 3 + 500 * 0.3 + 100 * 15) / 1e6
  expect(known.charges[0].source).toBe('priced')
  expect(Math.abs(known.charges[0].usd - expected) / expected).toBeLessThan(0.01)
})
