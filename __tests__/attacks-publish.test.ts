import { GitRepository } from '../src/git/repository.js'
import MarkdownIt from 'markdown-it'
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { remoteFromEnv } from '../src/git/clean-clone.js'
import { createClient } from '../src/github/client.js'
import type { EventPlan } from '../src/github/events.js'
import { GitHubPublisher } from '../src/publish/github/publisher.js'
import { readSettings } from '../src/inputs/read-settings.js'
import type { IterationRecord, RunOutcome } from '../src/loop/engine-types.js'
import type { GateVerdict } from '../src/loop/engine-types.js'
import { escalationBody } from '../src/publish/escalation-body.js'
import { marker } from '../src/publish/body-parts.js'
import { pullRequestBody } from '../src/publish/pull-request-body.js'
import { runComment } from '../src/publish/comment-bodies.js'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import type { PublishContext } from '../src/publish/publisher-types.js'
import { runSummary } from '../src/report/markdown.js'
import { startGitHubServer, type GitHubServer, type GitHubServerOptions } from './github-server/server.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

/**
 * Publishing attacked as an agent (or anyone who can write an issue) would: rewriting a pull
 * request's history, hijacking the loop's escalation issue, and injecting into bodies.
 */

const TOKEN = 'ghs_attacksPublishToken0000000000000001'
const LOOP = 'nightly'
const REPOSITORY = 'octo-org/octo-repo'

/** A bare remote at <server>/octo-org/octo-repo.git with `main`. */
function remote(): { server: string; bare: string } {
  const server = tempDir('loopgate-remote-')
  const bare = path.join(server, 'octo-org', 'octo-repo.git')
  const seed = makeRepo({ 'src/a.js': 'export const a = 1\n' })
  sh(server, ['init', '-q', '--bare', '-b', 'main', bare])
  sh(seed, ['push', '-q', bare, 'main'])
  return { server, bare }
}

function clone(bare: string, branch = 'main'): string {
  const parent = tempDir('loopgate-ws-')
  sh(parent, ['clone', '-q', '-b', branch, bare, 'ws'])
  return path.join(parent, 'ws')
}

function tip(bare: string, branch: string): string | null {
  try {
    return sh(bare, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]).trim()
  } catch {
    return null
  }
}

function commitFile(dir: string, file: string, text: string, message: string, author?: string): string {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
  sh(dir, ['add', '-A'])
  sh(dir, ['commit', '-q', '-m', message, ...(author ? ['--author', author] : [])])
  return sh(dir, ['rev-parse', 'HEAD']).trim()
}

const loopCommitMessage = (n: number): string => `loopgate: iteration ${n}\n\nLoopgate-Run: r${n}\nLoopgate-Iteration: ${n}\n`

function verdict(over: Partial<GateVerdict> = {}): GateVerdict {
  return { passed: true, reason: 'exit 0', exitCode: 0, timedOut: false, failures: [], fingerprint: null, outputTail: 'ok', durationMs: 10, ...over }
}

function iteration(n: number, commit: string | null, over: Partial<IterationRecord> = {}): IterationRecord {
  return {
    iteration: n,
    startedAt: 0,
    endedAt: 1,
    agent: { status: 'claimed-done', reason: 'exit code 0', costUsd: 0, costSource: 'reported', turns: 1 },
    chargedUsd: 0.01,
    spentUsd: 0.01 * n,
    commit,
    changedFiles: ['src/a.js'],
    stat: { files: 1, insertions: 1, deletions: 1 },
    gate: verdict(),
    gateRan: true,
    rejected: [],
    tampered: false,
    evidence: [],
    decision: 'continue',
    ...over
  } as IterationRecord
}

function context(opts: {
  workspace: string
  stopReason: RunOutcome['stopReason']
  startCommit: string
  headCommit: string
  iterations?: IterationRecord[]
  lastVerdict?: GateVerdict | null
  inputs?: Record<string, string>
}): PublishContext {
  const runDir = tempDir('loopgate-run-')
  const logFile = path.join(runDir, 'attempts.jsonl')
  writeFileSync(logFile, `${JSON.stringify({ type: 'iteration', iteration: 1 })}\n`)
  const inputs: Record<string, string> = {
    agent: 'command',
    'agent-command': 'true',
    prompt: 'Make a equal 2.',
    'gate-command': 'npm test',
    'loop-id': LOOP,
    'spend-ceiling-usd': '1',
    'call-budget-usd': '0.1',
    ...opts.inputs
  }
  const settings = readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: opts.workspace })
  const verified = opts.stopReason === 'verified'
  const outcome = {
    stopReason: opts.stopReason,
    iterations: opts.iterations ?? [iteration(1, opts.headCommit)],
    spentUsd: 0.01,
    startCommit: opts.startCommit,
    headCommit: opts.headCommit,
    verifiedCommit: verified ? opts.headCommit : null,
    lastVerdict: opts.lastVerdict ?? null,
    lastEvidence: [],
    claimedDone: 1,
    gateAgreed: verified ? 1 : 0,
    startedAt: 0,
    endedAt: 1
  } as unknown as RunOutcome
  return { settings: { ...settings, workspace: opts.workspace }, outcome, repository: GitRepository.plain(opts.workspace), runDir, logFile, progressText: '' }
}

