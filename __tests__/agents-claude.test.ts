import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ClaudeAgent } from '../src/agents/claude/adapter.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, lastResultLine, processesIn, runEngine } from './helpers/agent-engine.js'
import { hasTool, needs } from './helpers/needs-tools.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './servers/anthropic-server.js'

// claude-opus-5-5 (the CLI's default model) is priced by the CLI at $4 / $20 per million tokens.
const usd = (input: number, output: number): number => (input * 4 + output * 20) / 1_000_000

let server: AnthropicServer
let user: AgentUser

beforeAll(async () => {
  server = await startAnthropicServer()
  if (!hasTool('second-user')) return
  user = agentUser()
  assertUserCanRun(user, CLAUDE_BIN)
})
afterAll(async () => {
  await server.close()
})

/** The real CLIs run as a user of their own (Claude Code refuses to skip permissions as root). */
const asUser = needs('second-user')

function agentEnvFor(): NodeJS.ProcessEnv {
  const tmp = path.join(user.home, 'tmp')
  mkdirSync(tmp, { recursive: true })
  chownTree(tmp, user)
  return {
    PATH: process.env.PATH,
    TMPDIR: tmp,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-test-not-a-secret',
    // bound the CLI's own retries so API-error tests stay fast
    CLAUDE_CODE_MAX_RETRIES: '1',
    CLAUDE_CODE_OVERLOADED_RETRY_MAX_WAIT_MS: '1000',
    CLAUDE_CODE_DISABLE_REFUSAL_RETRY: '1'
  }
}

function repoForAgent(): string {
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  return repo
}

const adapter = new ClaudeAgent({ binary: CLAUDE_BIN })

async function run(script: AnthropicStep[], opts: Partial<Parameters<typeof runEngine>[0]> = {}, fallback?: AnthropicStep) {
  server.setScript(script, fallback)
  const repo = opts.repo ?? repoForAgent()
  const r = await runEngine({ adapter, repo, env: agentEnvFor(), user, ...opts })
  return { ...r, repo, agent: r.outcome.iterations[0]?.agent }
}

asUser.test('success: Bash, Read, Edit and Write change real files, the gate passes, the ledger holds total_cost_usd', async () => {
  const repo = repoForAgent()
  const file = path.join(repo, 'src/math.mjs')
  const u = { input_tokens: 1000, output_tokens: 50 }
  const r = await run(
    [
      { kind: 'tool', name: 'Bash', input: { command: 'node --version > .node-version-seen' }, usage: u },
      { kind: 'tool', name: 'Read', input: { file_path: file }, usage: u },
      { kind: 'tool', name: 'Edit', input: { file_path: file, old_string: 'a - b', new_string: 'a + b' }, usage: u },
      { kind: 'tool', name: 'Write', input: { file_path: path.join(repo, 'NOTES.md'), content: 'fixed add\n' }, usage: u },
      { kind: 'text', text: 'Fixed add(); the tests pass.', usage: u }
    ],
    { repo }
  )
  expect(readFileSync(file, 'utf8')).toContain('a + b')
  expect(readFileSync(path.join(repo, 'NOTES.md'), 'utf8')).toBe('fixed add\n')
  expect(r.outcome.stopReason).toBe('verified')
  expect(r.agent.status).toBe('claimed-done')
  expect(r.agent.reason).toBe('success')
  expect(r.agent.exitCode).toBe(0)
  expect(r.agent.turns).toBe(5)
  expect(r.agent.reportedTurns).toBe(5)
  expect(r.agent.finalText).toBe('Fixed add(); the tests pass.')
  expect(r.agent.sessionId).toMatch(/[0-9a-f-]{36}/)
  expect(r.agent.permissionDenials).toEqual([])
  expect(r.agent.tokens).toEqual({ input: 5000, cachedInput: 0, output: 250 })
  const result = lastResultLine(r.agent.outputTail)
  expect(result?.total_cost_usd).toBeCloseTo(usd(5000, 250), 10)
  expect(r.agent.costSource).toBe('reported')
  expect(r.charges).toEqual([expect.objectContaining({ iteration: 1, usd: result?.total_cost_usd, source: 'reported' })])
  expect(r.outcome.spentUsd).toBe(result?.total_cost_usd)
  expect(r.outcome.iterations[0].changedFiles.sort()).toEqual(['.node-version-seen', 'NOTES.md', 'src/math.mjs'])
  // the prompt went in on stdin, never --resume/--continue
  expect(server.requests.filter((q) => q.body?.tools).length).toBe(5)
})

