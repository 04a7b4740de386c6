import fc from 'fast-check'
import { classifyClaude, claudeArgs, permissionArgs, readClaudeLine, type ClaudeStreamState } from '../src/agents/claude/adapter.js'
import { classifyCodex, codexArgs, modelFromConfigToml, newCodexState, readCodexLine, resolveCodexModel } from '../src/agents/codex/adapter.js'
import { costOf, DEFAULT_PRICES, parsePriceTable, priceFor } from '../src/agents/pricing.js'
import { modelFromArgs } from '../src/agents/json-fields.js'
import type { AgentCall } from '../src/agents/agent-call.js'
import { TurnWatchdog } from '../src/agents/watchdog.js'

const call = { callBudgetUsd: 2, maxTurns: 3, timeoutMs: 10_000 }
const run = (over: Partial<{ exitCode: number | null; signal: string | null; timedOut: boolean; aborted: boolean }> = {}) => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 5,
  stdout: '',
  stderr: '',
  ...over
})

function claude(lines: unknown[], r = run()) {
  const state: ClaudeStreamState = { lastText: '', warnings: [] }
  const wd = new TurnWatchdog(call.maxTurns)
  for (const l of lines) readClaudeLine(JSON.stringify(l), state, wd)
  return classifyClaude({ call, run: r, state, watchdog: wd })
}

const result = (over: Record<string, unknown>) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  num_turns: 1,
  total_cost_usd: 0.25,
  stop_reason: 'end_turn',
  terminal_reason: 'completed',
  permission_denials: [],
  session_id: 's1',
  result: 'ok',
  usage: { input_tokens: 10, cache_read_input_tokens: 5, cache_creation_input_tokens: 1, output_tokens: 3 },
  ...over
})

describe('Claude classification', () => {
  test('success is claimed-done with the reported cost', () => {
    const r = claude([{ type: 'system', subtype: 'init', model: 'm', session_id: 's1' }, result({})])
    expect(r).toEqual(
      expect.objectContaining({ status: 'claimed-done', reason: 'success', costUsd: 0.25, costSource: 'reported', model: 'm', sessionId: 's1' })
    )
    expect(r.tokens).toEqual({ input: 16, cachedInput: 5, output: 3 })
  })
  test.each([
    [{ subtype: 'error_max_turns', is_error: true }, 1, 'capped', 'error_max_turns'],
    [{ subtype: 'error_max_budget_usd', is_error: true }, 1, 'capped', 'error_max_budget_usd'],
    [{ subtype: 'error_during_execution', is_error: true }, 1, 'failed', 'error_during_execution'],
    [{ stop_reason: 'refusal', is_error: false }, 0, 'failed', 'refusal'],
    [{ is_error: true, api_error_status: 429 }, 1, 'failed', 'is_error: api-error 429'],
    [{ is_error: true, terminal_reason: 'api_error' }, 0, 'failed', 'is_error: api_error'],
    [{}, 1, 'failed', 'exit code 1']
  ])('%j with exit %i → %s (%s)', (over, exitCode, status, reason) => {
    const r = claude([result(over)], run({ exitCode }))
    expect(r.status).toBe(status)
    expect(r.reason).toBe(reason)
    expect(r.costSource).toBe('reported')
  })
  test('no result message (crash) → failed, charged the full budget', () => {
    const r = claude(
      [{ type: 'assistant', parent_tool_use_id: null, message: { id: 'a', content: [{ type: 'text', text: 'hm' }] } }],
      run({ exitCode: null, signal: 'SIGSEGV' })
    )
    expect(r).toEqual(
      expect.objectContaining({ status: 'failed', costUsd: 2, costSource: 'worst-case', finalText: 'hm', reason: 'no result message (killed by SIGSEGV)' })
    )
    expect(r.warnings.join()).toMatch(/no cost reported/)
  })
  test('a result without total_cost_usd is charged the full budget', () => {
    const r = claude([result({ total_cost_usd: undefined })])
    expect(r.costSource).toBe('worst-case')
    expect(r.costUsd).toBe(2)
  })
  test('timeout → failed; permission denials are listed', () => {
    expect(claude([], run({ timedOut: true, exitCode: null, signal: 'SIGTERM' })).reason).toBe('timeout after 10 s')
    const r = claude([result({ permission_denials: [{ tool_name: 'WebFetch', tool_input: { url: 'u' } }] })])
    expect(r.permissionDenials).toEqual(['WebFetch {"url":"u"}'])
  })
  test('turns: assistant messages of the main loop, one per message id; sub-agent turns not counted', () => {
    const a = (id: string, parent: string | null = null) => ({ type: 'assistant', parent_tool_use_id: parent, message: { id, content: [] } })
    const r = claude([a('1'), a('1'), a('2'), a('x', 'toolu_1'), result({ num_turns: 2 })])
    expect(r.turns).toBe(2)
    expect(r.reportedTurns).toBe(2)
  })
  test('permission flags follow the uid: root gets an allow-list, a user skips prompts', () => {
    expect(permissionArgs(0)).toEqual(expect.arrayContaining(['--allowedTools', 'Bash(*)', 'Edit', 'Write']))
    expect(permissionArgs(0)).not.toContain('--dangerously-skip-permissions')
    expect(permissionArgs(1001)).toEqual(['--dangerously-skip-permissions'])
    const args = claudeArgs({ maxTurns: 7, callBudgetUsd: 1.5, user: { uid: 1001, gid: 1001, name: 'u', home: '/h' } } as AgentCall, ['--model', 'x'])
    expect(args).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--max-turns',
      '7',
      '--max-budget-usd',
      '1.5',
      '--dangerously-skip-permissions',
      '--model',
      'x'
    ])
    expect(args).not.toContain('--resume')
    expect(args).not.toContain('--continue')
  })
})