interface Harness {
  gh: GitHubServer
  server: string
  bare: string
  warnings: string[]
  publisher(plan: EventPlan, recorded?: number[]): GitHubPublisher
}

const harnesses: Harness[] = []

async function harness(serverOpts: Partial<GitHubServerOptions> = {}): Promise<Harness> {
  const gh = await startGitHubServer({ token: TOKEN, ...serverOpts })
  const { server, bare } = remote()
  const warnings: string[] = []
  const h: Harness = {
    gh,
    server,
    bare,
    warnings,
    publisher: (plan, recorded = []) =>
      new GitHubPublisher({
        plan,
        client: createClient(TOKEN, { GITHUB_API_URL: gh.url }, (m) => warnings.push(m)),
        repo: { owner: 'octo-org', repo: 'octo-repo' },
        remote: remoteFromEnv({ GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: REPOSITORY }, TOKEN),
        env: {},
        tempDir: tempDir('loopgate-publish-'),
        warn: (m) => warnings.push(m),
        recorded
      })
  }
  harnesses.push(h)
  return h
}

afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.gh.close()
    expect(h.gh.violations).toEqual([])
  }
})

const branchPlan: EventPlan = { kind: 'branch', eventName: 'schedule', workBranch: `loopgate/${LOOP}`, baseBranch: 'main' }

