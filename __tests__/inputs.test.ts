import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { readSettings } from '../src/inputs/read-settings.js'
import { splitArgs } from '../src/inputs/values.js'
import { ConfigError } from '../src/errors.js'
import { tempDir } from './helpers/repo.js'

const base = { agent: 'command', 'agent-command': 'true', prompt: 'task', 'gate-command': 'npm test' }

function read(inputs: Record<string, string>, workspace = tempDir()) {
  return readSettings((name) => inputs[name] ?? '', { GITHUB_WORKSPACE: workspace, GITHUB_WORKFLOW: 'Nightly Upgrade', GITHUB_JOB: 'upgrade' })
}

function configError(inputs: Record<string, string>): ConfigError {
  try {
    read(inputs)
  } catch (err) {
    if (err instanceof ConfigError) return err
    throw err
  }
  throw new Error('expected a ConfigError')
}

describe('inputs', () => {
  it('reads the defaults: the seeds starting numbers', () => {
    const s = read(base)
    expect(s).toMatchObject({
      maxIterations: 20,
      maxTurns: 40,
      callBudgetUsd: 4,
      spendCeilingUsd: 40,
      callTimeoutMs: 45 * 60_000,
      timeLimitMs: 300 * 60_000,
      noProgressLimit: 3,
      sameFailureLimit: 2,
      progressFile: '.loopgate/progress.md',
      periodHours: 24,
      maxOpenPrs: 1,
      onSuccess: 'pull-request',
      onEscalate: 'issue',
      labels: ['loopgate'],
      draft: false,
      dryRun: false,
      loopId: 'nightly-upgrade-upgrade'
    })
    expect(s.protectedPaths).toContain('**/tests/**')
  })

  it.each([
    ['max-iterations', '0'],
    ['max-iterations', '-3'],
    ['max-iterations', '2.5'],
    ['max-iterations', 'ten'],
    ['max-turns', 'NaN'],
    ['call-budget-usd', 'abc'],
    ['call-budget-usd', '0'],
    ['spend-ceiling-usd', 'Infinity'],
    ['call-timeout-minutes', '-1'],
    ['time-limit-minutes', 'NaN'],
    ['no-progress-limit', '0'],
    ['same-failure-limit', '1e999'],
    ['period-ceiling-usd', 'lots'],
    ['period-hours', '0'],
    ['max-open-prs', '0']
  ])('refuses %s = %s, naming the input, the value and the range', (input, value) => {
    const err = configError({ ...base, [input]: value })
    expect(err.input).toBe(input)
    expect(err.message).toContain(`'${input}'`)
    expect(err.message).toContain(JSON.stringify(value))
    expect(err.message).toMatch(/accepted: (an integer|a number)/)
  })

  it('refuses a spend ceiling not greater than the call budget', () => {
    const err = configError({ ...base, 'call-budget-usd': '5', 'spend-ceiling-usd': '5' })
    expect(err.input).toBe('spend-ceiling-usd')
    expect(err.message).toContain('greater than call-budget-usd (5)')
  })

  it('refuses an unknown agent', () => {
    expect(configError({ ...base, agent: 'gpt-pilot' }).message).toContain("'claude', 'codex', 'command'")
  })

  it('refuses neither and both of prompt / prompt-file, and a missing prompt file', () => {
    expect(configError({ ...base, prompt: '' }).input).toBe('prompt')
    expect(configError({ ...base, 'prompt-file': 'task.md' }).message).toContain('not both')
    const err = configError({ ...base, prompt: '', 'prompt-file': 'missing.md' })
    expect(err.input).toBe('prompt-file')
    expect(err.message).toContain('existing file')
  })

  it('reads the task from prompt-file', () => {
    const ws = tempDir()
    writeFileSync(path.join(ws, 'task.md'), 'Upgrade one dependency.')
    const s = read({ ...base, prompt: '', 'prompt-file': 'task.md' }, ws)
    expect(s.prompt).toBe('Upgrade one dependency.')
    expect(s.promptSource).toBe('task.md')
  })

  it('refuses agent: command without agent-command', () => {
    expect(configError({ ...base, 'agent-command': '' }).input).toBe('agent-command')
  })

  it.each(['--resume abc', '--continue', '--bare', '--max-turns 99', '--max-budget-usd=100', '-c'])('refuses agent-args %s', (args) => {
    const err = configError({ ...base, agent: 'claude', 'agent-args': `--model sonnet ${args}` })
    expect(err.input).toBe('agent-args')
  })

  it('keeps ordinary agent-args, with quoting', () => {
    expect(read({ ...base, agent: 'claude', 'agent-args': `--model "claude sonnet" --append-system-prompt 'be brief'` }).agentArgs).toEqual([
      '--model',
      'claude sonnet',
      '--append-system-prompt',
      'be brief'
    ])
    expect(read({ ...base, agent: 'codex', 'agent-args': '-c model_reasoning_effort=high' }).agentArgs).toEqual(['-c', 'model_reasoning_effort=high'])
    expect(() => splitArgs('"unbalanced')).toThrow(ConfigError)
  })

  it('refuses a missing gate-command', () => {
    expect(configError({ ...base, 'gate-command': '' }).input).toBe('gate-command')
  })

  it('refuses bad choices, booleans, loop ids and paths', () => {
    expect(configError({ ...base, 'on-success': 'merge' }).input).toBe('on-success')
    expect(configError({ ...base, 'dry-run': 'maybe' }).input).toBe('dry-run')
    expect(configError({ ...base, 'loop-id': 'has space' }).input).toBe('loop-id')
    expect(configError({ ...base, 'progress-file': '../outside.md' }).input).toBe('progress-file')
    expect(configError({ ...base, 'features-file': '/etc/passwd' }).input).toBe('features-file')
  })
})

