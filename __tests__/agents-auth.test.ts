import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { readSettings } from '../src/inputs/read-settings.js'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { executeRun } from '../src/run/execute-run.js'
import { ROOT } from './helpers/agent-engine.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startAnthropicServer, type AnthropicServer } from './servers/anthropic-server.js'
import { startOpenAIServer, type OpenAIServer } from './servers/openai-server.js'

// The credentials teams already have, through executeRun with the real CLIs against the scripted
// model servers (as root with no agent user: the protected gate's fallback path).

let anthropic: AnthropicServer
let openai: OpenAIServer

beforeAll(async () => {
  anthropic = await startAnthropicServer()
  openai = await startOpenAIServer()
})
afterAll(async () => {
  await anthropic.close()
  await openai.close()
})

const BIN_PATH = `${path.join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`

async function execute(repo: string, inputs: Record<string, string>, env: NodeJS.ProcessEnv) {
  const settings = readSettings((name) => inputs[name] ?? '', { ...env, GITHUB_WORKSPACE: repo })
  const report = await executeRun(settings, {
    env,
    runId: `t${Date.now()}`,
    tempDir: tempDir('loopgate-auth-'),
    publisher: new DryRunPublisher(),
    signal: new AbortController().signal,
    report: () => undefined,
    isolation: 'weak'
  })
  return { report, agent: report.run!.iterations[0].agent }
}

/** Every file loopgate wrote for the run (attempt log, ledger, progress), as one text. */
function records(report: Awaited<ReturnType<typeof execute>>['report']): string {
  return [report.logFile, report.ledgerFile, report.progressFile].map((f) => readFileSync(f, 'utf8')).join('\n')
}

/** A gate that passes when the tests do and records the environment it got. */
function gateRecordingEnv(): { command: string; file: string } {
  const dir = tempDir('loopgate-gate-env-')
  chmodSync(dir, 0o777)
  const file = path.join(dir, 'gate-env.txt')
  return { command: `env > ${file} && node test/run.mjs`, file }
}

test("claude-code-oauth-token reaches the model API as a Bearer token through loopgate's proxy, never the agent; neither the gate nor the records see it", async () => {
  const repo = makeRepo(buggyProject())
  const file = path.join(repo, 'src/math.mjs')
  const token = 'sk-ant-oat01-loopgate-test-subscription-token'
  anthropic.setScript([
    { kind: 'tool', name: 'Bash', input: { command: 'env > agent-env.txt' } },
    { kind: 'tool', name: 'Read', input: { file_path: file } },
    { kind: 'tool', name: 'Edit', input: { file_path: file, old_string: 'a - b', new_string: 'a + b' } },
    { kind: 'text', text: 'Fixed.' }
  ])
  const gate = gateRecordingEnv()
  const env = {
    PATH: BIN_PATH,
    HOME: tempDir('loopgate-root-home-'),
    ANTHROPIC_BASE_URL: anthropic.url,
    // a key on the runner is not the agent's: only the input would be
    ANTHROPIC_API_KEY: 'sk-ant-runner-key-must-not-pass',
    CLAUDE_CODE_MAX_RETRIES: '1'
  }
  const r = await execute(
    repo,
    {
      agent: 'claude',
      prompt: 'Fix add().',
      'gate-command': gate.command,
      'claude-code-oauth-token': token,
      'agent-env': 'CLAUDE_CODE_MAX_RETRIES',
      'max-iterations': '1',
      'call-budget-usd': '1',
      'spend-ceiling-usd': '5'
    },
    env
  )
  expect(r.report.stopReason).toBe('verified')
  const calls = anthropic.requests.filter((q) => q.url.startsWith('/v1/messages'))
  expect(calls.length).toBeGreaterThan(0)
  for (const call of calls) {
    expect(call.headers.authorization).toBe(`Bearer ${token}`)
    expect(call.headers['x-api-key']).toBeUndefined()
    expect(String(call.headers['anthropic-beta'])).toContain('oauth-2025-04-20')
  }
  const agentEnv = readFileSync(path.join(repo, 'agent-env.txt'), 'utf8')
  expect(agentEnv).not.toContain(token)
  expect(agentEnv).not.toContain('sk-ant-runner-key-must-not-pass')
  const gateEnv = readFileSync(gate.file, 'utf8')
  expect(gateEnv).not.toContain(token)
  expect(gateEnv).not.toContain('CLAUDE_CODE_OAUTH_TOKEN')
  expect(records(r.report)).not.toContain(token)
})