describe('a push to a pull request branch never rewrites its history', () => {
  /** A contributor's PR branch `feature` (two commits) and a workspace checked out on it. */
  function pullRequestBranch(h: Harness): { ws: string; head: string; plan: EventPlan; contributorCommits: string[] } {
    const seed = clone(h.bare)
    sh(seed, ['checkout', '-q', '-b', 'feature'])
    const c1 = commitFile(seed, 'src/b.js', 'export const b = 1\n', 'contributor: add b', 'Contributor <contributor@example.com>')
    const c2 = commitFile(seed, 'src/c.js', 'export const c = 1\n', 'contributor: add c', 'Contributor <contributor@example.com>')
    sh(seed, ['push', '-q', 'origin', 'feature'])
    const pull = h.gh.addPull({ head: 'feature', labels: [], author: 'contributor' })
    const plan: EventPlan = {
      kind: 'pull-request',
      eventName: 'pull_request',
      number: pull.number,
      url: `https://github.com/${REPOSITORY}/pull/${pull.number}`,
      headBranch: 'feature',
      headSha: c2,
      baseBranch: 'main'
    }
    return { ws: clone(h.bare, 'feature'), head: c2, plan, contributorCommits: [c1, c2] }
  }

  it('refuses a verified commit made by `git reset --soft <merge-base>` with a workflow and a forged author, and escalates', async () => {
    const h = await harness()
    const { ws, head, plan, contributorCommits } = pullRequestBranch(h)
    // The agent's attack: squash the contributor's commits away, add a workflow, forge the author.
    const mergeBase = sh(ws, ['merge-base', 'HEAD', 'origin/main']).trim()
    sh(ws, ['reset', '-q', '--soft', mergeBase])
    writeFileSync(path.join(ws, 'src', 'a.js'), 'export const a = 2\n')
    const forged = commitFile(ws, '.github/workflows/ci-helper.yml', 'on: push\njobs: {}\n', 'contributor: add c', 'Contributor <contributor@example.com>')
    const verified = commitFile(ws, 'src/a.js', 'export const a = 2 // done\n', loopCommitMessage(1))
    expect(sh(ws, ['log', '--format=%H', verified])).not.toContain(contributorCommits[0])

    const ctx = context({
      workspace: ws,
      stopReason: 'verified',
      startCommit: head,
      headCommit: verified,
      iterations: [iteration(1, forged), iteration(2, verified)],
      inputs: { 'on-success': 'push', 'on-escalate': 'comment' }
    })
    const result = await h.publisher(plan).publish(ctx)

    expect(tip(h.bare, 'feature')).toBe(head)
    const history = sh(h.bare, ['log', '--format=%H', 'feature'])
    for (const c of contributorCommits) expect(history).toContain(c)
    expect(sh(h.bare, ['ls-tree', '-r', '--name-only', 'feature'])).not.toContain('ci-helper.yml')
    expect(tip(h.bare, `loopgate/${LOOP}-wip`)).toBeNull()
    expect(result.error).toMatch(/refused to push to feature: the verified commit \w+ does not descend from/)
    expect(result.branch).toBeUndefined()
    expect(result.notes.join('\n')).toContain('Nothing was pushed')
    const pull = h.gh.pulls.find((p) => p.number === (plan as { number: number }).number)!
    expect(pull.comments).toHaveLength(1)
    expect(pull.comments[0]).toContain('**Publishing refused.**')
    expect(pull.comments[0]).not.toContain('pushed it to')
  })

  it('with on-escalate: issue, the refusal opens an escalation issue', async () => {
    const h = await harness()
    const { ws, head, plan } = pullRequestBranch(h)
    const orphan = sh(ws, ['commit-tree', '-m', 'unrelated', `${sh(ws, ['rev-parse', 'HEAD^{tree}']).trim()}`]).trim()
    const ctx = context({
      workspace: ws,
      stopReason: 'verified',
      startCommit: head,
      headCommit: orphan,
      inputs: { 'on-success': 'push', 'on-escalate': 'issue' }
    })
    const result = await h.publisher(plan).publish(ctx)
    expect(tip(h.bare, 'feature')).toBe(head)
    expect(result.error).toContain('does not descend from')
    expect(h.gh.issues).toHaveLength(1)
    expect(h.gh.issues[0].title).toBe('loopgate: Make a equal 2 — publishing refused')
    expect(h.gh.issues[0].body).toContain('Nothing was pushed')
  })

  it('still pushes verified work that builds on the pull request head, with the lease', async () => {
    const h = await harness()
    const { ws, head, plan } = pullRequestBranch(h)
    const verified = commitFile(ws, 'src/a.js', 'export const a = 2\n', loopCommitMessage(1))
    const ctx = context({
      workspace: ws,
      stopReason: 'verified',
      startCommit: head,
      headCommit: verified,
      inputs: { 'on-success': 'push', 'on-escalate': 'comment' }
    })
    const result = await h.publisher(plan).publish(ctx)
    expect(result.error).toBeUndefined()
    expect(tip(h.bare, 'feature')).toBe(verified)
    expect(sh(h.bare, ['rev-parse', `${verified}~1`]).trim()).toBe(head)
  })

  it('a WIP push never drops commits someone else pushed to the WIP branch, but replaces loopgate’s own', async () => {
    const h = await harness()
    const wip = `loopgate/${LOOP}-wip`
    const person = clone(h.bare)
    sh(person, ['checkout', '-q', '-b', wip])
    commitFile(person, 'src/a.js', 'export const a = 3\n', loopCommitMessage(1))
    const human = commitFile(person, 'NOTES.md', 'a person continued here\n', 'a human continues the work')
    sh(person, ['push', '-q', 'origin', wip])

    const ws = clone(h.bare)
    const start = sh(ws, ['rev-parse', 'HEAD']).trim()
    const head = commitFile(ws, 'src/a.js', 'export const a = 4\n', loopCommitMessage(1))
    const ctx = context({
      workspace: ws,
      stopReason: 'max-iterations',
      startCommit: start,
      headCommit: head,
      lastVerdict: verdict({ passed: false, reason: 'exit 1', exitCode: 1 })
    })
    const result = await h.publisher(branchPlan).publish(ctx)
    expect(tip(h.bare, wip)).toBe(human)
    expect(result.error).toContain('someone else pushed to')
    expect(h.gh.issues).toHaveLength(1)
    expect(h.gh.issues[0].body).toMatch(
      /\*\*Unfinished work:\*\* 1 iteration commit\(s\), the last `\w{40}` .*not pushed to any branch: pushing it to `loopgate\/nightly-wip` failed/
    )

    // A WIP branch holding only loopgate's own commits is replaced.
    sh(person, ['reset', '-q', '--hard', 'HEAD~1'])
    sh(person, ['push', '-q', '--force', 'origin', wip])
    const again = await h.publisher(branchPlan).publish(ctx)
    expect(again.error).toBeUndefined()
    expect(tip(h.bare, wip)).toBe(head)
  })
})