function codex(lines: unknown[], r = run(), model = 'gpt-5', table = DEFAULT_PRICES) {
  const state = newCodexState()
  const wd = new TurnWatchdog(call.maxTurns)
  for (const l of lines) readCodexLine(JSON.stringify(l), state, wd)
  return classifyCodex({ call, run: r, state, watchdog: wd, model, prices: table })
}
const completed = {
  type: 'turn.completed',
  usage: { input_tokens: 1_000_000, cached_input_tokens: 400_000, output_tokens: 100_000, reasoning_output_tokens: 50_000 }
}
const message = { type: 'item.completed', item: { id: 'i9', type: 'agent_message', text: 'done' } }

describe('Codex classification', () => {
  test('turn.completed with an answer → claimed-done, priced from usage', () => {
    const r = codex([
      { type: 'thread.started', thread_id: 't' },
      { type: 'item.completed', item: { id: 'w', type: 'error', message: 'metadata warning' } },
      message,
      completed
    ])
    expect(r.status).toBe('claimed-done')
    expect(r.costSource).toBe('priced')
    expect(r.costUsd).toBeCloseTo((600_000 * 1.25 + 400_000 * 0.125 + 100_000 * 10) / 1e6, 10)
    expect(r.warnings).toContain('metadata warning')
    expect(r.sessionId).toBe('t')
  })
  test.each([
    [[{ type: 'turn.failed', error: { message: 'boom' } }], 0, 'turn.failed: boom'],
    [[{ type: 'error', message: 'bad' }, message, completed], 0, 'error: bad'],
    [[message, completed], 1, 'exit code 1'],
    [[completed], 0, 'no agent message (refusal or empty answer)'],
    [[message], 0, 'no turn.completed event']
  ])('%j exit %i → failed (%s)', (lines, exitCode, reason) => {
    const r = codex(lines, run({ exitCode }))
    expect(r.status).toBe('failed')
    expect(r.reason).toBe(reason)
  })
  test('a "Reconnecting..." error event is a retry notice, not a failure', () => {
    const r = codex([{ type: 'error', message: 'Reconnecting... 1/5 (stream disconnected)' }, message, completed])
    expect(r.status).toBe('claimed-done')
    expect(r.warnings.join()).toMatch(/codex retry/)
  })
  test('no usage, or an unknown model → the full call budget with a warning', () => {
    expect(codex([{ type: 'turn.failed', error: { message: 'x' } }])).toEqual(expect.objectContaining({ costUsd: 2, costSource: 'worst-case' }))
    const r = codex([message, completed], run(), 'who-knows')
    expect(r).toEqual(expect.objectContaining({ status: 'claimed-done', costUsd: 2, costSource: 'worst-case' }))
    expect(r.warnings.join()).toMatch(/no price for model 'who-knows'/)
  })
  test('actions are turns (one per item id); messages and reasoning are not; the watchdog trips past max + 1', () => {
    const state = newCodexState()
    const wd = new TurnWatchdog(3)
    const action = (id: string, type = 'command_execution') => [
      JSON.stringify({ type: 'item.started', item: { id, type } }),
      JSON.stringify({ type: 'item.completed', item: { id, type } })
    ]
    for (const l of [
      ...action('a'),
      ...action('r', 'reasoning'),
      ...action('b', 'file_change'),
      ...action('m', 'agent_message'),
      ...action('c'),
      ...action('d')
    ]) {
      readCodexLine(l, state, wd)
    }
    expect(wd.turns).toBe(4)
    expect(wd.shouldKill()).toBe(false)
    readCodexLine(action('e')[0], state, wd)
    expect(wd.shouldKill()).toBe(true)
    const r = classifyCodex({ call, run: run({ exitCode: null, signal: 'SIGTERM' }), state, watchdog: wd, model: 'gpt-5', prices: DEFAULT_PRICES })
    expect(r.status).toBe('capped')
    expect(r.costSource).toBe('worst-case')
  })
  test('args: exec --json, workspace-write sandbox, prompt on stdin', () => {
    expect(codexArgs(['-m', 'x'])).toEqual(['exec', '--json', '--sandbox', 'workspace-write', '--skip-git-repo-check', '-m', 'x', '-'])
  })
  test('model resolution: agent-args, then config.toml, then the CLI default', () => {
    expect(modelFromArgs(['--model=a'])).toBe('a')
    expect(modelFromArgs(['-m', 'b'])).toBe('b')
    expect(resolveCodexModel(['-c', 'model="c"'], {})).toBe('c')
    expect(modelFromConfigToml('# x\nmodel = "d"\n[t]\nmodel = "e"\n')).toBe('d')
    expect(modelFromConfigToml('[t]\nmodel = "e"\n')).toBeUndefined()
    expect(resolveCodexModel([], { CODEX_HOME: '/nonexistent' })).toBe('gpt-6.2-sol')
  })
})