asUser.test('turn cap hit: the CLI stops at --max-turns with error_max_turns → capped, charged what it reported', async () => {
  const step: AnthropicStep = { kind: 'tool', name: 'Bash', input: { command: 'echo x >> turns.log' }, usage: { input_tokens: 500, output_tokens: 10 } }
  const r = await run([], { maxTurns: 3 }, step)
  expect(r.agent.status).toBe('capped')
  expect(r.agent.reason).toBe('error_max_turns')
  expect(r.agent.exitCode).toBe(1)
  expect(r.agent.turns).toBe(3)
  expect(r.agent.reportedTurns).toBe(4)
  const result = lastResultLine(r.agent.outputTail)
  expect(r.charges[0].usd).toBe(result?.total_cost_usd)
  expect(r.charges[0].usd).toBeCloseTo(usd(1500, 30), 10)
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test('budget cap hit: error_max_budget_usd → capped; the ledger takes the reported cost and the ceiling stops the run', async () => {
  const step: AnthropicStep = { kind: 'tool', name: 'Bash', input: { command: 'echo x >> spend.log' }, usage: { input_tokens: 100_000, output_tokens: 100 } }
  const r = await run([], { maxTurns: 10, callBudgetUsd: 0.6, spendCeilingUsd: 1, agentFailureLimit: 3, maxIterations: 5 }, step)
  expect(r.agent.status).toBe('capped')
  expect(r.agent.reason).toBe('error_max_budget_usd')
  const result = lastResultLine(r.agent.outputTail)
  expect(result?.terminal_reason).toBe('budget_exhausted')
  expect(r.charges[0].usd).toBe(result?.total_cost_usd)
  expect(r.charges[0].usd).toBeCloseTo(usd(200_000, 200), 10)
  expect(r.outcome.iterations).toHaveLength(1)
  expect(r.outcome.stopReason).toBe('spend-ceiling')
})

asUser.test('a refusal (stop_reason refusal) is a failure, not a claim of done', async () => {
  const r = await run([{ kind: 'text', text: 'I cannot help with that.', stopReason: 'refusal', usage: { input_tokens: 200, output_tokens: 10 } }])
  expect(r.agent.status).toBe('failed')
  expect(r.agent.reason).toBe('refusal')
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: usd(200, 10), source: 'reported' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test.each([429, 529, 500])('API %i answers (after the bounded retry) are a failure with is_error', async (status) => {
  const started = Date.now()
  const r = await run([], {}, { kind: 'status', status })
  expect(Date.now() - started).toBeLessThan(30_000)
  expect(r.agent.status).toBe('failed')
  expect(r.agent.reason).toBe(`is_error: api-error ${status}`)
  expect(r.agent.warnings.some((w) => w.startsWith('API retry 1/1'))).toBe(true)
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0, source: 'reported' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test('a retried 529 that then succeeds is a success with a warning', async () => {
  const repo = repoForAgent()
  const file = path.join(repo, 'src/math.mjs')
  const r = await run(
    [
      { kind: 'status', status: 529 },
      { kind: 'tool', name: 'Bash', input: { command: "sed -i 's/a - b/a + b/' src/math.mjs" } },
      { kind: 'text', text: 'Done.' }
    ],
    { repo }
  )
  expect(readFileSync(file, 'utf8')).toContain('a + b')
  expect(r.agent.status).toBe('claimed-done')
  expect(r.agent.warnings.join('\n')).toMatch(/API retry 1\/1: 529/)
  expect(r.outcome.stopReason).toBe('verified')
})

asUser.test('the stream cut mid-call is a failure (connection lost)', async () => {
  const r = await run([], {}, { kind: 'cut' })
  expect(r.agent.status).toBe('failed')
  expect(r.agent.reason).toMatch(/^is_error: api-error connection_failed/)
  expect(r.charges[0].source).toBe('reported')
  expect(r.outcome.stopReason).toBe('agent-failure')
})

asUser.test('a call killed by the per-call timeout: failed, no result message, charged the full call budget', async () => {
  const started = Date.now()
  const r = await run([{ kind: 'slow', delayMs: 60_000 }], { callTimeoutMs: 4000, callBudgetUsd: 0.75 })
  expect(Date.now() - started).toBeLessThan(30_000)
  expect(r.agent.status).toBe('failed')
  expect(r.agent.timedOut).toBe(true)
  expect(r.agent.reason).toBe('timeout after 4 s')
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0.75, source: 'worst-case' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
  expect(processesIn(r.repo)).toEqual([])
})

asUser.test('cancellation kills the call: failed (cancelled), charged the full budget, stop reason cancelled', async () => {
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), 3000)
  const r = await run([{ kind: 'slow', delayMs: 60_000 }], { callBudgetUsd: 0.4, signal: abort.signal })
  clearTimeout(timer)
  expect(r.agent.status).toBe('failed')
  expect(r.agent.reason).toBe('cancelled')
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0.4, source: 'worst-case' }))
  expect(r.outcome.stopReason).toBe('cancelled')
  expect(processesIn(r.repo)).toEqual([])
})

asUser.test('a CLI whose turn cap leaks is killed by loopgate past max-turns + 1', async () => {
  // A stand-in for the real binary that ignores --max-turns (claude-code-action#1577) and keeps going.
  const dir = tempDir('loopgate-leaky-')
  const fake = path.join(dir, 'claude')
  writeFileSync(
    fake,
    [
      '#!/usr/bin/env node',
      'let n = 0',
      "process.stdout.write(JSON.stringify({ type: 'system', subtype: 'init', model: 'leaky', session_id: 's' }) + '\\n')",
      'setInterval(() => {',
      '  n++',
      "  process.stdout.write(JSON.stringify({ type: 'assistant', parent_tool_use_id: null, message: { id: 'msg_' + n, content: [{ type: 'text', text: 'turn ' + n }] } }) + '\\n')",
      '}, 20)',
      ''
    ].join('\n')
  )
  chmodSync(fake, 0o755)
  chmodSync(dir, 0o755)
  server.setScript([])
  const repo = repoForAgent()
  const started = Date.now()
  const r = await runEngine({ adapter: new ClaudeAgent({ binary: fake }), repo, env: agentEnvFor(), user, maxTurns: 5, callBudgetUsd: 0.5 })
  const agent = r.outcome.iterations[0].agent
  expect(Date.now() - started).toBeLessThan(20_000)
  expect(agent.status).toBe('capped')
  expect(agent.turns).toBe(7)
  expect(agent.reason).toMatch(/^turn-cap: 7 turns counted, killed above 6/)
  expect(agent.signal).toBe('SIGTERM')
  expect(r.charges[0]).toEqual(expect.objectContaining({ usd: 0.5, source: 'worst-case' }))
  expect(r.outcome.stopReason).toBe('agent-failure')
  expect(existsSync(path.join(repo, 'turns.log'))).toBe(false)
  expect(processesIn(repo)).toEqual([])
})