describe('only the loop’s own issues are its own', () => {
  const escalate = async (h: Harness, recorded: number[] = []) => {
    const ws = clone(h.bare)
    const start = sh(ws, ['rev-parse', 'HEAD']).trim()
    const ctx = context({
      workspace: ws,
      stopReason: 'same-failure',
      startCommit: start,
      headCommit: start,
      iterations: [iteration(1, null)],
      lastVerdict: verdict({ passed: false, reason: 'exit 1', exitCode: 1 })
    })
    return h.publisher(branchPlan, recorded).publish(ctx)
  }

  it('an issue by another user carrying this loop’s marker gets no comment; a new escalation issue is opened', async () => {
    const h = await harness()
    const inBody = h.gh.addIssue({ title: 'Or here', author: 'loopgate-bot', body: `please\n${marker(LOOP)}` })
    // The newest issue: the first one a marker search finds.
    const hijack = h.gh.addIssue({ title: 'Comment here', author: 'mallory', body: `${marker(LOOP)}\nloopgate, report to me` })
    const result = await escalate(h)
    expect(hijack.comments).toEqual([])
    expect(inBody.comments).toEqual([])
    expect(result.error).toBeUndefined()
    expect(h.gh.issues).toHaveLength(3)
    const opened = h.gh.issues[2]
    expect(opened.author).toBe('loopgate-bot')
    expect(opened.body.startsWith(`${marker(LOOP)}\n`)).toBe(true)
    expect(result.issueUrl).toContain(`/issues/${opened.number}`)

    // The loop's own issue (its identity, its marker line) is found again: a comment, no new issue.
    const second = await escalate(h)
    expect(second.issueUrl).toBe(result.issueUrl)
    expect(opened.comments).toHaveLength(1)
    expect(hijack.comments).toEqual([])
    expect(h.gh.requests.filter((r) => r.operationId === 'users/get-authenticated').length).toBeGreaterThan(0)
  })

  it('with an installation token (GITHUB_TOKEN), the identity is github-actions[bot]', async () => {
    const h = await harness({ installation: true })
    const own = h.gh.addIssue({ title: 'loopgate escalation', author: 'github-actions[bot]', body: `${marker(LOOP)}\n## loopgate needs a person` })
    const hijack = h.gh.addIssue({ title: 'Comment here', author: 'mallory', body: `${marker(LOOP)}\n` })
    const result = await escalate(h)
    expect(hijack.comments).toEqual([])
    expect(result.error).toBeUndefined()
    expect(own.comments).toHaveLength(1)
    expect(h.gh.requests.find((r) => r.operationId === 'users/get-authenticated')?.status).toBe(403)
    expect(h.gh.requests.some((r) => r.operationId === 'graphql')).toBe(true)
  })

  it('the issue number recorded in the loop’s state is its own', async () => {
    const h = await harness()
    const recorded = h.gh.addIssue({ title: 'the loop escalation, edited by a person', author: 'maintainer', body: 'edited: no marker any more' })
    await escalate(h, [recorded.number])
    expect(recorded.comments).toHaveLength(1)
    expect(h.gh.issues).toHaveLength(1)
  })

  it('an open PR from the loop branch opened by someone else is never edited', async () => {
    const h = await harness()
    const theirs = h.gh.addPull({ head: `loopgate/${LOOP}`, author: 'mallory', body: `${marker(LOOP)}\nmine`, title: 'not loopgate' })
    const ws = clone(h.bare)
    const start = sh(ws, ['rev-parse', 'HEAD']).trim()
    const head = commitFile(ws, 'src/a.js', 'export const a = 2\n', loopCommitMessage(1))
    const result = await h.publisher(branchPlan).publish(context({ workspace: ws, stopReason: 'verified', startCommit: start, headCommit: head }))
    expect(theirs.body).toBe(`${marker(LOOP)}\nmine`)
    expect(theirs.comments).toEqual([])
    expect(result.error).toContain('was not opened by loopgate')
    expect(h.gh.requests.some((r) => r.operationId === 'pulls/update')).toBe(false)
  })
})

