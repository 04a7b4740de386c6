/**
 * Every example workflow, once, through the bundled action as the runner runs it: the loopgate
 * step's `with:` and `env:` read from the YAML (secrets, variables, step outputs and `github.*`
 * rendered with test values), one event the example declares with GitHub's recorded payload
 * (@octokit/webhooks-examples), the local GitHub server, a bare remote, the local cache service and
 * npm registry, then the post step. Where an example uses Claude Code or Codex, `agent: command`
 * stands in (the real CLIs have their own end-to-end tests); every other input is the example's.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { runAction, runPost, type ActionRun } from './helpers/action-runner.js'
import { checkoutFor, exampleRemote, loopInputs, placeholders } from './helpers/example-run.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { sh, tempDir } from './helpers/repo.js'
import { type Contexts } from './helpers/workflow-expressions.js'
import { EXAMPLES, loopJob, readWorkflow, recorded, type Workflow } from './helpers/workflow-files.js'
import { runStep } from './helpers/workflow-steps.js'
import { useCacheService } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const TOKEN = 'ghs_exampleWorkflowsToken0000000000001'
const REPO_ID = 186853002
const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`
const LONG = 180_000

type Payload = Record<string, any>

/** GitHub's recorded payload of `name`, moved to octo-org/octo-repo. */
function payload(name: string, pick?: (p: Payload) => boolean): Payload {
  const p = recorded(name, pick)
  if (p.repository) {
    Object.assign(p.repository, { id: REPO_ID, name: 'octo-repo', full_name: 'octo-org/octo-repo', default_branch: 'main' })
    p.repository.owner.login = 'octo-org'
  }
  if (p.sender) p.sender.login = 'octo-maintainer'
  return p
}

interface World {
  gh: GitHubServer
  bare: string
  tip: (branch: string) => string
  /** The local npm registry's environment (a bot's bump is made with it). */
  registryEnv: Record<string, string>
}

interface Case {
  event: string
  /** The branch the example's checkout leaves the workspace on. */
  branch: string
  build: (w: World) => Payload
  outcome: string
  stopReason: string
  /** What the event's kind of run leaves on GitHub. */
  check?: (w: World) => void
}

/** A loop on a branch opens one pull request from `loopgate/<loop-id>…`. */
const opensPull = (head: RegExp) => (w: World) => {
  expect(w.gh.pulls.map((p) => p.head)).toEqual([expect.stringMatching(head)])
}
/** A PR loop pushes the verified fix onto the PR branch itself. */
const pushesToFeature = (w: World) => {
  expect(sh(w.bare, ['show', 'feature:src/math.mjs'])).toContain('a + b')
}

const schedule = (loopId: string): Case => ({
  event: 'schedule',
  branch: 'main',
  build: () => ({ schedule: '17 3 * * *' }),
  outcome: 'verified',
  stopReason: 'verified',
  check: opensPull(new RegExp(`^loopgate/${loopId}`))
})
const dispatch = (loopId: string, inputs: Record<string, unknown> = {}): Case => ({
  event: 'workflow_dispatch',
  branch: 'main',
  build: () => Object.assign(payload('workflow_dispatch'), { ref: 'refs/heads/main', inputs }),
  outcome: 'verified',
  stopReason: 'verified',
  check: opensPull(new RegExp(`^loopgate/${loopId}$`))
})

/** A same-repository pull request from `feature`, as the API answers it. */
const featurePull = (w: World): number => w.gh.addPull({ head: 'feature', headSha: w.tip('feature'), labels: ['loopgate'], author: 'contributor' }).number

const DEPENDABOT_BRANCH = 'dependabot/npm_and_yarn/mathlib-1.1.0'

/** Dependabot's pull request bumping mathlib to 1.1.0 (manifest and lockfile, from the local registry). */
function dependabotPull(w: World): number {
  const seed = path.join(tempDir('loopgate-bot-'), 'ws')
  sh(path.dirname(seed), ['clone', '-q', '-b', 'main', w.bare, 'ws'])
  sh(seed, ['checkout', '-q', '-b', DEPENDABOT_BRANCH])
  execFileSync('npm', ['install', 'mathlib@^1.1.0', '--no-audit', '--no-fund'], { cwd: seed, env: { ...process.env, ...w.registryEnv }, stdio: 'pipe' })
  sh(seed, ['commit', '-q', '-am', 'Bump mathlib from 1.0.0 to 1.1.0', '--author=dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>'])
  sh(seed, ['push', '-q', 'origin', DEPENDABOT_BRANCH])
  const body = 'Bumps [mathlib](https://github.com/acme/mathlib) from 1.0.0 to 1.1.0.'
  return w.gh.addPull({
    head: DEPENDABOT_BRANCH,
    headSha: w.tip(DEPENDABOT_BRANCH),
    labels: ['dependencies'],
    author: 'dependabot[bot]',
    title: 'Bump mathlib from 1.0.0 to 1.1.0',
    body
  }).number
}

