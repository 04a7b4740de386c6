import { apiKeyFor, createAdapter, prepareAdapter } from '../src/agents/adapter.js'
import { CommandAgent } from '../src/agents/command/adapter.js'
import { AGENTS, agentNames, agentSpec, registerAgent, type AgentCallSettings, type AgentSpec } from '../src/agents/agent-registry.js'
import type { AgentAdapter, AgentCall } from '../src/agents/agent-call.js'
import type { AgentResult } from '../src/agent-result.js'
import { readSettings } from '../src/inputs/read-settings.js'
import { ConfigError } from '../src/errors.js'
import { agentEnv } from '../src/agents/agent-env.js'
import { buggyProject, makeRepo } from './helpers/repo.js'
import { runIn } from './helpers/settings.js'

const FIX = `sed -i 's/a - b/a + b/' src/math.mjs; echo '{"cost_usd": 0.3}' > "$LOOPGATE_COST_FILE"`

/** A new agent's adapter: it keeps the environment loopgate gave it and runs a real process. */
class FakeAgent implements AgentAdapter {
  readonly name = 'fake'
  static calls: AgentCall[] = []
  constructor(readonly settings: AgentCallSettings) {}
  run(call: AgentCall): Promise<AgentResult> {
    FakeAgent.calls.push(call)
    return new CommandAgent(FIX).run(call)
  }
}

/** A new agent is one entry: its key, its configuration variables, its refused flags, its adapter. */
const FAKE: AgentSpec = {
  name: 'fake',
  summary: 'a scripted stand-in',
  apiKey: { input: 'fake-api-key', env: 'FAKE_API_KEY' },
  configEnv: ['FAKE_BASE_URL'],
  refusedArgs: ['--fork', 'replay'],
  controlledArgs: ['--budget'],
  createAdapter: (settings) => new FakeAgent(settings)
}

const base = { prompt: 'task', 'gate-command': 'npm test' }
const read = (inputs: Record<string, string>) => readSettings((name) => inputs[name] ?? '', { GITHUB_WORKSPACE: '/tmp' })
function configError(inputs: Record<string, string>): ConfigError {
  try {
    read(inputs)
  } catch (err) {
    if (err instanceof ConfigError) return err
    throw err
  }
  throw new Error('expected a ConfigError')
}

let unregister: () => void = () => undefined
beforeEach(() => {
  unregister = registerAgent(FAKE)
  FakeAgent.calls = []
})
afterEach(() => unregister())

describe('the agent registry', () => {
  it('holds the built-in agents, one entry each', () => {
    unregister()
    expect(agentNames()).toEqual(AGENTS.map((a) => a.name))
    expect(agentNames()).toEqual(expect.arrayContaining(['claude', 'codex', 'command']))
    expect(agentSpec('claude').cli?.package).toBe('@anthropic-ai/claude-code')
    expect(agentSpec('codex').apiKey).toEqual({ input: 'openai-api-key', env: 'OPENAI_API_KEY' })
    expect(agentSpec('command').cli).toBeUndefined()
    expect(configError({ ...base, agent: 'fake' }).input).toBe('agent')
  })

  it('validates a registered agent by its entry: accepted, its key read, its own args refused', () => {
    const settings = read({ ...base, agent: 'fake', 'fake-api-key': 'fk-1', 'anthropic-api-key': 'sk-ant', 'agent-args': '--fork-depth 2' })
    expect(settings.agent).toBe('fake')
    expect(settings.agentApiKey).toBe('fk-1')
    expect(settings.agentArgs).toEqual(['--fork-depth', '2'])
    for (const args of ['--fork', '--fork=abc', 'replay', '--budget 9']) {
      const err = configError({ ...base, agent: 'fake', 'agent-args': args })
      expect(err.input).toBe('agent-args')
    }
    expect(configError({ ...base, agent: 'fake', 'agent-args': '--fork' }).message).toContain('fresh process (refused: --fork, replay)')
    expect(configError({ ...base, agent: 'fake', 'agent-args': '--budget=1' }).message).toContain('loopgate sets it')
    // The rules are the entry's: another agent's refused flags do not apply, nor these to it.
    expect(read({ ...base, agent: 'fake', 'agent-args': '--max-turns 3 -r' }).agentArgs).toEqual(['--max-turns', '3', '-r'])
    expect(read({ ...base, agent: 'claude', 'agent-args': '--fork replay' }).agentArgs).toEqual(['--fork', 'replay'])
    expect(configError({ ...base, agent: 'nope' }).message).toContain([...AGENTS.map((a) => a.name), 'fake'].map((n) => `'${n}'`).join(', '))
  })

  it('creates the adapter from the entry, without installing anything, and passes only its key and variables', async () => {
    const settings = read({ ...base, agent: 'fake', 'fake-api-key': 'fk-2', 'agent-args': '--model m' })
    const adapter = createAdapter(settings)
    expect(adapter).toBeInstanceOf(FakeAgent)
    expect((adapter as FakeAgent).settings.agentArgs).toEqual(['--model', 'm'])
    expect(await prepareAdapter(settings, { env: { PATH: '' }, report: () => undefined })).toBeInstanceOf(FakeAgent)
    const runner = { PATH: '/usr/bin', FAKE_BASE_URL: 'http://127.0.0.1:1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:2' }
    const env = agentEnv(runner, { agent: 'fake', apiKey: apiKeyFor(settings) })
    expect(env).toEqual({ PATH: '/usr/bin', FAKE_BASE_URL: 'http://127.0.0.1:1', FAKE_API_KEY: 'fk-2' })
  })

  it('runs a whole loop with the registered agent', async () => {
    const repo = makeRepo(buggyProject())
    const env = { ...process.env, FAKE_BASE_URL: 'http://127.0.0.1:1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:2' }
    const r = await runIn(repo, { agent: 'fake', 'fake-api-key': 'fk-3', 'gate-command': 'node test/run.mjs', 'max-iterations': '2' }, env)
    expect(r.stopReason).toBe('verified')
    expect(r.run?.spentUsd).toBeCloseTo(0.3)
    expect(FakeAgent.calls).toHaveLength(1)
    expect(FakeAgent.calls[0].env.FAKE_API_KEY).toBe('fk-3')
    expect(FakeAgent.calls[0].env.FAKE_BASE_URL).toBe('http://127.0.0.1:1')
    expect(FakeAgent.calls[0].env.ANTHROPIC_BASE_URL).toBeUndefined()
  })

  it('refuses a second entry under a taken name, and a name unfit for folders', () => {
    expect(() => registerAgent({ ...FAKE })).toThrow(/already registered/)
    expect(() => registerAgent({ ...FAKE, name: 'claude' })).toThrow(/already registered/)
    expect(() => registerAgent({ ...FAKE, name: '../x' })).toThrow(/agent name/)
  })
})
