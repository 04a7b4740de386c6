import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { DEFAULT_PRICES } from '../src/agents/pricing.js'
import { bareRemote, checkoutOf } from './helpers/bare-remote.js'
import { DIST_INDEX, runAction, type ActionRun } from './helpers/action-runner.js'
import { CLI_BIN_DIR, CLAUDE_BIN, CODEX_BIN } from './helpers/agent-engine.js'
import { assertUserCanRun, agentUser } from './helpers/agent-user.js'
import { attackLines, FORGED_QUOTA_SENTENCE, wireAttackCommand, type WireAttack } from './helpers/wire-attacks.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { startAnthropicServer, type AnthropicServer } from './servers/anthropic-server.js'
import { startOpenAIServer, type OpenAIServer } from './servers/openai-server.js'

/**
 * A command the model runs attacks loopgate's metering proxy, through the bundled action as the
 * runner starts it: the real `claude` and `codex` CLIs behind the proxy, the scripted model
 * servers, the local GitHub server and a bare remote. Each CLI's run of an attack is shared by the
 * tests that check what it did.
 */

const TOKEN = 'ghs_meterAttacksE2eToken00000000000000001'
const KEYS = { claude: 'sk-ant-meter-attacks-key-held-by-loopgate', codex: 'sk-openai-meter-attacks-key-held-by-loopgate' }
const CEILING_USD = 3

type Cli = 'claude' | 'codex'
interface Usage {
  input: number
  cached?: number
  output: number
}

let gh: GitHubServer
let anthropic: AnthropicServer
let openai: OpenAIServer

beforeAll(async () => {
  if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
  assertUserCanRun(agentUser(), CLAUDE_BIN)
  assertUserCanRun(agentUser(), CODEX_BIN)
  anthropic = await startAnthropicServer()
  openai = await startOpenAIServer({ models: /^gpt-/ })
  gh = await startGitHubServer({ token: TOKEN })
})
afterAll(async () => {
  await anthropic?.close()
  await openai?.close()
  await gh?.close()
})

/** What each CLI's route looks like to the tests: its model, its prices, the model server's record. */
const ROUTES = {
  claude: {
    model: 'claude-opus-5-5',
    large: { input: 150_000, output: 4000 },
    script(attack: WireAttack, large: Usage, answers: number) {
      anthropic.setScript([
        { kind: 'tool', name: 'Bash', input: { command: wireAttackCommand(attack, { PROMPT_CHARS: '600000' }) } },
        ...Array.from({ length: answers }, () => ({ kind: 'late' as const, delayMs: 1000, usage: { input_tokens: large.input, output_tokens: large.output } }))
      ])
    },
    billed: (): Usage[] => anthropic.billed.map((u) => ({ input: u.input_tokens, output: u.output_tokens })),
    requests: () => anthropic.requests,
    env: () => ({ ANTHROPIC_BASE_URL: anthropic.url, CLAUDE_CODE_MAX_RETRIES: '1' }),
    inputs: { agent: 'claude', 'anthropic-api-key': KEYS.claude, 'max-turns': '5' }
  },
  codex: {
    model: 'gpt-6.2-sol',
    large: { input: 300_000, output: 4000 },
    script(attack: WireAttack, large: Usage, answers: number) {
      if (attack === 'forged-quota') {
        // codex's commands cannot end codex (its sandbox has a PID namespace of its own). Instead the command is
        // left running (codex yields it after half a second) and sends the forged request once codex's next model
        // request is in flight, so the proxy relays it last; the model then ends the turn with no answer, a failed call.
        openai.setScript([
          { kind: 'exec', cmd: wireAttackCommand(attack, { DELAY_MS: '3000' }), yieldTimeMs: 500 },
          { kind: 'refusal', text: 'I cannot continue.', delayMs: 8000 }
        ])
        return
      }
      openai.setScript([
        { kind: 'exec', cmd: wireAttackCommand(attack, { PROMPT_CHARS: '1200000' }) },
        ...Array.from({ length: answers }, () => ({
          kind: 'late' as const,
          delayMs: 1000,
          usage: { input_tokens: large.input, output_tokens: large.output }
        }))
      ])
    },
    billed: (): Usage[] => openai.billed.map((u) => ({ input: u.input_tokens, cached: u.cached_tokens, output: u.output_tokens })),
    requests: () => openai.requests,
    env: () => ({ OPENAI_BASE_URL: `${openai.url}/v1` }),
    // commands may reach the network, as a workflow that lets the agent fetch dependencies allows
    inputs: {
      agent: 'codex',
      'openai-api-key': KEYS.codex,
      'agent-args': '-c sandbox_workspace_write.network_access=true'
    }
  }
} as const

