/**
 * PR review loops started by a comment or a failed check, and escalations that close, through the
 * bundled action as the runner runs it: GitHub's recorded webhook payloads
 * (@octokit/webhooks-examples) adapted to the local GitHub server's repository, pushes over git's
 * smart HTTP to a local server, the loop state through the real @actions/cache.
 */
import { createRequire } from 'node:module'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { runAction, type ActionRun } from './helpers/action-runner.js'
import { GitHttpServer } from './servers/git-http.js'
import { buggyProject, makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { useCacheService } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const TOKEN = 'ghs_threeJobsGitHubToken00000000000001'
const REPO_ID = 186853002
const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`
const LONG = 60_000

type Payload = Record<string, any>
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as { name: string; examples: Payload[] }[]

/** A recorded payload of GitHub's, moved to octo-org/octo-repo. */
function recorded(name: string, pick: (p: Payload) => boolean): Payload {
  const found = examples.find((e) => e.name === name)?.examples.find(pick)
  if (!found) throw new Error(`no recorded ${name} payload`)
  const payload = structuredClone(found)
  Object.assign(payload.repository, { id: REPO_ID, name: 'octo-repo', full_name: 'octo-org/octo-repo', default_branch: 'main' })
  payload.repository.owner.login = 'octo-org'
  return payload
}

/** `comment` posted by `login` on issue or pull request `number`. */
function commentEvent(number: number, login: string, comment: string, issue: { pull?: boolean; body?: string; author?: string } = {}): Payload {
  const payload = recorded('issue_comment', (p) => p.action === 'created')
  payload.issue.number = number
  payload.issue.body = issue.body ?? ''
  payload.issue.user.login = issue.author ?? 'contributor'
  if (issue.pull) payload.issue.pull_request = { url: `https://api.github.com/repos/octo-org/octo-repo/pulls/${number}` }
  else delete payload.issue.pull_request
  payload.comment.id = 7000 + number
  payload.comment.body = comment
  payload.comment.user.login = login
  payload.sender.login = login
  return payload
}