describe('authentication inputs', () => {
  const claude = { ...base, agent: 'claude' }
  const codex = { ...base, agent: 'codex' }

  it('provider defaults to the agent’s first one; a provider of another agent is a config-error naming provider', () => {
    expect(read(claude).provider).toBe('anthropic')
    expect(read(codex).provider).toBe('openai')
    expect(read(base).provider).toBeUndefined()
    expect(read({ ...claude, provider: 'bedrock' }).provider).toBe('bedrock')
    expect(read({ ...claude, provider: 'vertex' }).provider).toBe('vertex')
    for (const [inputs, accepted] of [
      [{ ...claude, provider: 'azure' }, "'anthropic', 'bedrock', 'vertex'"],
      [{ ...codex, provider: 'bedrock' }, "'openai', 'azure'"],
      [{ ...base, provider: 'openai' }, 'brings its own command']
    ] as const) {
      const err = configError(inputs)
      expect(err.input).toBe('provider')
      expect(err.message).toContain(accepted)
    }
  })

  it('azure needs its endpoint in the environment', () => {
    expect(configError({ ...codex, provider: 'azure' }).message).toContain('AZURE_OPENAI_BASE_URL')
    const s = readSettings((n) => (({ ...codex, provider: 'azure' }) as Record<string, string>)[n] ?? '', {
      GITHUB_WORKSPACE: tempDir(),
      AZURE_OPENAI_BASE_URL: 'https://r.openai.azure.com/openai/v1'
    })
    expect(s.provider).toBe('azure')
  })

  it('the credential inputs of the agent are read, the subscription token among them', () => {
    const s = read({ ...claude, 'claude-code-oauth-token': 'oat-1', 'anthropic-api-key': 'sk-1', 'openai-api-key': 'not-claude' })
    expect(s.agentCredentials).toEqual({ 'anthropic-api-key': 'sk-1', 'claude-code-oauth-token': 'oat-1' })
  })

  it('model is passed for claude and codex; a model also in agent-args is a config-error', () => {
    expect(read({ ...claude, model: 'claude-sonnet-4-5' }).model).toBe('claude-sonnet-4-5')
    expect(read({ ...codex, model: 'gpt-5' }).model).toBe('gpt-5')
    expect(read({ ...claude, 'agent-args': '--model x' }).model).toBeUndefined()
    for (const args of ['--model x', '--model=x', '-m x', '-c model=x']) {
      expect(configError({ ...codex, model: 'gpt-5', 'agent-args': args }).input).toBe('agent-args')
    }
    expect(configError({ ...claude, model: 'a', 'agent-args': '--model b' }).message).toContain("the 'model' input names it")
    expect(configError({ ...base, model: 'gpt-5' }).input).toBe('model')
    expect(configError({ ...claude, model: '--dangerously-skip-permissions' }).input).toBe('model')
  })

  it('commit-author is Name <email>; allow-users is a list; allow-bots a boolean', () => {
    expect(read(base).commitAuthor).toBeUndefined()
    expect(read({ ...base, 'commit-author': 'Release Bot <123+release-bot[bot]@users.noreply.github.com>' }).commitAuthor).toEqual({
      name: 'Release Bot',
      email: '123+release-bot[bot]@users.noreply.github.com'
    })
    for (const bad of ['nobody', '<a@b>', 'A <not-an-email>', 'A <a@b> trailing', 'A\nB <a@b>']) {
      expect(configError({ ...base, 'commit-author': bad }).input).toBe('commit-author')
    }
    expect(read({ ...base, 'allow-users': 'alice, bob\ncarol' }).allowUsers).toEqual(['alice', 'bob', 'carol'])
    expect(read(base).allowBots).toBe(false)
    expect(read({ ...base, 'allow-bots': 'true' }).allowBots).toBe(true)
    expect(configError({ ...base, 'allow-bots': 'maybe' }).input).toBe('allow-bots')
  })
})