const onPull = (event: string, build: (w: World, pr: number) => Payload): Case => ({
  event,
  branch: 'feature',
  build: (w) => build(w, featurePull(w)),
  outcome: 'verified',
  stopReason: 'verified',
  check: pushesToFeature
})

const CASES: Record<string, Case> = {
  'azure-openai.yml': schedule('nightly-azure$'),
  'bedrock-oidc.yml': dispatch('nightly-bedrock'),
  'vertex-oidc.yml': schedule('nightly-vertex$'),
  'recommended.yml': dispatch('nightly'),
  'nightly-upgrade.yml': schedule('nightly-upgrade-bump-mathlib-1\\.1\\.0$'),
  'manual-dispatch.yml': dispatch('manual-task', { task: 'Make add() add.', 'spend-ceiling-usd': '10', 'dry-run': 'false' }),
  'escalation-retry.yml': {
    event: 'issue_comment',
    branch: 'main',
    build: (w) => {
      // The loop's escalation issue, opened by the token's identity with the loop's marker.
      const issue = w.gh.addIssue({ title: 'loopgate: escalated', body: '<!-- loopgate:loop-id=nightly-task -->\nstopped: `same-failure`' })
      const p = payload('issue_comment', (e) => e.action === 'created')
      delete p.issue.pull_request
      Object.assign(p.issue, { number: issue.number, body: issue.body, labels: [{ ...p.issue.labels?.[0], name: 'loopgate' }] })
      p.issue.user.login = 'loopgate-bot'
      Object.assign(p.comment, { id: 7100, body: '/loopgate retry the sign in add() is wrong' })
      p.comment.user.login = 'octo-maintainer'
      return p
    },
    outcome: 'verified',
    stopReason: 'verified',
    check: (w) => {
      expect(w.gh.reactions).toEqual([{ subject: 'issue-comment', commentId: 7100, content: 'eyes' }])
      expect(w.gh.issues[0].state).toBe('closed')
      opensPull(/^loopgate\/nightly-task$/)(w)
    }
  },
  'pr-comment-command.yml': onPull('issue_comment', (_, pr) => {
    const p = payload('issue_comment', (e) => e.action === 'created')
    Object.assign(p.issue, { number: pr, pull_request: { url: `https://api.github.com/repos/octo-org/octo-repo/pulls/${pr}` } })
    Object.assign(p.comment, { id: 7200, body: '/loopgate make add() add' })
    p.comment.user.login = 'octo-maintainer'
    return p
  }),
  'pr-failed-check.yml': onPull('workflow_run', (w, pr) => {
    const p = payload('workflow_run', (e) => e.action === 'completed' && e.workflow_run.pull_requests.length > 0)
    const head = w.tip('feature')
    Object.assign(p.workflow_run, { id: 5151, check_suite_id: 6161, name: 'CI', conclusion: 'failure', head_sha: head, head_branch: 'feature' })
    p.workflow_run.head_repository.full_name = 'octo-org/octo-repo'
    p.workflow_run.pull_requests = [
      {
        ...p.workflow_run.pull_requests[0],
        number: pr,
        head: { ref: 'feature', sha: head, repo: { id: REPO_ID } },
        base: { ref: 'main', sha: w.tip('main'), repo: { id: REPO_ID } }
      }
    ]
    return p
  }),
  'fix-dependency-pr.yml': {
    event: 'workflow_run',
    branch: 'main',
    build: (w) => {
      const pr = dependabotPull(w)
      const p = payload('workflow_run', (e) => e.action === 'completed' && e.workflow_run.pull_requests.length > 0)
      const head = w.tip(DEPENDABOT_BRANCH)
      Object.assign(p.workflow_run, { id: 5151, check_suite_id: 6161, name: 'CI', conclusion: 'failure', head_sha: head, head_branch: DEPENDABOT_BRANCH })
      p.workflow_run.head_repository.full_name = 'octo-org/octo-repo'
      p.workflow_run.pull_requests = [
        {
          ...p.workflow_run.pull_requests[0],
          number: pr,
          head: { ref: DEPENDABOT_BRANCH, sha: head, repo: { id: REPO_ID } },
          base: { ref: 'main', sha: w.tip('main'), repo: { id: REPO_ID } }
        }
      ]
      p.sender.login = 'dependabot[bot]'
      return p
    },
    outcome: 'verified',
    stopReason: 'verified',
    check: (w) => {
      expect(sh(w.bare, ['show', `${DEPENDABOT_BRANCH}:src/math.mjs`])).toContain('a + b')
      expect(sh(w.bare, ['show', `${DEPENDABOT_BRANCH}:package.json`])).toContain('"mathlib": "^1.1.0"')
    }
  },
  'pr-review-loop.yml': onPull('pull_request', (w, pr) => {
    const p = payload('pull_request', (e) => e.action === 'labeled')
    const repo = { ...p.pull_request.head.repo, id: REPO_ID, full_name: 'octo-org/octo-repo', name: 'octo-repo' }
    Object.assign(p, { number: pr })
    Object.assign(p.pull_request, { number: pr, labels: [{ ...p.label, name: 'loopgate' }] })
    Object.assign(p.pull_request.head, { ref: 'feature', sha: w.tip('feature'), repo })
    Object.assign(p.pull_request.base, { ref: 'main', sha: w.tip('main'), repo })
    p.label = { ...p.label, name: 'loopgate' }
    return p
  })
}