test('model: Claude Code is called with the model input', async () => {
  const repo = makeRepo(buggyProject())
  anthropic.setScript([
    { kind: 'tool', name: 'Bash', input: { command: "sed -i 's/a - b/a + b/' src/math.mjs" } },
    { kind: 'text', text: 'Fixed.' }
  ])
  const r = await execute(
    repo,
    {
      agent: 'claude',
      prompt: 'Fix add().',
      'gate-command': 'node test/run.mjs',
      'anthropic-api-key': 'sk-ant-model-test',
      model: 'claude-haiku-4-5',
      'max-iterations': '1',
      'call-budget-usd': '1',
      'spend-ceiling-usd': '5'
    },
    { PATH: BIN_PATH, HOME: tempDir('loopgate-root-home-'), ANTHROPIC_BASE_URL: anthropic.url }
  )
  expect(r.report.stopReason).toBe('verified')
  const models = anthropic.requests
    .filter((q) => q.url.startsWith('/v1/messages') && Array.isArray(q.body?.tools) && q.body.tools.length > 0)
    .map((q) => q.body.model)
  expect(models.length).toBeGreaterThan(0)
  expect(new Set(models)).toEqual(new Set(['claude-haiku-4-5']))
  expect(r.agent.model).toBe('claude-haiku-4-5')
})

function localCodexHome(): string {
  const codexHome = tempDir('loopgate-codex-home-')
  writeFileSync(
    path.join(codexHome, 'config.toml'),
    `model = "gpt-5"\nmodel_provider = "local"\n[model_providers.local]\nname = "local"\nbase_url = "${openai.url}/v1"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\nsupports_websockets = false\nrequest_max_retries = 0\nstream_max_retries = 0\n`
  )
  return codexHome
}

test('model: codex is called with the model input, and the ledger prices that model', async () => {
  const repo = makeRepo(buggyProject())
  const u = { input_tokens: 40_000, cached_tokens: 0, output_tokens: 1_000 }
  openai.setScript([
    { kind: 'exec', cmd: "sed -i 's/a - b/a + b/' src/math.mjs", usage: u },
    { kind: 'text', text: 'Done.', usage: u }
  ])
  const r = await execute(
    repo,
    {
      agent: 'codex',
      prompt: 'Fix add().',
      'gate-command': 'node test/run.mjs',
      'openai-api-key': 'sk-model-test',
      model: 'house-model-2',
      'price-table': '{"house-model-2": {"input": 3, "output": 12}, "gpt-5": {"input": 100, "output": 100}}',
      'max-iterations': '1',
      'call-budget-usd': '2',
      'spend-ceiling-usd': '5'
    },
    // the proxy's upstream is the runner's OPENAI_BASE_URL (a config.toml provider is overridden)
    { PATH: BIN_PATH, HOME: tempDir('loopgate-root-home-'), CODEX_HOME: localCodexHome(), OPENAI_BASE_URL: `${openai.url}/v1` }
  )
  expect(r.report.stopReason).toBe('verified')
  expect(new Set(openai.requests.filter((q) => q.url.startsWith('/v1/responses')).map((q) => q.body.model))).toEqual(new Set(['house-model-2']))
  expect(r.agent.model).toBe('house-model-2')
  expect(r.agent.costSource).toBe('metered')
  const expected = (2 * (40_000 * 3 + 1_000 * 12)) / 1e6
  expect(Math.abs(r.agent.costUsd - expected) / expected).toBeLessThan(0.01)
})

test('provider: azure — codex calls the Azure endpoint through the proxy, which sets the key as api-key; the agent gets neither key nor OPENAI_*', async () => {
  const repo = makeRepo(buggyProject())
  openai.setScript([
    { kind: 'exec', cmd: "sed -i 's/a - b/a + b/' src/math.mjs && env > agent-env.txt" },
    { kind: 'text', text: 'Done.' }
  ])
  const r = await execute(
    repo,
    {
      agent: 'codex',
      provider: 'azure',
      prompt: 'Fix add().',
      'gate-command': 'node test/run.mjs',
      'openai-api-key': 'azure-key-from-input',
      model: 'my-deployment',
      'price-table': '{"my-deployment": {"input": 1, "output": 1}}',
      'max-iterations': '1',
      'call-budget-usd': '2',
      'spend-ceiling-usd': '5'
    },
    {
      PATH: BIN_PATH,
      HOME: tempDir('loopgate-root-home-'),
      CODEX_HOME: localCodexHome(),
      AZURE_OPENAI_BASE_URL: `${openai.url}/v1`,
      AZURE_OPENAI_API_VERSION: '2025-04-01-preview',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/not-this-one'
    }
  )
  expect(r.report.stopReason).toBe('verified')
  const calls = openai.requests.filter((q) => q.url.startsWith('/v1/responses'))
  expect(calls.length).toBeGreaterThan(0)
  for (const call of calls) {
    expect(call.url).toBe('/v1/responses?api-version=2025-04-01-preview')
    expect(call.headers['api-key']).toBe('azure-key-from-input')
    expect(call.body.model).toBe('my-deployment')
  }
  const agentEnv = readFileSync(path.join(repo, 'agent-env.txt'), 'utf8')
  expect(agentEnv).not.toContain('azure-key-from-input')
  expect(agentEnv).toMatch(/^LOOPGATE_CALL_TOKEN=loopgate-call-/m)
  expect(agentEnv).not.toMatch(/^OPENAI_(API_KEY|BASE_URL)=/m)
})
