/**
 * The comment-command example: anyone can comment, and the run has this repository's token and
 * secrets. Its first job decides with the API alone (run here against the local GitHub server,
 * with GitHub's recorded payloads) whether a writer asked on a same-repository pull request; only
 * then does a job check the PR out or install it. A fork or a reader is a skip, never a failure.
 */
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { type Contexts } from './helpers/workflow-expressions.js'
import { loopJob, readWorkflow, recorded, type WorkflowJob } from './helpers/workflow-files.js'
import { runStep, type StepRun } from './helpers/workflow-steps.js'

const TOKEN = 'ghs_permissionJobToken000000000000001'
const FILE = 'examples/workflows/pr-comment-command.yml'
const CHECKS_OUT = (s: { uses?: string; run?: string }): boolean => /^actions\/checkout@/.test(s.uses ?? '') || /\b(npm|pnpm|yarn|pip)\b/.test(s.run ?? '')

describe('pr-comment-command.yml: the permission job', () => {
  const wf = readWorkflow(FILE)
  const loop = loopJob(wf)
  const needs = [loop.job.needs ?? []].flat()
  const gateName = needs[0]
  const gate: WorkflowJob | undefined = wf.jobs[gateName]
  let gh: GitHubServer

  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN, collaborators: { 'writer-w': 'write', 'keeper-k': 'maintain', 'drive-by': 'read' } })
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  it('gates every job that checks out or installs the pull request', () => {
    expect(gate).toBeDefined()
    expect(gate?.steps.filter((s) => s.uses)).toEqual([])
    for (const [name, job] of Object.entries(wf.jobs)) {
      if (!job.steps.some(CHECKS_OUT)) continue
      expect([name, [job.needs ?? []].flat()]).toEqual([name, expect.arrayContaining([gateName])])
      expect(job.if).toBe(`needs.${gateName}.outputs.run == 'true'`)
    }
    expect(loop.job.steps.find(CHECKS_OUT)?.with?.ref).toBe(`\${{ needs.${gateName}.outputs.ref }}`)
  })

  /** The recorded event of `login` commenting `/loopgate …` on pull request `pr` (or reviewing it). */
  function event(kind: 'issue_comment' | 'pull_request_review', pr: number, login: string): Record<string, any> {
    const p = recorded(kind, (e) => e.action === (kind === 'issue_comment' ? 'created' : 'submitted'))
    if (kind === 'issue_comment') {
      Object.assign(p.issue, { number: pr, pull_request: { url: `https://api.github.com/repos/octo-org/octo-repo/pulls/${pr}` } })
      Object.assign(p.comment, { body: '/loopgate make add() add', user: { ...p.comment.user, login } })
    } else {
      p.pull_request.number = pr
      Object.assign(p.review, { body: '/loopgate make add() add', user: { ...p.review.user, login } })
    }
    p.sender.login = login
    return p
  }

  async function decide(kind: 'issue_comment' | 'pull_request_review', pr: number, login: string) {
    const contexts: Contexts = { github: { token: TOKEN, api_url: gh.url, repository: 'octo-org/octo-repo', event: event(kind, pr, login) } }
    const results: StepRun[] = []
    for (const s of gate!.steps) results.push(await runStep(s, contexts, { GITHUB_REPOSITORY: 'octo-org/octo-repo' }))
    const outputs = Object.fromEntries(
      Object.entries(gate!.outputs ?? {}).map(([k, v]) => [
        k,
        results.find((r) => r.outputs[/outputs\.([\w-]+)/.exec(v)![1]] !== undefined)?.outputs[/outputs\.([\w-]+)/.exec(v)![1]] ?? ''
      ])
    )
    return { status: results.map((r) => r.status), stdout: results.map((r) => r.stdout).join(''), outputs }
  }

  it.each([
    ['issue_comment', 'writer-w'],
    ['issue_comment', 'keeper-k'],
    ['pull_request_review', 'writer-w']
  ] as const)('a %s from %s on a same-repository PR: the loop job runs, on the PR branch', async (kind, login) => {
    const pull = gh.addPull({ head: 'feature', author: 'contributor' })
    const r = await decide(kind, pull.number, login)
    expect(r.status.every((s) => s === 0)).toBe(true)
    expect(r.outputs).toEqual({ run: 'true', ref: 'feature' })
  })

  it('a writer’s comment on a fork’s PR: skipped with a notice, the job succeeds, no PR code is fetched', async () => {
    const pull = gh.addPull({ head: 'feature', headRepo: 'someone/octo-repo', author: 'someone' })
    const r = await decide('issue_comment', pull.number, 'writer-w')
    expect(r.status.every((s) => s === 0)).toBe(true)
    expect(r.outputs.run).toBe('false')
    expect(r.stdout).toMatch(/::notice::.*#\d+ comes from the fork someone\/octo-repo/)
  })

  it.each([
    ['drive-by', "drive-by has 'read' permission"],
    ['stranger', "stranger has 'none' permission"]
  ])('a comment from %s (no write permission): skipped with a notice, before the PR is even read', async (login, notice) => {
    const pull = gh.addPull({ head: 'feature', author: 'contributor' })
    const r = await decide('issue_comment', pull.number, login)
    expect(r.status.every((s) => s === 0)).toBe(true)
    expect(r.outputs.run).toBe('false')
    expect(r.stdout).toContain(notice)
    expect(gh.requests.map((q) => q.operationId)).not.toContain('pulls/get')
  })
})
