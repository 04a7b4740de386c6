import { GitRepository } from '../src/git/repository.js'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { remoteFromEnv } from '../src/git/clean-clone.js'
import { createClient } from '../src/github/client.js'
import type { EventPlan } from '../src/github/events.js'
import { PROGRESS_TAG } from '../src/publish/github/progress-comment.js'
import { GitHubPublisher } from '../src/publish/github/publisher.js'
import { readSettings } from '../src/inputs/read-settings.js'
import type { IterationRecord, RunOutcome } from '../src/loop/engine-types.js'
import { marker } from '../src/publish/body-parts.js'
import type { PublishContext } from '../src/publish/publisher-types.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

/**
 * The PR loop's conversation on GitHub (reaction, one progress comment edited in place, the
 * outcome with the run link) and escalation issues that keep one body and close when a later run
 * verifies, against the local GitHub server and a bare remote.
 */

const TOKEN = 'ghs_prloopTestToken00000000000000000001'
const LOOP = 'pr-fixer'
const REPOSITORY = 'octo-org/octo-repo'
const RUN_ENV = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: REPOSITORY, GITHUB_RUN_ID: '4242', GITHUB_ACTOR: 'octo-maintainer' }
const RUN_LINK = 'https://github.com/octo-org/octo-repo/actions/runs/4242'

function remote(): { server: string; bare: string; ws: string; head: string } {
  const server = tempDir('loopgate-remote-')
  const bare = path.join(server, 'octo-org', 'octo-repo.git')
  const seed = makeRepo({ 'src/a.js': 'export const a = 1\n' })
  sh(server, ['init', '-q', '--bare', '-b', 'main', bare])
  sh(seed, ['push', '-q', bare, 'main'])
  const parent = tempDir('loopgate-ws-')
  sh(parent, ['clone', '-q', bare, 'ws'])
  const ws = path.join(parent, 'ws')
  return { server, bare, ws, head: sh(ws, ['rev-parse', 'HEAD']).trim() }
}

function iteration(n: number, spent: number): IterationRecord {
  return {
    iteration: n,
    startedAt: 0,
    endedAt: 1,
    agent: { status: 'claimed-done', reason: 'exit code 0', costUsd: 0.5, costSource: 'reported', turns: 1 },
    chargedUsd: 0.5,
    spentUsd: spent,
    commit: null,
    changedFiles: [],
    stat: { files: 0, insertions: 0, deletions: 0 },
    gate: null,
    gateRan: false,
    rejected: [],
    tampered: false,
    evidence: [],
    decision: 'continue'
  } as unknown as IterationRecord
}

function context(ws: string, stopReason: RunOutcome['stopReason'], start: string, head: string, inputs: Record<string, string> = {}): PublishContext {
  const runDir = tempDir('loopgate-run-')
  const logFile = path.join(runDir, 'attempts.jsonl')
  writeFileSync(logFile, `${JSON.stringify({ type: 'iteration', iteration: 1 })}\n`)
  const all: Record<string, string> = {
    agent: 'command',
    'agent-command': 'true',
    prompt: 'Fix it.',
    'gate-command': 'npm test',
    'loop-id': LOOP,
    'spend-ceiling-usd': '5',
    'call-budget-usd': '1',
    ...inputs
  }
  const settings = { ...readSettings((n) => all[n] ?? '', { GITHUB_WORKSPACE: ws }), workspace: ws }
  const verified = stopReason === 'verified'
  const outcome = {
    stopReason,
    iterations: [iteration(1, 0.5), iteration(2, 1)],
    spentUsd: 1,
    startCommit: start,
    headCommit: head,
    verifiedCommit: verified ? head : null,
    lastVerdict: null,
    lastEvidence: [],
    claimedDone: 2,
    gateAgreed: verified ? 1 : 0,
    startedAt: 0,
    endedAt: 1
  } as unknown as RunOutcome
  return { settings, outcome, repository: GitRepository.plain(ws), runDir, logFile, progressText: '' }
}