describe('pricing', () => {
  test('lookup by exact name, provider prefix or date suffix', () => {
    expect(priceFor('openai/gpt-5', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-5'])
    expect(priceFor('gpt-5-2026-01-01', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-5'])
    expect(priceFor('toString', DEFAULT_PRICES)).toBeUndefined()
  })
  test('cache writes are priced at their own rate, inside the input count', () => {
    const p = DEFAULT_PRICES['gpt-6.2-sol']
    expect(costOf({ input: 1_000_000, cachedInput: 200_000, cacheWrite: 300_000, output: 0 }, p)).toBeCloseTo(0.5 * 2 + 0.2 * 0.1 + 0.3 * 2.5, 10)
    expect(costOf({ input: 100, cachedInput: 0, cacheWrite: 1_000, output: 0 }, { input: 1, cachedInput: 1, output: 1 })).toBeCloseTo(100 / 1e6, 12)
  })
  test('cost is linear in usage and never negative; cached tokens never cost more than uncached', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(10_000_000), fc.nat(10_000_000), (input, cached, output) => {
        const p = DEFAULT_PRICES['gpt-6.2-sol']
        const c = costOf({ input, cachedInput: cached, output }, p)
        expect(c).toBeGreaterThanOrEqual(0)
        expect(c).toBeLessThanOrEqual((input * p.input + output * p.output) / 1e6 + 1e-9)
      })
    )
  })
  test('price-table override parsing', () => {
    expect(parsePriceTable('{"m": {"input": 1, "output": 2}}')).toEqual({ m: { input: 1, cachedInput: 1, cacheWrite: 1, output: 2 } })
    expect(parsePriceTable('{"m": {"input": 1, "cachedInput": 0.1, "cacheWrite": 1.25, "output": 2}}')).toEqual({
      m: { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 2 }
    })
    for (const bad of ['', 'null', '[]', '{"m": 1}', '{"m": {"input": "1", "output": 2}}', '{"m": {"input": 1, "output": -2}}']) {
      expect(typeof parsePriceTable(bad)).toBe('string')
    }
  })
})
