import { readSettings } from '../src/inputs/read-settings.js'
import { TASKS, type Settings } from '../src/settings.js'
import { TASK_SPECS, taskSpec, type TaskWork } from '../src/tasks/task-registry.js'
import { passVerdict } from '../__fixtures__/engine-fakes.js'
import { makeRepo } from './helpers/repo.js'

/** The settings a run of `task` reads (the prompt task from a prompt of its own). */
function settingsOf(name: string, workspace: string): Settings {
  const inputs: Record<string, string> = {
    agent: 'command',
    'agent-command': 'true',
    'gate-command': 'npm test',
    'dry-run': 'true',
    ...(name === 'prompt' ? { prompt: 'Fix the bug.' } : { task: name })
  }
  return readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: workspace })
}

/** Nothing prepared before the loop: no bump of loopgate's own, no bot's. */
const NO_WORK: TaskWork = { upgrade: null }

describe('the task registry', () => {
  it('holds the prompt task and every task the `task` input accepts, each once', () => {
    const names = TASK_SPECS.map((t) => t.name)
    expect(new Set(names).size).toBe(names.length)
    expect([...names].sort()).toEqual(['prompt', ...TASKS].sort())
  })

  it('reads no task as the prompt task, and refuses a name it does not hold', () => {
    expect(taskSpec(undefined).name).toBe('prompt')
    expect(() => taskSpec('bump-everything' as never)).toThrow(/unknown task "bump-everything"/)
  })
})

describe.each(TASK_SPECS.map((spec) => [spec.name, spec] as const))('the task %s', (name, spec) => {
  let settings: Settings
  beforeAll(() => {
    settings = settingsOf(name, makeRepo({ 'README.md': 'x\n' }))
  })

  it('is the descriptor the run dispatches to for its settings', () => {
    expect(taskSpec(settings.task)).toBe(spec)
  })

  it("gives the agent loopgate's words for a built-in task, the user's prompt otherwise", () => {
    if (name === 'prompt') {
      expect(spec.prompt).toBeUndefined()
      expect(settings.prompt).toBe('Fix the bug.')
    } else {
      expect(spec.prompt?.trim().length).toBeGreaterThan(20)
      expect(settings.prompt).toBe(spec.prompt)
      expect(settings.promptSource).toBe(`task: ${name}`)
    }
  })

  it('never runs alongside the first call a baseline that decides whether to call the agent at all', () => {
    if (spec.baseline.onBump || spec.passingBump) expect(spec.baseline.alongside).toBe(false)
  })

  it('with nothing prepared before the loop: no bump to judge, the resumed base trusted, the settings’ prompt as the task', () => {
    expect(spec.bumpCommit(NO_WORK)).toBeUndefined()
    expect(spec.dependencyReference(NO_WORK, 'b'.repeat(40))).toEqual({ commit: 'b'.repeat(40) })
    expect(spec.dependencyReference(NO_WORK, undefined)).toEqual({ commit: undefined })
    expect(spec.loopTask(NO_WORK, settings, null)).toBe(settings.prompt)
    const records = {
      log: { write: () => undefined },
      progress: { ensure: () => undefined, read: () => '', append: () => undefined, appendStop: () => undefined },
      clock: { now: () => 0 }
    }
    expect(spec.passingBump?.(NO_WORK, { head: 'h', verdict: passVerdict(), records })).toBeUndefined()
  })
})
