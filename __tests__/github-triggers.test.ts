import { createRequire } from 'node:module'
import { createClient } from '../src/github/client.js'
import { eventApi } from '../src/github/event-api.js'
import { planEvent, type EventPlan } from '../src/github/events.js'
import { commandWords, pullRequestNumberOf } from '../src/github/triggers.js'
import { readSettings } from '../src/inputs/read-settings.js'
import { type Settings } from '../src/settings.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

/**
 * Comment, review and failed-check events, from GitHub's recorded webhook payloads
 * (@octokit/webhooks-examples), planned against the local GitHub server (collaborator
 * permission, the pull request as it is now).
 */

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as unknown
const TOKEN = 'ghs_triggersTestToken000000000000000001'
const HEAD_SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'

type Payload = Record<string, any>

function recorded(name: string, pick: (p: Payload) => boolean): Payload {
  const entry = (examples as unknown as { name: string; examples: Payload[] }[]).find((e) => e.name === name)
  const found = entry?.examples.find(pick)
  if (!found) throw new Error(`no recorded ${name} payload`)
  return structuredClone(found)
}

function settings(extra: Record<string, string> = {}): Settings {
  const inputs: Record<string, string> = {
    agent: 'command',
    'agent-command': 'true',
    prompt: 'Address the review.',
    'gate-command': 'true',
    'loop-id': 'pr-fixer',
    ...extra
  }
  return readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: '/tmp' })
}

const notOurs = async (): Promise<boolean> => false