describe('every example workflow through the bundled action', () => {
  const svc = useCacheService()
  let registry: LocalRegistry
  let gh: GitHubServer
  let remote: { server: string; bare: string }

  beforeAll(async () => {
    registry = await startRegistry()
    const meta = { type: 'module', main: 'index.js' }
    registry.publish('mathlib', '1.0.0', { 'index.js': 'export const add = (a, b) => a + b\n' }, meta)
    registry.publish('mathlib', '1.1.0', { 'index.js': 'export const add = (a, b) => a + b\nexport const sum = add\n' }, meta)
  }, LONG)
  afterAll(async () => {
    await registry?.stop()
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
    remote = exampleRemote(registry.env, registry.url)
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  it('has a case for every example', () => {
    const files = Object.keys(CASES).sort()
    expect(files).toEqual(EXAMPLES.map((f) => path.basename(f)).sort())
  })

  /** The outputs of the jobs the loop's job needs (each `run:` step run against the local server). */
  async function neededOutputs(wf: Workflow, needs: string[], contexts: Contexts): Promise<Record<string, { outputs: Record<string, string> }>> {
    const out: Record<string, { outputs: Record<string, string> }> = {}
    for (const name of needs) {
      const outputs: Record<string, string> = {}
      for (const step of wf.jobs[name].steps) {
        const r = await runStep(step, contexts, { GITHUB_REPOSITORY: 'octo-org/octo-repo' })
        expect([name, r.status]).toEqual([name, 0])
        Object.assign(outputs, r.outputs)
      }
      out[name] = { outputs }
    }
    return out
  }

  it.each(Object.keys(CASES))(
    '%s, on the event it declares, gets past validation and preflight to a real outcome',
    async (file) => {
      const c = CASES[file]
      const wf = readWorkflow(`examples/workflows/${file}`)
      expect(Object.keys(wf.on)).toContain(c.event)
      const world: World = { gh, bare: remote.bare, tip: (b) => sh(remote.bare, ['rev-parse', `refs/heads/${b}`]).trim(), registryEnv: registry.env }
      const event = c.build(world)
      const contexts: Contexts = {
        github: { event, event_name: c.event, repository: 'octo-org/octo-repo', ref: 'refs/heads/main', head_ref: c.branch, token: TOKEN, api_url: gh.url },
        secrets: placeholders('test-secret'),
        vars: placeholders('test-var', { LOOPGATE_REVIEWERS: 'octo-reviewer', LOOPGATE_ESCALATE_TO: 'octocat' }),
        inputs: event.inputs ?? {},
        steps: { 'app-token': { outputs: { token: TOKEN } }, key: { outputs: { key: 'test-azure-key' } } }
      }
      const { job, step } = loopJob(wf)
      contexts.needs = await neededOutputs(wf, [job.needs ?? []].flat(), contexts)
      const { inputs, env: stepEnv } = loopInputs(step, contexts, FIX)
      const npmEnv = { ...registry.env, npm_config_update_notifier: 'false' }
      const workspace = checkoutFor(remote.bare, c.branch, job.steps, npmEnv)
      const opts = {
        workspace,
        eventName: c.event,
        event,
        inputs,
        env: {
          ...svc.env(),
          ...stepEnv,
          ...npmEnv,
          GITHUB_API_URL: gh.url,
          GITHUB_SERVER_URL: `file://git.localhost${remote.server}`,
          GITHUB_REF: 'refs/heads/main'
        }
      }
      const main: ActionRun = await runAction(opts)
      if (main.outputs['stop-reason'] !== c.stopReason) console.log(file, main.stdout, main.stderr, main.summary)
      expect(main.outputs['stop-reason']).not.toBe('config-error')
      expect({ outcome: main.outputs.outcome, stopReason: main.outputs['stop-reason'] }).toEqual({ outcome: c.outcome, stopReason: c.stopReason })
      expect(main.exitCode).toBe(0)
      c.check?.(world)
      const post = await runPost(main, opts)
      expect(post.exitCode).toBe(0)
      expect(`${main.stdout}${main.stderr}${post.stdout}${post.stderr}`).not.toContain(TOKEN)
    },
    LONG
  )
})