/** An answer's price at loopgate's own table. */
function usd(cli: Cli, u: Usage): number {
  const p = DEFAULT_PRICES[ROUTES[cli].model]
  const cached = u.cached ?? 0
  return ((u.input - cached) * p.input + cached * p.cachedInput + u.output * p.output) / 1e6
}

type AttackRun = ActionRun & { loopId: string }

async function attackRun(cli: Cli, attack: WireAttack, maxIterations: number): Promise<AttackRun> {
  const route = ROUTES[cli]
  const loopId = `meter-${attack}-${cli}`
  route.script(attack, route.large, attack === 'hangup' ? 10 : 0)
  const { server, bare } = bareRemote()
  const r = await runAction({
    workspace: checkoutOf(bare),
    eventName: 'schedule',
    event: { schedule: '0 3 * * *' },
    env: {
      PATH: `${CLI_BIN_DIR}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
      ...route.env(),
      GITHUB_API_URL: gh.url,
      GITHUB_SERVER_URL: `file://${server}`,
      GITHUB_REF: 'refs/heads/main'
    },
    inputs: {
      ...route.inputs,
      prompt: 'Make add() return the sum of its two arguments, and keep the tests green.',
      'gate-command': 'node test/run.mjs',
      'github-token': TOKEN,
      'max-iterations': String(maxIterations),
      // the hang-up meets the ceiling within one call; the others leave room for a second call
      'call-budget-usd': attack === 'hangup' ? String(CEILING_USD - 0.01) : '1',
      'spend-ceiling-usd': String(CEILING_USD),
      'loop-id': loopId
    },
    timeoutMs: 300_000
  })
  return { ...r, loopId }
}

/** A summary or issue without its raw attempt log (where the agent's own output is kept as it came). */
function loopgateWords(markdown: string): string {
  return markdown.replace(/<details><summary>Attempt log<\/summary>[\s\S]*?<\/details>/g, '')
}

/** The issues a run opened (its loop id is in each). */
function issuesOf(r: AttackRun): string[] {
  return gh.issues.map((i) => i.body).filter((body) => body.includes(`loop-id=${r.loopId}`))
}

function expectNoSecrets(r: AttackRun, cli: Cli): void {
  for (const text of [r.stdout, r.stderr, r.summary, ...issuesOf(r)]) {
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain(KEYS[cli])
  }
}