describe('comment and check triggers', () => {
  let gh: GitHubServer
  let api: ReturnType<typeof eventApi>
  beforeAll(async () => {
    // The recorded payloads' repository; issue #1 and pull request #2 as in them.
    gh = await startGitHubServer({ token: TOKEN, owner: 'Codertocat', repo: 'Hello-World' })
    gh.addIssue({ title: 'Spelling error in the README file', author: 'Codertocat', labels: [] })
    gh.addPull({ head: 'changes', base: 'master', headSha: HEAD_SHA, author: 'Codertocat', labels: [] })
    gh.permissions.Codertocat = 'write'
    gh.permissions.drive_by = 'read'
    api = eventApi(
      createClient(TOKEN, { GITHUB_API_URL: gh.url }, () => undefined),
      { owner: 'Codertocat', repo: 'Hello-World' }
    )
  })
  afterAll(async () => {
    expect(gh.violations).toEqual([])
    await gh.close()
  })

  const plan = (event: string, payload: Payload, extra: Record<string, string> = {}): Promise<EventPlan> =>
    planEvent({ settings: settings(extra), eventName: event, payload, env: {}, isOwnCommit: notOurs, api })

  it('reads the command and the words after it, only at the start of the comment', () => {
    expect(commandWords('/loopgate fix the flaky test\nplease', '/loopgate')).toBe('fix the flaky test\nplease')
    expect(commandWords('\n  /loopgate', '/loopgate')).toBe('')
    expect(commandWords('/loopgatex do it', '/loopgate')).toBeNull()
    expect(commandWords('please /loopgate do it', '/loopgate')).toBeNull()
    expect(commandWords(null, '/loopgate')).toBeNull()
  })

  it('a PR comment with the command from a writer works on the PR, the words and the comment kept', async () => {
    const payload = recorded('issue_comment', (p) => p.action === 'created')
    payload.issue.number = 2
    payload.issue.pull_request = { url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/2' }
    payload.comment.body = '/loopgate rename the helper as the review asks'
    const p = await plan('issue_comment', payload)
    expect(p).toMatchObject({
      kind: 'pull-request',
      number: 2,
      headBranch: 'changes',
      headSha: HEAD_SHA,
      baseBranch: 'master',
      trigger: {
        kind: 'command',
        event: 'issue_comment',
        author: 'Codertocat',
        words: 'rename the helper as the review asks',
        comment: { id: payload.comment.id, kind: 'issue-comment' }
      }
    })
    expect(pullRequestNumberOf('issue_comment', payload, '/loopgate')).toBe(2)
    // A configured command replaces the default.
    expect(await plan('issue_comment', payload, { 'comment-command': '/fixit' })).toMatchObject({
      kind: 'skip',
      message: expect.stringContaining('does not start with /fixit')
    })
  })

  it('skips users without write permission, edited comments and comments without the command', async () => {
    const payload = recorded('issue_comment', (p) => p.action === 'created')
    payload.issue.number = 2
    payload.issue.pull_request = { url: 'x' }
    payload.comment.body = '/loopgate do it'
    payload.comment.user.login = 'drive_by'
    expect(await plan('issue_comment', payload)).toMatchObject({ kind: 'skip', message: expect.stringContaining("drive_by has 'read' permission") })
    payload.comment.user.login = 'nobody-here'
    gh.fail('repos/get-collaborator-permission-level', 404)
    expect(await plan('issue_comment', payload)).toMatchObject({ kind: 'skip', message: expect.stringContaining("'none' permission") })
    const edited = recorded('issue_comment', (p) => p.action === 'edited')
    edited.comment.body = '/loopgate do it'
    expect(await plan('issue_comment', edited)).toMatchObject({ kind: 'skip', message: expect.stringContaining("action 'edited'") })
    const chatter = recorded('issue_comment', (p) => p.action === 'created')
    chatter.issue.pull_request = { url: 'x' }
    expect(await plan('issue_comment', chatter)).toMatchObject({ kind: 'skip', message: expect.stringContaining('does not start with /loopgate') })
  })

  it('a review comment and a submitted review with the command start a run on their PR', async () => {
    const comment = recorded('pull_request_review_comment', (p) => p.action === 'created')
    comment.comment.body = '/loopgate handle the null case here'
    expect(await plan('pull_request_review_comment', comment)).toMatchObject({
      kind: 'pull-request',
      number: 2,
      trigger: { kind: 'command', words: 'handle the null case here', comment: { id: comment.comment.id, kind: 'review-comment' } }
    })
    const review = recorded('pull_request_review', (p) => p.action === 'submitted')
    review.review.body = '/loopgate address every thread'
    expect(await plan('pull_request_review', review)).toMatchObject({
      kind: 'pull-request',
      number: 2,
      trigger: { kind: 'command', event: 'pull_request_review', words: 'address every thread', comment: null }
    })
  })

  it('a failed check suite or workflow run on a same-repository PR starts a run; success, forks and stale heads do not', async () => {
    const suite = recorded('check_suite', (p) => p.action === 'completed' && p.check_suite.pull_requests.length > 0)
    expect(await plan('check_suite', suite)).toMatchObject({ kind: 'skip', message: expect.stringContaining("concluded 'success'") })
    suite.check_suite.conclusion = 'failure'
    expect(await plan('check_suite', suite)).toMatchObject({
      kind: 'pull-request',
      number: 2,
      trigger: { kind: 'failed-check', checkSuiteId: suite.check_suite.id, workflowRunId: null, headSha: HEAD_SHA }
    })
    expect(pullRequestNumberOf('check_suite', suite, '/loopgate')).toBe(2)

    const run = recorded('workflow_run', (p) => p.action === 'completed' && p.workflow_run.pull_requests.length > 0)
    run.workflow_run.conclusion = 'failure'
    run.workflow_run.head_sha = HEAD_SHA
    run.repository.id = run.workflow_run.pull_requests[0].base.repo.id
    expect(await plan('workflow_run', run)).toMatchObject({
      kind: 'pull-request',
      number: 2,
      trigger: { kind: 'failed-check', workflowRunId: run.workflow_run.id }
    })

    const fork = structuredClone(run)
    fork.workflow_run.pull_requests[0].head.repo.id = 99
    expect(await plan('workflow_run', fork)).toMatchObject({
      kind: 'skip',
      message: expect.stringContaining('no pull request from a branch of this repository')
    })
    const stale = structuredClone(run)
    stale.workflow_run.head_sha = 'a'.repeat(40)
    expect(await plan('workflow_run', stale)).toMatchObject({ kind: 'skip', message: expect.stringContaining('has moved on') })
  })

  it('a PR whose head is in a fork is skipped even when the comment comes from a writer', async () => {
    const fork = gh.addPull({ head: 'their-branch', base: 'master', headRepo: 'someone/Hello-World', labels: [] })
    const payload = recorded('issue_comment', (p) => p.action === 'created')
    payload.issue.number = fork.number
    payload.issue.pull_request = { url: 'x' }
    payload.comment.body = '/loopgate go'
    expect(await plan('issue_comment', payload)).toMatchObject({ kind: 'skip', message: expect.stringContaining('comes from a fork (someone/Hello-World)') })
  })

  it('`/loopgate retry` on an issue plans the loop branch with the maintainer’s words; other issue commands are skipped', async () => {
    const payload = recorded('issue_comment', (p) => p.action === 'created')
    payload.comment.body = '/loopgate retry the fixture path changed in main; use tests/data instead'
    const p = await plan('issue_comment', payload)
    expect(p).toMatchObject({
      kind: 'branch',
      workBranch: 'loopgate/pr-fixer',
      baseBranch: 'master',
      trigger: {
        kind: 'retry',
        issue: { number: 1 },
        author: 'Codertocat',
        words: 'the fixture path changed in main; use tests/data instead',
        comment: { id: payload.comment.id }
      }
    })
    expect(pullRequestNumberOf('issue_comment', payload, '/loopgate')).toBeNull()
    payload.comment.body = '/loopgate do something'
    expect(await plan('issue_comment', payload)).toMatchObject({ kind: 'skip', message: expect.stringContaining('retry') })
  })

  it('refuses these events without the API (no token outside Actions)', async () => {
    const payload = recorded('pull_request_review', (p) => p.action === 'submitted')
    payload.review.body = '/loopgate go'
    expect(await planEvent({ settings: settings(), eventName: 'pull_request_review', payload, env: {}, isOwnCommit: notOurs })).toMatchObject({
      kind: 'refuse'
    })
  })
})
