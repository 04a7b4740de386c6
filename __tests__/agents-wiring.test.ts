import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { readSettings } from '../src/inputs/read-settings.js'
import { ConfigError } from '../src/errors.js'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { executeRun } from '../src/run/execute-run.js'
import { CLI_BIN_DIR } from './helpers/agent-engine.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startAnthropicServer, type AnthropicServer } from './servers/anthropic-server.js'
import { startOpenAIServer, type OpenAIServer } from './servers/openai-server.js'

// executeRun as the action runs it, here as root with no agent user: the CLIs come from PATH
// (node_modules/.bin), the API key is passed to the agent only, and Claude Code runs with
// --allowedTools because it refuses --dangerously-skip-permissions as root.

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

const BIN_PATH = `${CLI_BIN_DIR}:${process.env.PATH}`

function settingsFor(repo: string, inputs: Record<string, string>, env: NodeJS.ProcessEnv) {
  return readSettings((name) => inputs[name] ?? '', { ...env, GITHUB_WORKSPACE: repo })
}

async function execute(repo: string, inputs: Record<string, string>, env: NodeJS.ProcessEnv) {
  const lines: string[] = []
  const report = await executeRun(settingsFor(repo, inputs, env), {
    env,
    runId: `t${Date.now()}`,
    tempDir: tempDir('loopgate-wiring-'),
    publisher: new DryRunPublisher(),
    signal: new AbortController().signal,
    report: (l) => lines.push(l),
    isolation: 'weak' // as root with no agent user (the protected gate's fallback path)
  })
  const charges = readFileSync(report.ledgerFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'charge')
  return { report, lines, charges, agent: report.run!.iterations[0].agent }
}

test("agent: claude as root — allow-listed tools, the key only at loopgate's proxy, metered, verified", async () => {
  const repo = makeRepo(buggyProject())
  const file = path.join(repo, 'src/math.mjs')
  const home = tempDir('loopgate-root-home-')
  anthropic.setScript([
    { kind: 'tool', name: 'WebFetch', input: { url: 'http://127.0.0.1:9/', prompt: 'x' } },
    { kind: 'tool', name: 'Bash', input: { command: 'env > agent-env.txt' } },
    { kind: 'tool', name: 'Read', input: { file_path: file } },
    { kind: 'tool', name: 'Edit', input: { file_path: file, old_string: 'a - b', new_string: 'a + b' } },
    { kind: 'text', text: 'Fixed.' }
  ])
  const env = {
    PATH: BIN_PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: anthropic.url,
    GITHUB_TOKEN: 'ghs_should_never_reach_the_agent',
    CLAUDE_CODE_MAX_RETRIES: '1'
  }
  const r = await execute(
    repo,
    {
      agent: 'claude',
      prompt: 'Fix add().',
      'gate-command': 'node test/run.mjs',
      'anthropic-api-key': 'sk-ant-wiring-test',
      'agent-env': 'CLAUDE_CODE_MAX_RETRIES',
      'max-iterations': '1',
      'call-budget-usd': '1',
      'spend-ceiling-usd': '5'
    },
    env
  )
  expect(r.lines.join('\n')).toMatch(/claude: found on PATH \(.*\/\.bin\/claude\) in \d+\.\d s/)
  expect(r.report.stopReason).toBe('verified')
  expect(r.agent.status).toBe('claimed-done')
  expect(r.agent.permissionDenials).toEqual([expect.stringMatching(/^WebFetch /)])
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBe(r.agent.costUsd)
  expect(r.lines.join('\n')).toMatch(/Spend is metered at the wire \(Anthropic Messages via 127\.0\.0\.1:\d+\).*at most one response over/)
  const agentEnv = readFileSync(path.join(repo, 'agent-env.txt'), 'utf8')
  expect(agentEnv).not.toContain('sk-ant-wiring-test')
  expect(agentEnv).toMatch(/^ANTHROPIC_API_KEY=loopgate-call-/m)
  for (const q of anthropic.requests.filter((q) => q.url.startsWith('/v1/messages'))) expect(q.headers['x-api-key']).toBe('sk-ant-wiring-test')
  expect(agentEnv).not.toContain('ghs_should_never_reach_the_agent')
})

test('agent: codex — price-table input prices the configured model; the ledger is usage × price', async () => {
  const repo = makeRepo(buggyProject())
  const codexHome = tempDir('loopgate-codex-home-')
  writeFileSync(
    path.join(codexHome, 'config.toml'),
    `model = "house-model"\nmodel_provider = "local"\n[model_providers.local]\nname = "local"\nbase_url = "${openai.url}/v1"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\nsupports_websockets = false\nrequest_max_retries = 0\nstream_max_retries = 0\n`
  )
  const u = { input_tokens: 50_000, cached_tokens: 10_000, output_tokens: 2_000 }
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
      'openai-api-key': 'sk-wiring-test',
      'price-table': '{"house-model": {"input": 3, "cachedInput": 0.5, "output": 12}}',
      'max-iterations': '1',
      'call-budget-usd': '2',
      'spend-ceiling-usd': '5'
    },
    { PATH: BIN_PATH, HOME: tempDir('loopgate-root-home-'), CODEX_HOME: codexHome, OPENAI_BASE_URL: `${openai.url}/v1` }
  )
  expect(r.report.stopReason).toBe('verified')
  expect(r.agent.model).toBe('house-model')
  const expected = (2 * (40_000 * 3 + 10_000 * 0.5 + 2_000 * 12)) / 1e6
  expect(r.charges[0].source).toBe('metered')
  expect(Math.abs(r.charges[0].usd - expected) / expected).toBeLessThan(0.01)
})

test('a bad price-table input is a ConfigError naming the input', () => {
  const repo = makeRepo(buggyProject())
  const base = { agent: 'codex', prompt: 'x', 'gate-command': 'true' }
  for (const bad of ['not json', '[1]', '{"m": {"input": -1, "output": 2}}', '{"m": {"input": 1}}']) {
    let err: unknown
    try {
      settingsFor(repo, { ...base, 'price-table': bad }, {})
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('price-table')
  }
  expect(settingsFor(repo, { ...base, 'price-table': '{"m": {"input": 1, "output": 2}}' }, {}).priceTable).toContain('"m"')
})
