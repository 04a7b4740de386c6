import { bareRemote, checkoutOf, tipOf } from './helpers/bare-remote.js'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { hangingSleep, killMarked } from './helpers/hanging-agent.js'
import { DIST_INDEX, runAction, runPost, type ActionRun } from './helpers/action-runner.js'
import { sh, tempDir } from './helpers/repo.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const TOKEN = 'ghs_e2eGitHubToken00000000000000000001'
const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`
/** The fix, with the summary line the prompt asks for as the agent's last output line. */
const FIX_WITH_SUMMARY = `${FIX} && echo 'Changed the operator in add().' && echo 'Summary: Make add() return the sum, fixes #7'`
const LOOP_BRANCH = 'loopgate/nightly-upgrade'

describe('the bundled action publishing to GitHub', () => {
  let gh: GitHubServer
  let server: string
  let bare: string

  beforeAll(() => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
    ;({ server, bare } = bareRemote())
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const run = (inputs: Record<string, string>, opts: { workspace?: string; eventName?: string; event?: unknown } = {}): Promise<ActionRun> =>
    runAction({
      workspace: opts.workspace ?? checkoutOf(bare),
      eventName: opts.eventName ?? 'schedule',
      event: opts.event ?? { schedule: '0 3 * * *' },
      env: { GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: `file://${server}`, GITHUB_REF: 'refs/heads/main' },
      inputs: {
        agent: 'command',
        prompt: 'Make add() add.',
        'gate-command': 'node test/run.mjs',
        'github-token': TOKEN,
        'call-budget-usd': '0.01',
        'spend-ceiling-usd': '1',
        ...inputs
      }
    })

  const noToken = (r: ActionRun): void => expect(`${r.stdout}${r.stderr}${r.summary}`).not.toContain(TOKEN)

  it('a scheduled success opens a PR; a second run updates it, never a second one', async () => {
    const first = await run({ 'agent-command': FIX_WITH_SUMMARY, labels: 'loopgate, deps', reviewers: 'octocat', draft: 'true', 'max-open-prs': '2' })
    expect(first.outputs['stop-reason']).toBe('verified')
    expect(first.exitCode).toBe(0)
    expect(gh.pulls).toHaveLength(1)
    const pull = gh.pulls[0]
    expect(pull).toMatchObject({ head: LOOP_BRANCH, base: 'main', draft: true, labels: ['loopgate', 'deps'], reviewers: ['octocat'] })
    expect(first.outputs['pull-request-url']).toBe(`https://github.com/octo-org/octo-repo/pull/${pull.number}`)
    const pushed = tipOf(bare, LOOP_BRANCH)
    expect(pushed).not.toBeNull()
    expect(sh(bare, ['show', `${pushed}:src/math.mjs`])).toContain('a + b')
    // Titled by the agent's summary line (its closing keyword removed); the body opens with what changed.
    expect(pull.title).toBe('Make add() return the sum')
    expect(pull.body).toContain('<!-- loopgate:loop-id=nightly-upgrade -->')
    expect(pull.body.indexOf('### What changed')).toBeGreaterThan(0)
    expect(pull.body.indexOf('### What changed')).toBeLessThan(pull.body.indexOf('### Verification'))
    expect(pull.body).toContain('| ` src/math.mjs ` | 1 | 1 |')
    expect(pull.body).toMatch(/> Changed the operator in add\(\)\.\n> Summary: Make add\(\) return the sum, f\u200bixes #\u200b7/)
    expect(pull.body).toContain('Make add() add.')
    expect(pull.body).toMatch(/The protected gate ` node test\/run\.mjs ` passed .* with the protected tests from the base `\w{12}` \(` origin\/HEAD `\)/)
    expect(pull.body).toContain('of the $1.00 ceiling')
    expect(pull.body).toContain('| # | agent | files | gate | cost |')
    expect(pull.body).toContain('**Attempt log:**')
    expect(pull.body).not.toContain('"type":"iteration"')
    expect(first.summary).toContain('```mermaid')
    expect(first.summary).toContain('xychart-beta')
    expect(first.summary).toMatch(/claimed done 1 time\(s\), the gate agreed 1 time\(s\)/)
    expect(first.stdout).toContain('::notice::loopgate stopped: verified')
    expect(first.stdout).toMatch(/::warning::loopgate: the artifact service is not available/)
    noToken(first)

    const second = await run({ 'agent-command': FIX, labels: 'loopgate, deps', 'max-open-prs': '2', prompt: 'Make add() add, again.' })
    expect(second.outputs['stop-reason']).toBe('verified')
    expect(second.exitCode).toBe(0)
    expect(gh.pulls).toHaveLength(1)
    expect(gh.requests.filter((r) => r.operationId === 'pulls/create')).toHaveLength(1)
    expect(gh.pulls[0].body).toContain('Make add() add, again.')
    expect(gh.pulls[0].comments).toHaveLength(1)
    expect(gh.pulls[0].comments[0]).toContain('verified')
    expect(tipOf(bare, LOOP_BRANCH)).not.toBe(pushed)
    noToken(second)
  })

  it('an escalation opens an issue that links the log, never inlines it; a second one comments on it', async () => {
    // Each iteration writes ~10 KB to the log: eight of them do not fit in a body.
    const agent = 'head -c 6000 /dev/urandom | base64 -w0; echo; date +%s%N > work.txt'
    const gate = 'node test/run.mjs && exit 0; head -c 3000 /dev/urandom | base64 -w0; exit 1'
    const inputs = { 'agent-command': agent, 'gate-command': gate, 'max-iterations': '8', 'same-failure-limit': '100', 'escalate-to': 'octocat' }
    const first = await run(inputs)
    if (first.outputs['stop-reason'] !== 'max-iterations') console.log(first.stdout, first.stderr)
    expect(first.outputs['stop-reason']).toBe('max-iterations')
    expect(first.outputs.outcome).toBe('escalated')
    expect(gh.issues).toHaveLength(1)
    const issue = gh.issues[0]
    expect(issue.labels).toContain('loopgate')
    expect(issue.assignees).toEqual(['octocat'])
    expect(issue.body).toContain('<!-- loopgate:loop-id=nightly-upgrade -->')
    expect(issue.body).toContain('`max-iterations`')
    expect(issue.body).toContain('loopgate/nightly-upgrade-wip')
    // Which control fired and what to change, then the last failure, then the attempts.
    const order = ['**Stop reason: `max-iterations`.**', '**What you can do:**', '### Last gate failure', '### Attempts', '**Attempt log:**'].map((s) =>
      issue.body.indexOf(s)
    )
    expect(order.every((n) => n > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(issue.body.length).toBeLessThanOrEqual(65536)
    expect(readFileSync(first.outputs['log-file'], 'utf8').length).toBeGreaterThan(65536)
    expect(issue.body).not.toContain('"type":"iteration"')
    expect(first.outputs['issue-url']).toBe(`https://github.com/octo-org/octo-repo/issues/${issue.number}`)
    const wip = tipOf(bare, 'loopgate/nightly-upgrade-wip')
    expect(wip).not.toBeNull()
    expect(sh(bare, ['show', `${wip}:work.txt`]).trim()).toMatch(/^\d+$/)
    noToken(first)

    const second = await run({ ...inputs, 'max-iterations': '1' })
    expect(second.outputs.outcome).toBe('escalated')
    expect(gh.issues).toHaveLength(1)
    expect(gh.issues[0].comments).toHaveLength(1)
    expect(gh.issues[0].comments[0]).toContain('stopped: `max-iterations`')
    expect(second.outputs['issue-url']).toBe(first.outputs['issue-url'])
  })

  it('review capacity stops before spending, with the open loop PRs linked', async () => {
    const open = gh.addPull({ head: LOOP_BRANCH, title: 'an unreviewed loop PR' })
    const ws = checkoutOf(bare)
    const r = await run({ 'agent-command': 'touch agent-was-called' }, { workspace: ws })
    expect(r.outputs['stop-reason']).toBe('review-capacity')
    expect(r.outputs.outcome).toBe('skipped')
    expect(r.outputs.iterations).toBe('0')
    expect(r.outputs['spend-usd']).toBe('0.00')
    expect(r.exitCode).toBe(0)
    expect(existsSync(path.join(ws, 'agent-was-called'))).toBe(false)
    expect(r.summary).toContain(`[#${open.number}](https://github.com/octo-org/octo-repo/pull/${open.number})`)
    expect(r.summary).toContain('max-open-prs')
    // Read-only checks before any spend: the loop's cache entries (its window and leases) and the open loop PRs (only a writer can cause a schedule, so no actor is checked).
    expect(gh.requests.map((q) => q.operationId)).toEqual(['actions/get-actions-cache-list', 'pulls/list'])
  })

  const pullRequestEvent = (number: number, headSha: string, headRepo = 'octo-org/octo-repo') => ({
    action: 'synchronize',
    number,
    pull_request: {
      number,
      html_url: `https://github.com/octo-org/octo-repo/pull/${number}`,
      head: { ref: 'feature', sha: headSha, repo: { full_name: headRepo } },
      base: { ref: 'main', sha: '0'.repeat(40), repo: { full_name: 'octo-org/octo-repo' } }
    },
    repository: { full_name: 'octo-org/octo-repo', default_branch: 'main' }
  })

  it('skips a pull request from a fork with a clear summary line', async () => {
    const ws = checkoutOf(bare)
    const r = await run(
      { 'agent-command': 'touch agent-was-called' },
      { workspace: ws, eventName: 'pull_request', event: pullRequestEvent(7, 'a'.repeat(40), 'forker/octo-repo') }
    )
    expect(r.outputs['stop-reason']).toBe('nothing-to-do')
    expect(r.outputs.outcome).toBe('skipped')
    expect(r.exitCode).toBe(0)
    expect(r.summary).toContain('comes from a fork (forker/octo-repo)')
    expect(existsSync(path.join(ws, 'agent-was-called'))).toBe(false)
    // Nothing but the read of the loop's cache entries (its leases).
    expect(gh.requests.map((q) => q.operationId)).toEqual(['actions/get-actions-cache-list'])
  })

  it('a PR loop pushes to the PR branch and comments', async () => {
    const seed = checkoutOf(bare)
    sh(seed, ['checkout', '-q', '-b', 'feature'])
    sh(seed, ['commit', '-q', '--allow-empty', '-m', 'a feature'])
    sh(seed, ['push', '-q', 'origin', 'feature'])
    const head = tipOf(bare, 'feature')!
    const pull = gh.addPull({ head: 'feature', labels: [] })
    const ws = checkoutOf(bare, 'feature')
    const r = await run(
      { 'agent-command': FIX, 'on-success': 'push', 'on-escalate': 'comment' },
      { workspace: ws, eventName: 'pull_request', event: pullRequestEvent(pull.number, head) }
    )
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(r.exitCode).toBe(0)
    const pushed = tipOf(bare, 'feature')!
    expect(pushed).not.toBe(head)
    expect(sh(bare, ['rev-parse', `${pushed}~1`]).trim()).toBe(head)
    expect(sh(bare, ['log', '-1', '--format=%B', pushed])).toContain('Loopgate-Run:')
    expect(pull.comments).toHaveLength(1)
    expect(pull.comments[0]).toContain('pushed it to `feature`')
    expect(gh.pulls).toHaveLength(1)
    expect(r.outputs['pull-request-url']).toBe(`https://github.com/octo-org/octo-repo/pull/${pull.number}`)

    // The push re-triggers the workflow: loopgate's own newest commit is skipped.
    const again = await run(
      { 'agent-command': 'touch agent-was-called', 'on-success': 'push' },
      { workspace: checkoutOf(bare, 'feature'), eventName: 'pull_request', event: pullRequestEvent(pull.number, pushed) }
    )
    expect(again.outputs['stop-reason']).toBe('nothing-to-do')
    expect(again.summary).toContain("is loopgate's own and no one has pushed since")
  })

  it('a PR loop that escalates comments on the PR, with no issue', async () => {
    const seed = checkoutOf(bare)
    sh(seed, ['checkout', '-q', '-b', 'feature'])
    sh(seed, ['commit', '-q', '--allow-empty', '-m', 'a feature'])
    sh(seed, ['push', '-q', 'origin', 'feature'])
    const pull = gh.addPull({ head: 'feature', labels: [] })
    const r = await run(
      { 'agent-command': 'date +%s%N > work.txt', 'max-iterations': '1', 'on-success': 'push', 'on-escalate': 'comment' },
      { workspace: checkoutOf(bare, 'feature'), eventName: 'pull_request', event: pullRequestEvent(pull.number, tipOf(bare, 'feature')!) }
    )
    expect(r.outputs['stop-reason']).toBe('max-iterations')
    expect(r.outputs.outcome).toBe('escalated')
    expect(gh.issues).toHaveLength(0)
    expect(pull.comments).toHaveLength(1)
    expect(pull.comments[0]).toContain('stopped: `max-iterations`')
    expect(pull.comments[0]).toContain('loopgate/nightly-upgrade-wip')
    expect(tipOf(bare, 'loopgate/nightly-upgrade-wip')).not.toBeNull()
  })

  it('a token without pull-requests: write fails clearly, and the branch is still pushed', async () => {
    gh.deny('pulls/create')
    const r = await run({ 'agent-command': FIX })
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(r.exitCode).not.toBe(0)
    expect(r.stdout).toContain('::error::')
    expect(r.stdout).toContain('pull-requests: write')
    expect(r.summary).toContain('Publishing failed')
    expect(r.summary).toContain('<summary>Attempt log')
    expect(r.summary).toContain('"type":"iteration"')
    const pushed = tipOf(bare, LOOP_BRANCH)
    expect(pushed).not.toBeNull()
    expect(sh(bare, ['show', `${pushed}:src/math.mjs`])).toContain('a + b')
    expect(existsSync(r.outputs['log-file'])).toBe(true)
    noToken(r)
  })

  it('a token without contents: write fails with the permission to add, and opens no PR', async () => {
    const hook = path.join(bare, 'hooks', 'pre-receive')
    writeFileSync(hook, '#!/bin/sh\necho "Permission to octo-org/octo-repo.git denied to github-actions[bot]." >&2\nexit 1\n', { mode: 0o755 })
    const r = await run({ 'agent-command': FIX })
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(r.exitCode).not.toBe(0)
    expect(r.stdout).toContain('contents: write')
    expect(gh.pulls).toHaveLength(0)
    expect(tipOf(bare, LOOP_BRANCH)).toBeNull()
  })

  it('after a kill mid-call, the post step pushes the unfinished work to the -wip branch', async () => {
    const ws = checkoutOf(bare)
    const hang = hangingSleep(tempDir('loopgate-pid-'))
    const env = { GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: `file://${server}`, GITHUB_REF: 'refs/heads/main' }
    const inputs = {
      agent: 'command',
      prompt: 'x',
      'gate-command': 'node test/run.mjs',
      'github-token': TOKEN,
      'call-budget-usd': '0.01',
      'spend-ceiling-usd': '1',
      'agent-command': `echo half done > WORK.md; ${hang.exec}`
    }
    const main = await runAction({
      workspace: ws,
      eventName: 'schedule',
      event: {},
      env,
      inputs,
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (existsSync(path.join(ws, 'WORK.md'))) {
            clearInterval(timer)
            child.kill('SIGKILL')
          }
        }, 100)
      }
    })
    expect(main.signal).toBe('SIGKILL')
    killMarked(hang.marker)
    const post = await runPost(main, { workspace: ws, eventName: 'schedule', event: {}, env, inputs })
    expect(post.exitCode).toBe(0)
    const wip = tipOf(bare, 'loopgate/nightly-upgrade-wip')
    expect(wip).not.toBeNull()
    expect(sh(bare, ['show', `${wip}:WORK.md`])).toBe('half done\n')
    noToken(post)
  })

  it('retries a 502 and then succeeds', async () => {
    gh.fail('pulls/create', 502, 1)
    const r = await run({ 'agent-command': FIX })
    expect(r.exitCode).toBe(0)
    expect(gh.requests.filter((q) => q.operationId === 'pulls/create').map((q) => q.status)).toEqual([502, 201])
    expect(gh.pulls).toHaveLength(1)
  })

  it('waits out a secondary rate limit and then succeeds', async () => {
    gh.fail('issues/create', 403, 1, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', { 'retry-after': '1' })
    const r = await run({ 'agent-command': 'true', 'max-iterations': '1' })
    expect(r.outputs.outcome).toBe('escalated')
    expect(gh.requests.filter((q) => q.operationId === 'issues/create').map((q) => q.status)).toEqual([403, 201])
    expect(gh.issues).toHaveLength(1)
    expect(r.stdout).toContain('secondary rate limit')
  })

  it('refuses pull_request_target unless allowed', async () => {
    const r = await run({ 'agent-command': 'true' }, { eventName: 'pull_request_target', event: pullRequestEvent(3, 'b'.repeat(40)) })
    expect(r.outputs['stop-reason']).toBe('config-error')
    expect(r.exitCode).not.toBe(0)
    expect(r.stdout).toContain('allow-pull-request-target')
  })
})
