import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { ConfigError, readSettings, splitArgs } from '../src/inputs.js'
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
