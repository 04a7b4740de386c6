/**
 * What makes the example workflows (and the repository's own) work on GitHub, beyond what a
 * linter sees: pinned actions, the App token's hour, Node before loopgate, one concurrency group
 * per pull request across the PR loops, one loop per loop id, and the Marketplace's limits.
 */
import yaml from 'js-yaml'
import { type Contexts, evaluate } from './helpers/workflow-expressions.js'
import { EXAMPLES, loopJob, OWN_WORKFLOWS, readText, readWorkflow, recorded, type Workflow } from './helpers/workflow-files.js'

const THIRD_PARTY_USE = /^\s*(?:-\s+)?uses:\s*(\S+)\s*(#.*)?$/
/** What a job spends around the loop's own time: the steps before it, the last gate run, publishing. */
const AROUND_THE_LOOP_MINUTES = 10
const APP_TOKEN_LIFE_MINUTES = 60

describe('every third-party action is pinned by commit SHA', () => {
  const files = [...EXAMPLES, ...OWN_WORKFLOWS, 'docs/authentication.md', 'docs/publishing.md']
  const uses = files.flatMap((file) =>
    readText(file)
      .split('\n')
      .map((line) => THIRD_PARTY_USE.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && !m[1].startsWith('./') && !m[1].startsWith('<') && !/^loopgate\/loopgate[@/]/.test(m[1]))
      .map((m) => ({ file, ref: m[1], comment: m[2] ?? '' }))
  )

  it('finds the uses at all', () => {
    expect(uses.length).toBeGreaterThan(20)
  })

  it.each(files)('%s: a 40-hex SHA with its tag in a comment', (file) => {
    const bad = uses.filter((u) => u.file === file && !(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(u.ref) && /^# v\d+(\.\d+){0,2}\b/.test(u.comment)))
    expect(bad).toEqual([])
  })

  it('one SHA names one tag everywhere', () => {
    const tags = new Map<string, Set<string>>()
    for (const u of uses) tags.set(u.ref, (tags.get(u.ref) ?? new Set()).add(u.comment.split(/\s/)[1]))
    expect([...tags].filter(([, t]) => t.size > 1)).toEqual([])
  })
})

describe('action.yml', () => {
  it('has a description the Marketplace accepts (at most 125 characters)', () => {
    const { description } = yaml.load(readText('action.yml')) as { description: string }
    expect(description.length).toBeLessThanOrEqual(125)
  })
})

describe('a loop publishing with a GitHub App token', () => {
  const appLoops = EXAMPLES.filter((file) => {
    const wf = readWorkflow(file)
    const { job, step } = loopJob(wf)
    const id = /steps\.([\w-]+)\.outputs\.token/.exec(String(step.with?.['github-token'] ?? ''))?.[1]
    return job.steps.some((s) => s.id === id && /^actions\/create-github-app-token@/.test(s.uses ?? ''))
  })

  it('is among the examples', () => {
    expect(appLoops).toContain('examples/workflows/recommended.yml')
  })

  it.each(appLoops)('%s: GITHUB_TOKEN only reads; the run ends inside the token’s hour', (file) => {
    const wf = readWorkflow(file)
    const { job, step } = loopJob(wf)
    const scopes = { ...wf.permissions, ...job.permissions }
    expect(Object.entries(scopes).filter(([, level]) => level !== 'read' && level !== 'none')).toEqual([])
    const limit = Number(step.with?.['time-limit-minutes'] ?? 300)
    expect(limit + AROUND_THE_LOOP_MINUTES).toBeLessThan(APP_TOKEN_LIFE_MINUTES)
    expect(job['timeout-minutes']).toBeGreaterThan(limit)
  })
})

describe('Node is set up before loopgate', () => {
  const loops = [...EXAMPLES, ...OWN_WORKFLOWS].filter((file) =>
    Object.values(readWorkflow(file).jobs).some((j) => j.steps?.some((s) => /^loopgate\//.test(s.uses ?? '')))
  )

  it.each(loops)('%s', (file) => {
    const { job } = loopJob(readWorkflow(file))
    const setup = job.steps.findIndex((s) => /^actions\/setup-node@/.test(s.uses ?? ''))
    const loop = job.steps.findIndex((s) => /^loopgate\//.test(s.uses ?? ''))
    expect([setup >= 0, setup < loop]).toEqual([true, true])
    expect(String(job.steps[setup].with?.['node-version'] ?? '')).not.toBe('')
  })

  it('the fleet takes the Node version as an input with a default', () => {
    const fleet = readWorkflow('.github/workflows/fleet.yml')
    const call = (fleet.on.workflow_call as { inputs: Record<string, { default?: unknown }> }).inputs
    expect(call['node-version']?.default).toBeTruthy()
    const setup = loopJob(fleet).job.steps.find((s) => /^actions\/setup-node@/.test(s.uses ?? ''))
    expect(setup?.with?.['node-version']).toBe('${{ inputs.node-version }}')
  })
})

/** A recorded payload of `event` about pull request `n`, as GitHub delivers it. */
function aboutPull(event: string, n: number): Record<string, any> {
  switch (event) {
    case 'issue_comment': {
      const p = recorded('issue_comment', (e) => e.action === 'created')
      p.issue.number = n
      p.issue.pull_request = { url: `https://api.github.com/repos/o/r/pulls/${n}` }
      return p
    }
    case 'workflow_run':
    case 'check_suite': {
      const p = recorded(event, (e) => e.action === 'completed' && e[event].pull_requests.length > 0)
      p[event].pull_requests = [{ ...p[event].pull_requests[0], number: n }]
      return p
    }
    default: {
      const p = recorded(event)
      p.pull_request.number = n
      return p
    }
  }
}

describe('the PR loops share one concurrency group per pull request', () => {
  const prLoops = EXAMPLES.filter((file) => loopJob(readWorkflow(file)).step.with?.['on-success'] === 'push')
  const group = (wf: Workflow): string => {
    const { job } = loopJob(wf)
    return (job.concurrency ?? wf.concurrency)?.group ?? ''
  }

  it('covers the comment command, the failed checks and the review loop', () => {
    expect(prLoops).toEqual(
      expect.arrayContaining(['examples/workflows/pr-comment-command.yml', 'examples/workflows/pr-failed-check.yml', 'examples/workflows/pr-review-loop.yml'])
    )
  })

  it('written the same way in each', () => {
    expect(new Set(prLoops.map((file) => group(readWorkflow(file)))).size).toBe(1)
  })

  const cases = prLoops.flatMap((file) => Object.keys(readWorkflow(file).on).map((event) => [file, event] as const))
  it.each(cases)('%s on %s: the group names the pull request', (file, event) => {
    const wf = readWorkflow(file)
    const contexts: Contexts = { github: { event: aboutPull(event, 4242), event_name: event, repository: 'octo-org/octo-repo' } }
    const text = group(wf).replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => String(evaluate(expr, contexts) ?? ''))
    expect(text).toBe('loopgate-pr-4242')
  })
})

describe('one loop id names one loop', () => {
  const steps = EXAMPLES.map((file) => ({ file, wf: readWorkflow(file), with: loopJob(readWorkflow(file)).step.with ?? {} }))

  it('examples that share a loop id run it with the same inputs', () => {
    const byId = new Map<string, typeof steps>()
    for (const s of steps) byId.set(String(s.with['loop-id']), [...(byId.get(String(s.with['loop-id'])) ?? []), s])
    const differ = [...byId].filter(([, all]) => all.some((s) => JSON.stringify(s.with) !== JSON.stringify(all[0].with)))
    expect(differ.map(([id, all]) => `${id}: ${all.map((s) => s.file).join(', ')}`)).toEqual([])
  })

  const retries = steps.filter((s) => /\/loopgate retry/.test(loopJob(s.wf).job.if ?? ''))
  it('an escalation retry is among the examples', () => {
    expect(retries.length).toBeGreaterThan(0)
  })

  it.each(retries.map((r) => r.file))('%s answers a scheduled loop that a retry can resume', (file) => {
    const retry = retries.find((r) => r.file === file)!
    const loop = steps.filter((s) => s.with['loop-id'] === retry.with['loop-id'])
    expect(loop.some((s) => 'schedule' in s.wf.on)).toBe(true)
    // A dependency upgrade does not try a package@version again on the same lockfile and tests.
    expect(loop.filter((s) => s.with.task === 'dependency-upgrade').map((s) => s.file)).toEqual([])
    expect(retry.with['comment-command'] ?? '/loopgate').toBe('/loopgate')
  })
})

describe('what a careful user can copy', () => {
  const all = [...EXAMPLES, ...OWN_WORKFLOWS]
  const steps = (file: string) => Object.values(readWorkflow(file).jobs).flatMap((job) => job.steps ?? [])

  it.each(all)('%s: no expression is pasted into a shell script (values reach it through env:)', (file) => {
    const pasted = steps(file).filter((s) => /\$\{\{/.test(s.run ?? ''))
    expect(pasted.map((s) => s.run)).toEqual([])
  })

  const SPEND = ['spend-ceiling-usd', 'call-budget-usd', 'period-ceiling-usd', 'max-iterations']
  it.each(EXAMPLES)('%s: a dispatcher can only pick a spend limit from the values the workflow lists', (file) => {
    const wf = readWorkflow(file)
    const dispatch = (wf.on.workflow_dispatch ?? {}) as { inputs?: Record<string, { type?: string; options?: string[] }> }
    const given = loopJob(wf).step.with ?? {}
    for (const name of SPEND) {
      const from = /inputs\.([\w-]+)/.exec(String(given[name] ?? ''))?.[1]
      if (from === undefined) continue
      expect([file, name, dispatch.inputs?.[from]?.type]).toEqual([file, name, 'choice'])
    }
  })

  it.each(EXAMPLES)('%s: a dependency upgrade keeps majors for a person (allow-major: false)', (file) => {
    expect(String(loopJob(readWorkflow(file)).step.with?.['allow-major'] ?? 'false')).toBe('false')
  })

  it.each(EXAMPLES)('%s: a loop on pull requests starts when asked (a label or a command), not on every push', (file) => {
    const on = readWorkflow(file).on as Record<string, { types?: string[] } | null>
    for (const event of ['pull_request', 'pull_request_target']) {
      if (!(event in on)) continue
      expect([file, on[event]?.types ?? ['opened', 'synchronize', 'reopened']]).toEqual([file, ['labeled']])
    }
  })
})

describe("the README's quick start", () => {
  const block = /```yaml\n(# \.github\/workflows\/[\s\S]*?)```/.exec(readText('README.md'))?.[1] ?? ''
  const wf = yaml.load(block) as Workflow

  it('is a workflow with a rolling ceiling, and the permission that ceiling reads the cache list with', () => {
    const { job, step } = loopJob(wf)
    expect(Number(step.with?.['period-ceiling-usd'])).toBeGreaterThan(Number(step.with?.['spend-ceiling-usd']))
    expect({ ...wf.permissions, ...job.permissions }.actions).toBe('read')
  })

  it.each([...EXAMPLES, 'README.md'])('%s: a rolling ceiling comes with actions: read', (file) => {
    const flow = file === 'README.md' ? wf : readWorkflow(file)
    const { job, step } = loopJob(flow)
    if (step.with?.['period-ceiling-usd'] === undefined) return
    expect([file, { ...flow.permissions, ...job.permissions }.actions]).toEqual([file, 'read'])
  })
})
