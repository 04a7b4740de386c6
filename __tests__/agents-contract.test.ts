import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { CLAUDE_RESULT_FIELDS, ClaudeAgent } from '../src/agents/claude/adapter.js'
import { CODEX_EVENT_FIELDS, CodexAgent } from '../src/agents/codex/adapter.js'
import { agentSpec } from '../src/agents/agent-registry.js'
import { CODEX_DEFAULT_MODEL, DEFAULT_PRICES } from '../src/agents/pricing.js'
import { parseJsonLine } from '../src/agents/json-fields.js'
import type { AgentCall } from '../src/agents/agent-call.js'
import { agentUser, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, CODEX_BIN, ROOT } from './helpers/agent-engine.js'
import { makeRepo, tempDir } from './helpers/repo.js'
import { hasTool, needs } from './helpers/needs-tools.js'
import { startAnthropicServer, type AnthropicServer } from './servers/anthropic-server.js'
import { startOpenAIServer, type OpenAIServer } from './servers/openai-server.js'

// The installed CLIs' output shapes, checked field by field: when an upgrade drops or renames a
// field the adapters read, this suite fails and names it.

let anthropic: AnthropicServer
let openai: OpenAIServer
let user: AgentUser

beforeAll(async () => {
  anthropic = await startAnthropicServer()
  openai = await startOpenAIServer()
  if (!hasTool('second-user')) return
  user = agentUser()
})
afterAll(async () => {
  await anthropic.close()
  await openai.close()
})

function get(obj: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj)
}

/** Fails with a message naming every missing field. */
function expectFields(what: string, obj: Record<string, unknown> | undefined, fields: readonly string[]): void {
  if (!obj) throw new Error(`CONTRACT BROKEN: ${what} is missing from the stream`)
  const missing = fields.filter((f) => get(obj, f) === undefined)
  if (missing.length > 0) {
    throw new Error(`CONTRACT BROKEN: ${what} lost field(s) loopgate reads: ${missing.join(', ')}\n${JSON.stringify(obj).slice(0, 2000)}`)
  }
}

function events(outputTail: string): Record<string, unknown>[] {
  return outputTail
    .split('\n')
    .map(parseJsonLine)
    .filter((e): e is Record<string, unknown> => e !== undefined)
}

function call(repo: string, env: NodeJS.ProcessEnv, maxTurns = 5): AgentCall {
  return { iteration: 1, prompt: 'Say done.', cwd: repo, timeoutMs: 60_000, maxTurns, callBudgetUsd: 1, env, callDir: tempDir('loopgate-call-'), user }
}

function repo(): string {
  const dir = makeRepo({ 'README.md': 'contract\n' })
  chownTree(dir, user)
  return dir
}