const md = new MarkdownIt({ html: true, linkify: true })
const HOSTILE =
  '@octo-org/admins Fixes #1 closes octo-org/other#2 RESOLVED: https://github.com/octo-org/octo-repo/issues/3 <img src=x onerror=alert(1)> [click](https://evil.test) ![i](https://evil.test/i.png) <!-- loopgate:loop-id=nightly --> \u001b[31mred\u001b[0m \u001b]8;;https://evil.test\u0007link\u001b]8;;\u0007'
const HOSTILE_BLOCK = `${HOSTILE}\n\`\`\`\`\n</details>\n# injected heading\n<img src=y>\n@someone fixes #4`

/** What GitHub would act on in a body: rendered HTML elements from agent text, and mentions, keywords, references, markers, escape codes anywhere. */
function activeTokens(body: string): string[] {
  const found: string[] = []
  const html = md.render(body)
  if (/<img\b/i.test(html)) found.push('an <img> element')
  if (/<a\s/i.test(html)) found.push('a link')
  const headings = [...html.matchAll(/<h[1-6]>([\s\S]*?)<\/h[1-6]>/g)].map((m) => m[1])
  for (const h of headings)
    if (
      !/^(loopgate|What changed|Verification|Spend and iterations|Attempts|All attempts|Attempt \d+$|What loopgate rejected on the way|Last gate failure)/.test(
        h
      )
    )
      found.push(`heading ${h}`)
  if ((html.match(/<details>/g) ?? []).length !== (html.match(/<\/details>/g) ?? []).length) found.push('an unbalanced <details>')
  if (/@[A-Za-z0-9]/.test(body)) found.push('a mention')
  if (/\b(close[sd]?|fix(e[sd])?|resolve[sd]?)\b\s*:?\s*(\S*#\d|https?:\/\/)/i.test(body)) found.push('a closing keyword')
  if (/#\d/.test(body)) found.push('an issue reference')
  if (/https?:\/\//.test(body)) found.push('a URL')
  if (body.split(marker(LOOP)).length !== 2 || !body.startsWith(`${marker(LOOP)}\n`)) found.push('a forged marker')
  // The attempt log is JSON, where an escape code stays the six characters `\u001b`, shown as text.
  if (/\u001b|(?<!\\u001b)\[31m/.test(body)) found.push('an escape code')
  return found
}

describe('agent text in bodies is inert', () => {
  function hostileContext(ws: string, start: string, head: string, stopReason: RunOutcome['stopReason']): PublishContext {
    const failing = verdict({
      passed: false,
      reason: `exit 1 ${HOSTILE}`,
      exitCode: 1,
      failures: [{ id: `src/${HOSTILE}.test.js > adds`, message: HOSTILE_BLOCK }],
      fingerprint: 'abc123',
      outputTail: HOSTILE_BLOCK
    })
    const passing = verdict({ outputTail: HOSTILE_BLOCK, reason: `exit 0 ${HOSTILE}` })
    const record = iteration(1, head, {
      agent: {
        status: 'error',
        reason: HOSTILE,
        costUsd: 0,
        costSource: 'reported',
        turns: 1,
        finalText: `${HOSTILE_BLOCK}\nSummary: ${HOSTILE}`
      } as unknown as IterationRecord['agent'],
      rejected: [`${HOSTILE}.js (protected)`, `test id ${HOSTILE}`],
      gate: stopReason === 'verified' ? passing : failing
    })
    const ctx = context({
      workspace: ws,
      stopReason,
      startCommit: start,
      headCommit: head,
      iterations: [record],
      lastVerdict: stopReason === 'verified' ? passing : failing,
      inputs: { prompt: `Task from an event: ${HOSTILE_BLOCK}` }
    })
    writeFileSync(ctx.logFile, `${JSON.stringify({ type: 'iteration', rejected: record.rejected, message: HOSTILE_BLOCK })}\n`)
    return ctx
  }

  it('a rejected file name, test id and message carrying mentions, keywords, HTML, a marker and ANSI codes publish as text', async () => {
    const h = await harness()
    const ws = clone(h.bare)
    const start = sh(ws, ['rev-parse', 'HEAD']).trim()
    commitFile(ws, 'src/a.js', 'export const a = 2\n', loopCommitMessage(1))
    // A file the agent named: it reaches the pull request's list of changed files.
    const head = commitFile(
      ws,
      'src/@octo-org Fixes #1 <img src=x onerror=alert(1)> `x` | [a](https:\\evil.test) <!-- loopgate:loop-id=nightly -->.js',
      'x\n',
      loopCommitMessage(2)
    )

    await h.publisher(branchPlan).publish(hostileContext(ws, start, head, 'max-iterations'))
    const issue = h.gh.issues[0]
    expect(activeTokens(issue.body)).toEqual([])
    await h.publisher(branchPlan).publish(hostileContext(ws, start, head, 'verified'))
    expect(h.gh.pulls).toHaveLength(1)
    expect(activeTokens(h.gh.pulls[0].body)).toEqual([])
    expect(h.gh.pulls[0].body).toContain('2 file(s), +2/−1')
    // The agent's file name is one cell of code, its `|` kept from splitting the row.
    expect(md.render(h.gh.pulls[0].body)).toMatch(
      /<td><code>src\/@\u200bocto-org [^<]*&lt;img src=x onerror=alert\(1\)&gt; `x` \| \[a\][^<]*\.js<\/code><\/td>\s*<td[^>]*>1<\/td>/
    )
    // The title is the agent's summary with everything GitHub (or a squash merge) would act on removed.
    expect(h.gh.pulls[0].title).not.toMatch(/@|#\d|:\/\/|<|loopgate:|\u001b|\[|\*\*/i)
    expect(h.gh.pulls[0].title).toMatch(/^octo-org\/admins RESOLVED\b/)
    // The verified run closed the escalation issue (its closing comment is loopgate's own text); a maintainer reopens it.
    expect(issue.state).toBe('closed')
    issue.state = 'open'
    await h.publisher(branchPlan).publish(hostileContext(ws, start, head, 'max-iterations'))
    expect(issue.comments).toHaveLength(2)
    expect(activeTokens(issue.comments[1])).toEqual([])
    expect(activeTokens(issue.body)).toEqual([])

    // Still readable: the text is there, shown rather than acted on.
    const html = md.render(issue.body)
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('octo-org/admins')
    expect(html).toContain('red')
  })

  it('every body and the step summary render the same hostile text inertly', () => {
    const ws = makeRepo({ 'a.txt': 'a\n' })
    const head = sh(ws, ['rev-parse', 'HEAD']).trim()
    const failed = hostileContext(ws, head, head, 'same-failure')
    const verified = hostileContext(ws, head, head, 'verified')
    for (const body of [pullRequestBody(verified), escalationBody(failed), runComment(failed, {}), runComment(verified, {})]) {
      expect(activeTokens(body)).toEqual([])
    }
    const summary = runSummary(failed.outcome, { loopId: LOOP, spendCeilingUsd: 1, logFile: failed.logFile })
    expect(activeTokens(`${marker(LOOP)}\n${summary}`)).toEqual([])
  })
})

describe('a dry-run escalation tells the truth', () => {
  it('names the committed work instead of "none", and shows the end of the real gate output when no failure was parsed', async () => {
    const ws = makeRepo({ 'a.txt': 'a\n' })
    const start = sh(ws, ['rev-parse', 'HEAD']).trim()
    const c1 = commitFile(ws, 'a.txt', 'b\n', loopCommitMessage(1))
    const c2 = commitFile(ws, 'a.txt', 'c\n', loopCommitMessage(2))
    const output = `${Array.from({ length: 60 }, (_, i) => `setup line ${i}`).join('\n')}\n\u001b[31mYAMLException: bad indentation of a mapping entry (3:5)\u001b[0m\n`
    const failing = verdict({ passed: false, reason: 'exit 1', exitCode: 1, failures: [], outputTail: output })
    const ctx = context({
      workspace: ws,
      stopReason: 'max-iterations',
      startCommit: start,
      headCommit: c2,
      iterations: [iteration(1, c1), iteration(2, c2)],
      lastVerdict: failing
    })
    const result = await new DryRunPublisher().publish(ctx)
    const body = readFileSync(result.files[0], 'utf8')
    expect(body).not.toContain('Unfinished work:** none')
    expect(body).toContain(`**Unfinished work:** 2 iteration commit(s), the last \`${c2}\``)
    expect(body).toContain('dry run')
    expect(body).toContain('YAMLException: bad indentation of a mapping entry (3:5)')
    expect(body).not.toContain('\u001b')
    expect(body).not.toContain('setup line 5\n')
    const failure = body.slice(body.indexOf('### Last gate failure'))
    // Shown in the failure section itself, before the attempts (nothing of it only in a collapsed log).
    expect(failure.indexOf('YAMLException')).toBeGreaterThan(0)
    expect(failure.indexOf('YAMLException')).toBeLessThan(failure.indexOf('### Attempts'))
    expect(body).not.toContain('"type":"iteration"')
  })
})