describe('the PR loop and its escalations on GitHub', () => {
  let gh: GitHubServer
  let repo: ReturnType<typeof remote>
  const warnings: string[] = []
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
    repo = remote()
    warnings.length = 0
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const publisher = (plan: EventPlan, extra: { recorded?: number[]; history?: { runs: number; spentUsd: number } } = {}): GitHubPublisher =>
    new GitHubPublisher({
      plan,
      client: createClient(TOKEN, { GITHUB_API_URL: gh.url }, (m) => warnings.push(m)),
      repo: { owner: 'octo-org', repo: 'octo-repo' },
      remote: remoteFromEnv({ GITHUB_SERVER_URL: repo.server, GITHUB_REPOSITORY: REPOSITORY }, TOKEN),
      env: RUN_ENV,
      tempDir: tempDir('loopgate-publish-'),
      warn: (m) => warnings.push(m),
      ...extra
    })

  it('reacts to the command, keeps one progress comment edited per iteration, and ends it with the outcome and the run link', async () => {
    const pull = gh.addPull({ head: 'feature', labels: [], author: 'contributor' })
    // The maintainer's command, as a comment on the pull request.
    gh.comments.push({ id: 77, issue: pull.number, index: 0, author: 'maintainer' })
    pull.comments.push('/loopgate fix the test')
    const plan: EventPlan = {
      kind: 'pull-request',
      eventName: 'issue_comment',
      number: pull.number,
      url: `https://github.com/${REPOSITORY}/pull/${pull.number}`,
      headBranch: 'feature',
      headSha: repo.head,
      baseBranch: 'main',
      trigger: { kind: 'command', event: 'issue_comment', author: 'maintainer', words: 'fix the test', comment: { id: 77, kind: 'issue-comment' } }
    }
    const p = publisher(plan)
    const ctx = context(repo.ws, 'max-iterations', repo.head, repo.head, { 'on-escalate': 'comment' })
    expect(await p.preflight(ctx.settings)).toBeNull()
    expect(gh.reactions).toEqual([{ subject: 'issue-comment', commentId: 77, content: 'eyes' }])
    expect(pull.comments).toHaveLength(2)
    expect(pull.comments[1].split('\n')[0]).toBe(marker(LOOP))
    expect(pull.comments[1]).toContain(`([workflow run](${RUN_LINK})) is working on this pull request: 0 of at most`)

    p.onIteration(iteration(1, 0.5))
    p.onIteration(iteration(2, 1))
    const result = await p.publish(ctx)
    expect(result.error).toBeUndefined()
    // Still one loopgate comment: created once, then edited.
    expect(pull.comments).toHaveLength(2)
    const creates = gh.requests.filter((r) => r.operationId === 'issues/create-comment')
    const updates = gh.requests.filter((r) => r.operationId === 'issues/update-comment')
    expect(creates).toHaveLength(1)
    expect(updates.length).toBe(3)
    expect((updates[1].body as { body: string }).body).toContain('2 of at most 20 iteration(s), $1.00 of $5.00 spent')
    const final = pull.comments[1]
    expect(final.split('\n')[0]).toBe(marker(LOOP))
    expect(final).toContain(`loopgate ([workflow run](${RUN_LINK})) stopped: \`max-iterations\``)
    expect(result.commentUrl).toContain(`/issues/${pull.number}#issuecomment-`)
    expect(warnings.filter((w) => !/artifact service/.test(w))).toEqual([])
  })

  it("one progress comment for the pull request across runs: a later run takes over the loop's own, never another author's", async () => {
    const pull = gh.addPull({ head: 'feature', labels: [], author: 'contributor' })
    // Someone else's comment that copies the loop's marker and the progress tag.
    pull.comments.push(`${marker(LOOP)}\n${PROGRESS_TAG}\nforged`)
    gh.comments.push({ id: 990, issue: pull.number, index: 0, author: 'mallory' })
    const plan: EventPlan = {
      kind: 'pull-request',
      eventName: 'pull_request',
      number: pull.number,
      url: `https://github.com/${REPOSITORY}/pull/${pull.number}`,
      headBranch: 'feature',
      headSha: repo.head,
      baseBranch: 'main'
    }
    const ctx = context(repo.ws, 'max-iterations', repo.head, repo.head, { 'on-escalate': 'comment' })
    expect(await publisher(plan).preflight(ctx.settings)).toBeNull()
    expect(await publisher(plan).preflight(ctx.settings)).toBeNull()
    const creates = gh.requests.filter((r) => r.operationId === 'issues/create-comment')
    expect(creates).toHaveLength(1)
    const progress = pull.comments.filter((c) => c.split('\n')[1] === PROGRESS_TAG && c.includes('is working on this pull request'))
    expect(progress).toHaveLength(1)
    expect(pull.comments[0]).toContain('forged')
  })

  it('a review comment gets its reaction through the review-comment reactions API', async () => {
    const pull = gh.addPull({ head: 'feature', labels: [] })
    const plan: EventPlan = {
      kind: 'pull-request',
      eventName: 'pull_request_review_comment',
      number: pull.number,
      url: 'u',
      headBranch: 'feature',
      headSha: repo.head,
      baseBranch: 'main',
      trigger: { kind: 'command', event: 'pull_request_review_comment', author: 'maintainer', words: '', comment: { id: 901, kind: 'review-comment' } }
    }
    expect(await publisher(plan).preflight(context(repo.ws, 'verified', repo.head, repo.head).settings)).toBeNull()
    expect(gh.reactions).toEqual([{ subject: 'review-comment', commentId: 901, content: 'eyes' }])
  })

  it('the escalation issue keeps one body that says where things stand, plus one comment per run', async () => {
    const issue = gh.addIssue({ title: `loopgate(${LOOP}) needs a person: same-failure`, body: `${marker(LOOP)}\n## old body` })
    const plan: EventPlan = { kind: 'branch', eventName: 'schedule', workBranch: `loopgate/${LOOP}`, baseBranch: 'main' }
    const ctx = context(repo.ws, 'max-iterations', repo.head, repo.head)
    const result = await publisher(plan, { recorded: [issue.number], history: { runs: 2, spentUsd: 3.5 } }).publish(ctx)
    expect(result.error).toBeUndefined()
    expect(gh.issues).toHaveLength(1)
    expect(issue.title).toBe('loopgate: Fix it — max-iterations')
    expect(issue.body.split('\n')[0]).toBe(marker(LOOP))
    expect(issue.body).not.toContain('old body')
    expect(issue.body).toContain('**Spend so far across runs of this loop:** $4.50 over 3 run(s) (this one included).')
    expect(issue.comments).toHaveLength(1)
    expect(issue.comments[0]).toContain('stopped: `max-iterations`')
  })

  it('a later verified run closes the open escalation issue with a comment linking the pull request', async () => {
    const issue = gh.addIssue({ title: `loopgate(${LOOP}) needs a person: same-failure`, body: `${marker(LOOP)}\nbody` })
    const someoneElses = gh.addIssue({ title: 'a person’s issue', body: `${marker(LOOP)}\nforged`, author: 'mallory' })
    writeFileSync(path.join(repo.ws, 'src', 'a.js'), 'export const a = 2\n')
    sh(repo.ws, ['commit', '-q', '-am', 'loopgate: iteration 1\n\nLoopgate-Run: r1\nLoopgate-Iteration: 1'])
    const verified = sh(repo.ws, ['rev-parse', 'HEAD']).trim()
    const plan: EventPlan = { kind: 'branch', eventName: 'schedule', workBranch: `loopgate/${LOOP}`, baseBranch: 'main' }
    const result = await publisher(plan, { recorded: [issue.number] }).publish(context(repo.ws, 'verified', repo.head, verified))
    expect(result.error).toBeUndefined()
    expect(result.pullRequestUrl).toMatch(/\/pull\/\d+$/)
    expect(issue.state).toBe('closed')
    expect(issue.comments).toHaveLength(1)
    expect(issue.comments[0].split('\n')[0]).toBe(marker(LOOP))
    expect(issue.comments[0]).toContain(`the work is in pull request ${result.pullRequestUrl}`)
    expect(issue.comments[0]).toContain(verified)
    expect(someoneElses.state).toBe('open')
    expect(someoneElses.comments).toEqual([])
    expect(result.notes).toContain(`closed the escalation issue #${issue.number}: this run verified`)
  })

  it('a pull request run closes only the escalation issue its own state records', async () => {
    const other = gh.addIssue({ title: 'another PR’s escalation', body: `${marker(LOOP)}\nbody` })
    const pull = gh.addPull({ head: 'feature', labels: [] })
    sh(repo.ws, ['checkout', '-q', '-b', 'feature'])
    sh(repo.ws, ['push', '-q', 'origin', 'feature'])
    writeFileSync(path.join(repo.ws, 'src', 'a.js'), 'export const a = 3\n')
    sh(repo.ws, ['commit', '-q', '-am', 'loopgate: iteration 1\n\nLoopgate-Run: r1\nLoopgate-Iteration: 1'])
    const verified = sh(repo.ws, ['rev-parse', 'HEAD']).trim()
    const plan: EventPlan = {
      kind: 'pull-request',
      eventName: 'check_suite',
      number: pull.number,
      url: 'u',
      headBranch: 'feature',
      headSha: repo.head,
      baseBranch: 'main'
    }
    const result = await publisher(plan).publish(context(repo.ws, 'verified', repo.head, verified, { 'on-success': 'push' }))
    expect(result.error).toBeUndefined()
    expect(other.state).toBe('open')
  })

  it('`/loopgate retry` runs only on this loop’s own escalation issue, and reacts when it does', async () => {
    const own = gh.addIssue({ title: 'escalation', body: `${marker(LOOP)}\nbody` })
    const forged = gh.addIssue({ title: 'look-alike', body: `${marker(LOOP)}\nbody`, author: 'mallory' })
    const retry = (issue: typeof own, commentId: number): EventPlan => ({
      kind: 'branch',
      eventName: 'issue_comment',
      workBranch: `loopgate/${LOOP}`,
      baseBranch: 'main',
      trigger: {
        kind: 'retry',
        issue: { number: issue.number, body: issue.body, author: issue.author ?? null },
        author: 'maintainer',
        words: 'use tests/data',
        comment: { id: commentId, kind: 'issue-comment' }
      }
    })
    const settings = context(repo.ws, 'verified', repo.head, repo.head).settings
    const refused = await publisher(retry(forged, 5)).preflight(settings)
    expect(refused).toMatchObject({
      stopReason: 'nothing-to-do',
      notes: [expect.stringContaining(`issue #${forged.number} is not this loop's escalation issue`)]
    })
    expect(gh.reactions).toEqual([])
    expect(await publisher(retry(own, 6)).preflight(settings)).toBeNull()
    expect(gh.reactions).toEqual([{ subject: 'issue-comment', commentId: 6, content: 'eyes' }])
  })
})