describe('PR review loops and escalations through the bundled action', () => {
  const svc = useCacheService()
  let gh: GitHubServer
  let git: GitHttpServer
  // The run link needs an http(s) GITHUB_SERVER_URL, on a `*.localhost` host: @actions/cache takes
  // any other host but github.com for GitHub Enterprise Server and turns itself off.
  let serverUrl: string
  let root: string
  let bare: string

  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN, collaborators: { 'octo-maintainer': 'admin', 'writer-w': 'write', 'drive-by': 'read' } })
    root = tempDir('loopgate-remote-')
    bare = path.join(root, 'octo-org', 'octo-repo.git')
    sh(root, ['init', '-q', '--bare', '-b', 'main', bare])
    sh(makeRepo(buggyProject()), ['push', '-q', bare, 'main'])
    git = new GitHttpServer(root, TOKEN)
    serverUrl = (await git.listen()).replace('127.0.0.1', 'git.localhost')
  })
  afterEach(async () => {
    await git.close()
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const tip = (branch: string): string => sh(bare, ['rev-parse', `refs/heads/${branch}`]).trim()

  /** The workspace as actions/checkout leaves it on `branch`. */
  function checkout(branch = 'main'): string {
    const parent = tempDir('loopgate-checkout-')
    sh(parent, ['clone', '-q', '-b', branch, bare, 'ws'])
    return path.join(parent, 'ws')
  }

  /** A pull request from the branch `feature` (one commit of its own), as the API answers it. */
  function featurePull(): ReturnType<GitHubServer['addPull']> {
    const seed = checkout()
    sh(seed, ['checkout', '-q', '-b', 'feature'])
    sh(seed, ['commit', '-q', '--allow-empty', '-m', 'a feature'])
    sh(seed, ['push', '-q', 'origin', 'feature'])
    return gh.addPull({ head: 'feature', headSha: tip('feature'), labels: [], author: 'contributor', title: 'A feature' })
  }

  const run = (opts: {
    eventName: string
    event: Payload
    actor?: string
    branch?: string
    inputs?: Record<string, string>
    runId?: string
  }): Promise<ActionRun> =>
    runAction({
      workspace: checkout(opts.branch),
      eventName: opts.eventName,
      event: opts.event,
      env: {
        ...svc.env(),
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: serverUrl,
        GITHUB_REF: 'refs/heads/main',
        GITHUB_ACTOR: opts.actor ?? 'octo-maintainer',
        ...(opts.runId ? { GITHUB_RUN_ID: opts.runId } : {})
      },
      inputs: {
        agent: 'command',
        prompt: 'Make the tests pass.',
        'gate-command': 'node test/run.mjs',
        'github-token': TOKEN,
        'call-budget-usd': '0.01',
        'spend-ceiling-usd': '1',
        ...opts.inputs
      }
    })

  /** A command agent that keeps each iteration's prompt and fixes add() from iteration `fixAt` on. */
  const agent = (dir: string, fixAt = 1): string =>
    `cp "$LOOPGATE_PROMPT_FILE" ${dir}/prompt-$LOOPGATE_ITERATION.txt; if [ "$LOOPGATE_ITERATION" -ge ${fixAt} ]; then ${FIX}; else date +%s%N > notes.txt; fi`

  it(
    'a /loopgate comment from a writer: a reaction, the words and unresolved threads in every prompt, one progress comment updated in place, a push to the PR branch',
    async () => {
      const pull = featurePull()
      const head = pull.headSha!
      gh.reviewThreads.push(
        { pr: pull.number, path: 'src/math.mjs', line: 2, isResolved: false, comments: [{ author: 'reviewer', body: 'add() subtracts: UNRESOLVED-THREAD' }] },
        { pr: pull.number, path: 'README.md', line: 1, isResolved: true, comments: [{ author: 'reviewer', body: 'ALREADY-DONE-THREAD' }] }
      )
      const prompts = sharedTempDir()
      const event = commentEvent(pull.number, 'writer-w', '/loopgate COMMAND-WORDS: make add() add', { pull: true })
      const r = await run({
        eventName: 'issue_comment',
        event,
        actor: 'writer-w',
        branch: 'feature',
        runId: '424242',
        inputs: { 'agent-command': agent(prompts, 2), 'on-success': 'push', 'max-iterations': '3' }
      })
      if (r.outputs['stop-reason'] !== 'verified') console.log(r.stdout, r.stderr)
      expect(r.outputs['stop-reason']).toBe('verified')
      expect(r.exitCode).toBe(0)

      // The triggering comment got a reaction when the run started.
      expect(gh.reactions).toEqual([{ subject: 'issue-comment', commentId: event.comment.id, content: 'eyes' }])
      const first = gh.requests.findIndex((q) => q.operationId === 'reactions/create-for-issue-comment')
      expect(first).toBeLessThan(gh.requests.findIndex((q) => q.operationId === 'issues/create-comment'))

      for (const n of [1, 2]) {
        const prompt = readFileSync(path.join(prompts, `prompt-${n}.txt`), 'utf8')
        expect(prompt).toContain('Make the tests pass.')
        expect(prompt).toContain('COMMAND-WORDS: make add() add')
        expect(prompt).toContain('src/math.mjs:2')
        expect(prompt).toContain('reviewer: add() subtracts: UNRESOLVED-THREAD')
        expect(prompt).not.toContain('ALREADY-DONE-THREAD')
        expect(prompt).not.toContain('README.md:1')
      }

      // One comment on the PR: created at the start, edited with each iteration, ending with the outcome and the run.
      expect(pull.comments).toHaveLength(1)
      expect(gh.requests.filter((q) => q.operationId === 'issues/create-comment')).toHaveLength(1)
      const edits = gh.requests.filter((q) => q.operationId === 'issues/update-comment')
      expect(edits.length).toBeGreaterThanOrEqual(3)
      expect((edits[0].body as { body: string }).body).toContain('is working on this pull request: 1 of at most 3 iteration(s)')
      const final = pull.comments[0]
      expect(final).toContain('verified')
      expect(final).toContain('pushed it to `feature`')
      expect(final).toContain(`${serverUrl}/octo-org/octo-repo/actions/runs/424242`)
      expect(final).not.toContain('is working on this pull request')

      // The verified work is on the PR branch, on top of its head.
      const pushed = tip('feature')
      expect(pushed).not.toBe(head)
      expect(sh(bare, ['merge-base', '--is-ancestor', head, pushed])).toBe('')
      expect(sh(bare, ['show', `${pushed}:src/math.mjs`])).toContain('a + b')
      expect(gh.pulls).toHaveLength(1)
    },
    LONG
  )

  it(
    'the same comment from a user without write permission starts nothing',
    async () => {
      const pull = featurePull()
      const marker = path.join(sharedTempDir(), 'called')
      const r = await run({
        eventName: 'issue_comment',
        event: commentEvent(pull.number, 'drive-by', '/loopgate COMMAND-WORDS: make add() add', { pull: true }),
        actor: 'drive-by',
        branch: 'feature',
        inputs: { 'agent-command': `touch ${marker}`, 'on-success': 'push' }
      })
      expect(r.outputs['stop-reason']).toBe('nothing-to-do')
      expect(r.outputs.outcome).toBe('skipped')
      expect(r.summary).toContain("drive-by has 'read' permission")
      expect(existsSync(marker)).toBe(false)
      expect(gh.reactions).toEqual([])
      expect(pull.comments).toEqual([])
      expect(tip('feature')).toBe(pull.headSha)
      expect(gh.requests.map((q) => q.operationId)).not.toContain('issues/create-comment')
    },
    LONG
  )

  /** The recorded event of a failed check on the pull request's head, adapted to it. */
  function failedCheckEvent(eventName: 'workflow_run' | 'check_suite', pr: number, head: string): Payload {
    const event = recorded(eventName, (p) => p.action === 'completed' && p[eventName].pull_requests.length > 0)
    const subject = event[eventName] as Payload
    Object.assign(subject, { id: eventName === 'workflow_run' ? 5151 : 6161, conclusion: 'failure', head_sha: head, head_branch: 'feature' })
    if (eventName === 'workflow_run') Object.assign(subject, { check_suite_id: 6161, name: 'CI' })
    subject.pull_requests = [
      {
        ...subject.pull_requests[0],
        number: pr,
        head: { ref: 'feature', sha: head, repo: { id: REPO_ID } },
        base: { ref: 'main', sha: tip('main'), repo: { id: REPO_ID } }
      }
    ]
    event.sender.login = 'octo-maintainer'
    return event
  }

  it.each([
    ['workflow_run', 'End of the log of the failing step "Run the tests":', 'actions/list-jobs-for-workflow-run'],
    ['check_suite', 'End of the log:', 'checks/list-for-suite']
  ] as const)(
    'a failed %s on a same-repository PR: the prompt carries the failing check’s annotations and log tail',
    async (eventName, logHeading, listing) => {
      const pull = featurePull()
      const head = pull.headSha!
      gh.checkRuns.push(
        {
          id: 9191,
          name: 'unit tests',
          conclusion: 'failure',
          headSha: head,
          suiteId: 6161,
          runId: 5151,
          annotations: [{ path: 'src/math.mjs', startLine: 2, level: 'failure', title: 'math adds two numbers', message: 'ANNOTATION: expected 5, got -1' }],
          steps: [
            { name: 'Checkout', conclusion: 'success' },
            { name: 'Run the tests', conclusion: 'failure' }
          ],
          log: '2026-01-01T00:00:00.0000000Z ##[group]Run the tests\n2026-01-01T00:00:01.0000000Z LOG-TAIL: ✕ math adds two numbers\n2026-01-01T00:00:02.0000000Z ##[error]Process completed with exit code 1.\n2026-01-01T00:00:03.0000000Z Post job cleanup.\n'
        },
        {
          id: 9192,
          name: 'lint',
          conclusion: 'success',
          headSha: head,
          suiteId: 6161,
          runId: 5151,
          annotations: [{ path: 'x.js', startLine: 1, level: 'warning', message: 'PASSING-CHECK' }]
        }
      )
      const prompts = sharedTempDir()
      const r = await run({
        eventName,
        event: failedCheckEvent(eventName, pull.number, head),
        branch: 'feature',
        inputs: { 'agent-command': agent(prompts), 'on-success': 'push' }
      })
      expect(r.outputs['stop-reason']).toBe('verified')
      const prompt = readFileSync(path.join(prompts, 'prompt-1.txt'), 'utf8')
      expect(prompt).toContain('### Failing check: unit tests (failure)')
      expect(prompt).toContain('src/math.mjs:2 [failure] math adds two numbers: ANNOTATION: expected 5, got -1')
      expect(prompt).toContain(logHeading)
      expect(prompt).toContain('LOG-TAIL: ✕ math adds two numbers\n##[error]Process completed with exit code 1.')
      expect(prompt).not.toContain('Post job cleanup')
      expect(prompt).not.toContain('PASSING-CHECK')
      expect(gh.requests.map((q) => q.operationId)).toEqual(
        expect.arrayContaining([listing, 'checks/list-annotations', 'actions/download-job-logs-for-workflow-run'])
      )
      expect(sh(bare, ['show', `${tip('feature')}:src/math.mjs`])).toContain('a + b')
    },
    LONG
  )

  it(
    'an escalation issue keeps one body and a comment per run; a maintainer’s retry carries the words, verifies, and closes it linking the PR',
    async () => {
      const loop = { 'loop-id': 'nightly', 'max-iterations': '1', 'escalate-to': 'octocat' }
      const stuck = { ...loop, 'agent-command': 'date +%s%N > work.txt' }
      const first = await run({ eventName: 'schedule', event: { schedule: '0 3 * * *' }, inputs: stuck })
      expect(first.outputs.outcome).toBe('escalated')
      expect(gh.issues).toHaveLength(1)
      const issue = gh.issues[0]
      expect(issue.comments).toHaveLength(0)
      expect(issue.body).toContain('**Stop reason: `max-iterations`.**')
      expect(issue.body).toContain('### Last gate failure')
      expect(issue.body).toContain('expected 5, got -1')
      expect(issue.body).toContain('**Spend so far across runs of this loop:** $0.01 over 1 run(s)')

      const second = await run({ eventName: 'schedule', event: { schedule: '0 3 * * *' }, inputs: stuck })
      expect(second.outputs.outcome).toBe('escalated')
      expect(second.stdout).toMatch(/Cache hit for restore-key: loopgate-nightly-\d+-1/)
      expect(gh.issues).toHaveLength(1)
      expect(issue.comments).toHaveLength(1)
      // Resumed from the WIP branch with the last failure carried: the same failure again.
      expect(issue.comments[0]).toContain('stopped: `same-failure`')
      expect(issue.body).toContain('**Stop reason: `same-failure`.**')
      expect(issue.body).toContain('**Spend so far across runs of this loop:** $0.02 over 2 run(s)')

      // A maintainer answers on the issue; the next run carries the words and verifies.
      const prompts = sharedTempDir()
      const retry = commentEvent(issue.number, 'octo-maintainer', '/loopgate retry RETRY-WORDS: the sign in add() is wrong', {
        body: issue.body,
        author: 'loopgate-bot'
      })
      const third = await run({ eventName: 'issue_comment', event: retry, inputs: { ...loop, 'agent-command': agent(prompts) } })
      if (third.outputs['stop-reason'] !== 'verified') console.log(third.stdout, third.stderr)
      expect(third.outputs['stop-reason']).toBe('verified')
      expect(gh.reactions).toEqual([{ subject: 'issue-comment', commentId: retry.comment.id, content: 'eyes' }])
      const prompt = readFileSync(path.join(prompts, 'prompt-1.txt'), 'utf8')
      expect(prompt).toContain('### What was asked (octo-maintainer, in a reply on escalation issue #1)')
      expect(prompt).toContain('RETRY-WORDS: the sign in add() is wrong')

      expect(gh.pulls).toHaveLength(1)
      const pr = third.outputs['pull-request-url']
      expect(pr).toBe(`https://github.com/octo-org/octo-repo/pull/${gh.pulls[0].number}`)
      expect(issue.comments).toHaveLength(2)
      expect(issue.comments[1]).toContain(`the work is in pull request ${pr}`)
      expect(issue.state).toBe('closed')
      const closing = gh.requests.find((q) => q.operationId === 'issues/update' && (q.body as { state?: string }).state === 'closed')
      expect(closing?.body).toMatchObject({ state: 'closed', state_reason: 'completed' })
    },
    LONG * 2
  )
})