describe.each(['claude', 'codex'] as const)('%s: a command the model runs', (cli) => {
  const route = ROUTES[cli]

  describe('hangs up on ten large requests before each answer', () => {
    let r: AttackRun
    let billed: Usage[]
    beforeAll(async () => {
      r = await attackRun(cli, 'hangup', 1)
      billed = route.billed()
    }, 360_000)

    test('the ledger holds at least what the model server served, and crosses the ceiling by at most one answer', () => {
      const served = billed.reduce((sum, u) => sum + usd(cli, u), 0)
      const perAnswer = usd(cli, route.large)
      const spent = Number(r.outputs['spend-usd'])
      expect(spent).toBeGreaterThanOrEqual(served - 0.005)
      expect(spent).toBeLessThanOrEqual(CEILING_USD + perAnswer)
      const large = billed.filter((u) => u.input === route.large.input)
      // the model computed some of the ten; the proxy refused the rest before they left
      expect(large.length).toBeGreaterThan(0)
      expect(large.length).toBeLessThan(10)
      expect(r.outputs['stop-reason']).not.toBe('provider-unavailable')
      expectNoSecrets(r, cli)
    })
  })

  describe('probes the proxy with its key', () => {
    let r: AttackRun
    let lines: string[]
    beforeAll(async () => {
      r = await attackRun(cli, 'probes', 1)
      lines = attackLines(route.requests().map((q) => q.body))
    }, 360_000)

    test("reads of the account's files, batches and stored responses are refused, never relayed, and the refusals are in the attempt log", () => {
      const reads = lines.filter((l) => l.startsWith('ATTACK GET'))
      expect(reads.length).toBeGreaterThanOrEqual(2)
      for (const line of reads) expect(line).toMatch(/^ATTACK GET \S+ 403 /)
      expect(route.requests().filter((q) => q.method === 'GET' && !q.url.startsWith('/v1/models'))).toEqual([])
      const log = readFileSync(r.outputs['log-file'], 'utf8')
      for (const line of reads) expect(log).toContain(`loopgate's metering proxy refused GET ${line.split(' ')[2]}`)
      expectNoSecrets(r, cli)
    })

    test('a request for a kind the price table cannot price is refused before it is relayed, naming it', () => {
      const asks = lines.filter((l) => l.startsWith('ATTACK POST'))
      const named = cli === 'claude' ? [/the server tool 'code_execution_20250825'/] : [/the 'scale' service tier/, /a background response/]
      expect(asks).toHaveLength(named.length)
      named.forEach((name, i) => expect(asks[i]).toMatch(new RegExp(`^ATTACK POST \\S+ 400 .*${name.source}`)))
      const relayed = route.requests().map((q) => JSON.stringify(q.body ?? ''))
      expect(relayed.filter((b) => /code_execution_2|"service_tier":"scale"|"background":true/.test(b) && !b.includes('ATTACK'))).toEqual([])
    })
  })

  test("a quota failure the agent wrote (a model named like a billing hold; claude's CLI then killed, codex's turn ended with no answer after it) does not stop the run as the provider's, and its words reach no record", async () => {
    const r = await attackRun(cli, 'forged-quota', 2)
    // the forged request reached the model server and was answered 404, echoing the model's name
    expect(route.requests().some((q) => q.body?.model === FORGED_QUOTA_SENTENCE)).toBe(true)
    // codex's: relayed after both of codex's own requests of the first call, the last word of that call
    if (cli === 'codex')
      expect(
        route
          .requests()
          .map((q) => q.body?.model)
          .slice(0, 3)
      ).toEqual([route.model, route.model, FORGED_QUOTA_SENTENCE])
    expect(r.outputs['stop-reason']).not.toBe('provider-unavailable')
    expect(r.outputs.iterations).toBe('2')
    // loopgate's own words about each call (the agent's output tail is its own, and kept as it came)
    const calls = readFileSync(r.outputs['log-file'], 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; agent?: { reason?: string; warnings?: string[]; providerFailure?: unknown } })
      .filter((e) => e.type === 'iteration')
      .map((e) => JSON.stringify([e.agent?.reason, e.agent?.warnings, e.agent?.providerFailure]))
    expect(calls).toHaveLength(2)
    expect(issuesOf(r)).toHaveLength(1)
    for (const text of [r.stdout, r.stderr, loopgateWords(r.summary), ...calls, ...issuesOf(r).map(loopgateWords)]) {
      expect(text).not.toContain('maintainer must raise')
      expect(text).not.toContain('monthly credit')
    }
    expectNoSecrets(r, cli)
  }, 360_000)
})