test('the installed CLIs are the pinned versions', () => {
  const version = (pkg: string): string =>
    (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version
  for (const cli of [agentSpec('claude').cli!, agentSpec('codex').cli!]) expect(version(cli.package)).toBe(cli.version)
})

needs('second-user').describe('Claude Code stream-json', () => {
  const env = (): NodeJS.ProcessEnv => {
    const tmp = path.join(user.home, 'tmp')
    mkdirSync(tmp, { recursive: true })
    chownTree(tmp, user)
    return { PATH: process.env.PATH, TMPDIR: tmp, ANTHROPIC_BASE_URL: anthropic.url, ANTHROPIC_API_KEY: 'sk-ant-contract', CLAUDE_CODE_MAX_RETRIES: '1' }
  }

  test('success: init, assistant and result messages carry every field we read', async () => {
    anthropic.setScript([
      { kind: 'tool', name: 'Bash', input: { command: 'true' } },
      { kind: 'text', text: 'done' }
    ])
    const r = await new ClaudeAgent({ binary: CLAUDE_BIN }).run(call(repo(), env()))
    const all = events(r.outputTail)
    const result = all.find((e) => e.type === 'result')
    expectFields('the result message', result, CLAUDE_RESULT_FIELDS)
    expect(typeof result?.total_cost_usd).toBe('number')
    expect(typeof result?.num_turns).toBe('number')
    expect(typeof result?.is_error).toBe('boolean')
    expect(Array.isArray(result?.permission_denials)).toBe(true)
    expect(result?.subtype).toBe('success')
    expect(result?.terminal_reason).toBe('completed')
    const assistant = all.find((e) => e.type === 'assistant')
    expectFields('an assistant message', assistant, ['message.id', 'message.content', 'session_id'])
    expect('parent_tool_use_id' in (assistant ?? {})).toBe(true)
    expect(r.status).toBe('claimed-done')
  })

  test('error_max_turns, is_error and terminal_reason keep their names and values', async () => {
    anthropic.setScript([], { kind: 'tool', name: 'Bash', input: { command: 'true' } })
    const r = await new ClaudeAgent({ binary: CLAUDE_BIN }).run(call(repo(), env(), 2))
    const result = events(r.outputTail).find((e) => e.type === 'result')
    expectFields('the error_max_turns result', result, [...CLAUDE_RESULT_FIELDS, 'errors'])
    expect(result?.subtype).toBe('error_max_turns')
    expect(result?.is_error).toBe(true)
    expect(result?.terminal_reason).toBe('max_turns')
  })

  test('API errors: is_error with api_error_status, and api_retry system messages', async () => {
    anthropic.setScript([], { kind: 'status', status: 529 })
    const r = await new ClaudeAgent({ binary: CLAUDE_BIN }).run(call(repo(), env()))
    const all = events(r.outputTail)
    expectFields(
      'an api_retry message',
      all.find((e) => e.type === 'system' && e.subtype === 'api_retry'),
      ['attempt', 'max_retries', 'error_status']
    )
    const result = all.find((e) => e.type === 'result')
    expectFields('the API-error result', result, [...CLAUDE_RESULT_FIELDS, 'api_error_status'])
    expect(result?.is_error).toBe(true)
    expect(result?.api_error_status).toBe(529)
  })
})

needs('second-user').describe('codex exec --json', () => {
  function env(model?: string): NodeJS.ProcessEnv {
    const home = path.join(user.home, `codex-${Math.random().toString(36).slice(2)}`)
    mkdirSync(home)
    writeFileSync(
      path.join(home, 'config.toml'),
      `${model ? `model = "${model}"\n` : ''}model_provider = "local"\n[model_providers.local]\nname = "local"\nbase_url = "${openai.url}/v1"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\nsupports_websockets = false\nrequest_max_retries = 0\nstream_max_retries = 0\n`
    )
    chownTree(home, user)
    return { PATH: process.env.PATH, CODEX_HOME: home, OPENAI_API_KEY: 'sk-contract' }
  }

  test('thread.started, item.*, turn.completed carry every field we read; the default model is priced', async () => {
    openai.setScript([
      { kind: 'exec', cmd: 'true' },
      { kind: 'text', text: 'done' }
    ])
    const r = await new CodexAgent({ binary: CODEX_BIN }).run(call(repo(), env()))
    const all = events(r.outputTail)
    for (const type of ['thread.started', 'turn.completed', 'item.completed'] as const) {
      expectFields(
        `the ${type} event`,
        all.find((e) => e.type === type),
        CODEX_EVENT_FIELDS[type]
      )
    }
    expectFields(
      'a command_execution item',
      all.find((e) => e.type === 'item.started'),
      ['item.id', 'item.type']
    )
    expect(all.some((e) => e.type === 'item.completed' && get(e, 'item.type') === 'command_execution')).toBe(true)
    expect(all.some((e) => e.type === 'item.completed' && get(e, 'item.type') === 'agent_message')).toBe(true)
    // the CLI's default model is what the price table prices
    expect(openai.requests[0].body.model).toBe(CODEX_DEFAULT_MODEL)
    expect(DEFAULT_PRICES[CODEX_DEFAULT_MODEL]).toBeDefined()
    expect(r.costSource).toBe('priced')
  })

  test('turn.failed and error events carry their messages', async () => {
    openai.setScript([], { kind: 'failed', message: 'contract failure' })
    const r = await new CodexAgent({ binary: CODEX_BIN }).run(call(repo(), env('gpt-5')))
    const all = events(r.outputTail)
    expectFields(
      'the turn.failed event',
      all.find((e) => e.type === 'turn.failed'),
      CODEX_EVENT_FIELDS['turn.failed']
    )
    expectFields(
      'the error event',
      all.find((e) => e.type === 'error'),
      CODEX_EVENT_FIELDS.error
    )
    expect(r.status).toBe('failed')
  })
})
