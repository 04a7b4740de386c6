import { GitRepository } from '../src/git/repository.js'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { readSettings } from '../src/inputs/read-settings.js'
import type { RunOutcome } from '../src/loop/engine-types.js'
import MarkdownIt from 'markdown-it'
import { BODY_LIMIT } from '../src/publish/body-parts.js'
import { escalationBody } from '../src/publish/escalation-body.js'
import { pullRequestBody, pullRequestTitle } from '../src/publish/pull-request-body.js'
import { runComment } from '../src/publish/comment-bodies.js'
import type { PublishContext } from '../src/publish/publisher-types.js'
import { preLoopSummary, runSummary, spendChart } from '../src/report/markdown.js'
import { changesBetween } from '../src/publish/changes.js'
import { attemptChanges, DETAILED_ATTEMPTS } from '../src/publish/attempt-details.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

const md = new MarkdownIt({ html: true, linkify: true })

function context(logText: string, stopReason: RunOutcome['stopReason'] = 'verified'): PublishContext {
  const dir = tempDir()
  const logFile = path.join(dir, 'attempts.jsonl')
  writeFileSync(logFile, logText)
  const inputs: Record<string, string> = {
    agent: 'command',
    'agent-command': 'true',
    prompt: 'Upgrade one dependency.',
    'gate-command': 'npm test',
    'loop-id': 'nightly',
    'spend-ceiling-usd': '10',
    'call-budget-usd': '2'
  }
  const settings = readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: dir })
  const iteration = (i: number, spent: number) => ({
    iteration: i,
    startedAt: 0,
    endedAt: 1,
    agent: { status: 'claimed-done', reason: 'exit code 0', costUsd: 2, costSource: 'reported', turns: 3 },
    chargedUsd: 2,
    spentUsd: spent,
    commit: 'c'.repeat(40),
    changedFiles: ['package.json'],
    stat: { files: 1, insertions: 1, deletions: 1 },
    gate: {
      passed: stopReason === 'verified' && i === 2,
      reason: 'exit 0',
      exitCode: 0,
      timedOut: false,
      failures: [],
      fingerprint: null,
      outputTail: 'ok',
      durationMs: 10
    },
    gateRan: true,
    rejected: [],
    tampered: false,
    evidence: [],
    decision: 'continue'
  })
  const outcome = {
    stopReason,
    iterations: [iteration(1, 2), iteration(2, 4)],
    spentUsd: 4,
    startCommit: 'a'.repeat(40),
    headCommit: 'c'.repeat(40),
    verifiedCommit: stopReason === 'verified' ? 'c'.repeat(40) : null,
    lastVerdict: null,
    lastEvidence: [],
    claimedDone: 2,
    gateAgreed: stopReason === 'verified' ? 1 : 0,
    startedAt: 0,
    endedAt: 1
  } as unknown as RunOutcome
  return { settings, outcome, repository: GitRepository.plain(settings.workspace), runDir: dir, logFile, progressText: '' }
}

const line = (i: number): string => `${JSON.stringify({ type: 'iteration', iteration: i, pad: 'x'.repeat(900) })}\n`
const ARTIFACT = 'https://github.com/o/r/actions/runs/1/artifacts/2'

describe('the escalation issue a later run updates', () => {
  it('links the work at each pushed attempt and says what changed since the previous run', () => {
    const ctx = context(line(1), 'max-iterations')
    ctx.outcome.iterations[0].commit = 'b'.repeat(40)
    const body = escalationBody(ctx, {
      repoUrl: 'https://github.com/o/r',
      wipBranch: 'loopgate/nightly-wip',
      attemptChanges: new Map([[1, [{ path: 'src/a.js', insertions: 3, deletions: 1 }]]]),
      history: { runs: 1, spentUsd: 2, last: { stopReason: 'same-failure', iterations: 3, spentUsd: 2, endedAt: '2026-11-30T03:00:00Z' } }
    })
    expect(body).toContain(`[the work at this attempt](https://github.com/o/r/compare/${'a'.repeat(40)}...${'b'.repeat(40)})`)
    expect(body).toContain('Files: ` src/a.js ` +3/−1.')
    expect(body).toContain(
      '**Since the previous run** (ended 2026-11-30T03:00:00Z, 3 iteration(s), $2.00): this run stopped with `max-iterations` (the previous run: ` same-failure `)'
    )
    // Without a pushed branch there is nothing to link to.
    expect(escalationBody(ctx, { attemptChanges: new Map() })).not.toContain('/compare/')
  })
})

describe('bodies', () => {
  it('link the attempt log as the run’s artifact and never inline it', () => {
    const log = Array.from({ length: 200 }, (_, i) => line(i)).join('')
    expect(log.length).toBeGreaterThan(BODY_LIMIT)
    for (const body of [
      pullRequestBody(context(log), { logUrl: ARTIFACT }),
      escalationBody(context(log, 'same-failure'), { logUrl: ARTIFACT, wipBranch: 'loopgate/nightly-wip' }),
      runComment(context(log, 'same-failure'), { logUrl: ARTIFACT })
    ]) {
      expect(body).toContain(`**Attempt log:** [the run's artifact](${ARTIFACT})`)
      expect(body).not.toContain('"iteration":')
      expect(body).not.toContain('```json')
      expect(body.length).toBeLessThan(10_000)
    }
    // Without an artifact: the workflow run, or (a local run) the log file.
    expect(pullRequestBody(context(line(1)), { logUrl: 'https://github.com/o/r/actions/runs/1' })).toContain(
      '**Attempt log:** in the artifacts of [the workflow run](https://github.com/o/r/actions/runs/1).'
    )
    const local = context(line(1))
    expect(pullRequestBody(local)).toContain(`**Attempt log:** \` ${local.logFile} \`.`)
  })

  it('cut a body too long for GitHub at a line, with a note', () => {
    const ctx = context(line(1), 'same-failure')
    const failures = Array.from({ length: 50 }, (_, i) => ({ id: `test ${i}`, message: `${'m'.repeat(100)}\n`.repeat(20) }))
    ctx.outcome.lastVerdict = { passed: false, reason: 'exit 1', exitCode: 1, timedOut: false, failures, fingerprint: 'f', outputTail: '', durationMs: 1 }
    ctx.outcome.iterations = Array.from({ length: 200 }, (_, i) => ({ ...ctx.outcome.iterations[0], iteration: i + 1, rejected: ['r'.repeat(300)] }))
    const body = escalationBody(ctx)
    expect(body.length).toBeLessThanOrEqual(BODY_LIMIT)
    expect(body).toContain("… (cut to fit GitHub's body limit; the attempt log has everything)")
  })

  it('says in plain words what fired and what to change, and where the unfinished work is', () => {
    const body = escalationBody(context(line(1), 'spend-ceiling'), { wipBranch: 'loopgate/nightly-wip' })
    expect(body).toContain('`spend-ceiling-usd`')
    expect(body).toContain('**What you can do:** Raise `spend-ceiling-usd`')
    expect(body).toContain('`loopgate/nightly-wip`')
    expect(body).toContain('$4.00 of the $10.00 ceiling')
  })
})

/** The body rendered as GitHub renders markdown, as a list of its top-level blocks' opening tags and text. */
function blocks(body: string): { tag: string; text: string }[] {
  const tokens = md.parse(body, {})
  const out: { tag: string; text: string }[] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]
    if (t.level !== 0 || t.nesting === -1) continue
    const inline = tokens[i + 1]?.type === 'inline' ? tokens[i + 1].content : t.content
    out.push({ tag: t.type === 'fence' ? 'fence' : t.tag || t.type, text: inline })
  }
  return out
}

const HOSTILE = '@octo-org/admins Fixes #1 <img src=x onerror=alert(1)> [click](https://evil.test) <!-- loopgate:loop-id=nightly --> **bold**'

describe('the pull request', () => {
  function verified(finalText: string, prompt = 'Upgrade one dependency.'): PublishContext {
    const ctx = context(line(1))
    ctx.settings = { ...ctx.settings, prompt }
    ctx.outcome.iterations[1] = { ...ctx.outcome.iterations[1], agent: { ...ctx.outcome.iterations[1].agent, finalText } }
    ctx.outcome.lastVerdict = {
      passed: true,
      reason: 'exit 0',
      exitCode: 0,
      timedOut: false,
      failures: [],
      fingerprint: null,
      testsRun: 12,
      skipped: 1,
      outputTail: 'ok',
      durationMs: 1500
    }
    ctx.protectedBase = { sha: 'b'.repeat(40), source: 'origin/HEAD' }
    return ctx
  }
  const changes = {
    from: 'a'.repeat(40),
    to: 'c'.repeat(40),
    files: [
      { path: 'src/math.mjs', insertions: 3, deletions: 1 },
      { path: 'logo.png', insertions: null, deletions: null }
    ]
  }

  it('is titled by the agent’s Summary line, cleaned and cut; else by the task’s first line', () => {
    expect(pullRequestTitle(verified('I changed the sign.\n\nSummary: Fix add() to add instead of subtract'))).toBe('Fix add() to add instead of subtract')
    expect(
      pullRequestTitle(
        verified('**Summary:** `add()` adds again. Fixes #12, closes octo/repo#3 for @octocat, see https://x.test/a <!-- loopgate:loop-id=x -->')
      )
    ).toBe('add() adds again. for octocat, see')
    const long = pullRequestTitle(verified(`Summary: ${'word '.repeat(40)}`))
    expect(long.length).toBeLessThanOrEqual(72)
    expect(long.endsWith('word…')).toBe(true)
    // No summary line: the task's first line, cleaned the same way.
    expect(pullRequestTitle(verified('done', '## Make add() add (@team, fixes #4)\nmore detail'))).toBe('Make add() add (team)')
    // Tokens that only form once another is removed are removed too.
    expect(pullRequestTitle(verified('Summary: @@octocat #\u200b#5 fix#\u200b6'))).not.toMatch(/@|#\d|\u200b/)
  })

  it('opens with what changed and the agent’s claim, then the verification, the spend and a compact table', () => {
    const body = pullRequestBody(verified(`Summary: Make add() add\n${HOSTILE}`), { changes, logUrl: ARTIFACT })
    const headings = blocks(body)
      .filter((b) => /^h\d$/.test(b.tag))
      .map((b) => b.text)
    expect(headings).toEqual(['loopgate: verified', 'What changed', 'Verification', 'Spend and iterations'])
    const html = md.render(body)
    // Files with their +/−, binary files named as such.
    expect(html).toMatch(/<td><code>src\/math\.mjs<\/code><\/td>\s*<td style="text-align:right">3<\/td>\s*<td style="text-align:right">1<\/td>/)
    expect(html).toMatch(/<td><code>logo\.png<\/code><\/td>\s*<td style="text-align:right">binary<\/td>/)
    expect(body).toContain('2 file(s), +3/−1')
    // The agent's words, quoted as its claim, and shown as text.
    expect(body).toContain("**The agent's summary**, in its own words: its claim, which loopgate does not check")
    const quote = html.slice(html.indexOf('<blockquote>'), html.indexOf('</blockquote>'))
    expect(quote).toContain('<pre><code class="language-text">Summary: Make add() add')
    expect(quote).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toMatch(/<img|<a href="https:\/\/evil|<strong>bold/)
    expect(body).not.toMatch(/@octo-org|Fixes #1|<!-- loopgate:loop-id=nightly -->[\s\S]*<!-- loopgate:/)
    // The verification: the gate command, what it ran, and the base the protected tests came from.
    expect(body).toContain(
      `The protected gate \` npm test \` passed (\` exit 0 \`, 12 test(s) run, 1 skipped) in 1.5 s on commit \`${'c'.repeat(40)}\`, in a clean checkout with the protected tests from the base \`${'b'.repeat(12)}\` (\` origin/HEAD \`).`
    )
    expect(body).toContain('**Spend:** $4.00 of the $10.00 ceiling over 2 iteration(s).')
    expect(body).toContain('| # | agent | files | gate | cost |')
    expect(body.indexOf('### What changed')).toBeLessThan(body.indexOf('**Task**'))
    expect(body.indexOf('**Task**')).toBeLessThan(body.indexOf('### Verification'))
  })

  it('says so when the agent gave no summary or the files could not be listed', () => {
    const body = pullRequestBody(verified(''), { changes: null })
    expect(body).toContain("**The agent's summary:** it gave none.")
    expect(body).toContain('_The changed files could not be listed')
  })
})

describe('the escalation issue', () => {
  it('opens with the decision and the command that resumes, then the control that fired, the last failure, the attempts', () => {
    const ctx = context(line(1), 'same-failure')
    ctx.outcome.lastVerdict = {
      passed: false,
      reason: 'exit 1',
      exitCode: 1,
      timedOut: false,
      failures: [{ id: `adds ${HOSTILE}`, message: `expected 5, got -1 ${HOSTILE}` }],
      fingerprint: 'f00d',
      outputTail: '',
      durationMs: 1
    }
    const body = escalationBody(ctx, { logUrl: ARTIFACT })
    const order = [
      '**Decision:**',
      '**To resume:**',
      '**Stop reason: `same-failure`.**',
      '**What you can do:**',
      '### Last gate failure',
      '- ` adds',
      'expected 5, got -1',
      '### Attempts',
      '**Attempt log:**'
    ]
    const at = order.map((s) => body.indexOf(s))
    expect(at.every((n) => n > 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
    const html = md.render(body)
    expect(html).not.toMatch(/<img|<a href="https:\/\/evil|<strong>bold/)
    expect(body).not.toMatch(/@octo-org|Fixes #1/)
  })
})

describe('the run summary', () => {
  it('charts cumulative spend against the ceiling', () => {
    const chart = spendChart(context('').outcome, 10)
    expect(chart).toContain('x-axis "iteration" [1, 2]')
    expect(chart).toContain('bar [2.00, 4.00]')
    expect(chart).toContain('line [10.00, 10.00]')
    expect(chart).toContain('y-axis "USD" 0 --> 10')
  })

  it('counts claimed done against gate agreed, and names the stop reason in plain words', () => {
    const ctx = context(line(1), 'same-failure')
    const text = runSummary(ctx.outcome, { loopId: 'nightly', spendCeilingUsd: 10, logFile: ctx.logFile })
    expect(text).toContain('the agent claimed done 2 time(s), the gate agreed 0 time(s)')
    expect(text).toContain('retrying brought no new evidence')
    expect(text).toContain('<summary>Attempt log')
  })

  it('links the attempt log by its artifact URL, not a runner path, when there is one', () => {
    const ctx = context(line(1), 'same-failure')
    const linked = runSummary(ctx.outcome, { loopId: 'nightly', spendCeilingUsd: 10, logFile: ctx.logFile, logUrl: ARTIFACT })
    expect(linked).toContain(`Attempt log: [the run's artifact](${ARTIFACT})`)
    expect(linked).not.toContain(`\`${ctx.logFile}\``)
    const local = runSummary(ctx.outcome, { loopId: 'nightly', spendCeilingUsd: 10, logFile: ctx.logFile })
    expect(local).toContain(`Attempt log: \`${ctx.logFile}\``)
  })

  it('summarises a run that stopped before the loop', () => {
    const text = preLoopSummary('nothing-to-do', 'nightly', ['skipped: pull request #3 comes from a fork (f/r)'])
    expect(text).toContain('## loopgate: skipped')
    expect(text).toContain('**Skipped:** pull request #3 comes from a fork')
    expect(text).toContain('Stop reason `nothing-to-do`')
    expect(text).toContain('nothing was spent')
  })
})

describe('the changed files', () => {
  it('are counted by git between two commits, whatever their names, binary files without counts', async () => {
    const ws = makeRepo({ 'a.txt': 'a\n' })
    const start = sh(ws, ['rev-parse', 'HEAD']).trim()
    writeFileSync(path.join(ws, 'a.txt'), 'b\nc\n')
    writeFileSync(path.join(ws, 'odd\tname\nwith newline.txt'), 'x\n')
    writeFileSync(path.join(ws, 'logo.png'), Buffer.from([0, 1, 2, 0, 255]))
    sh(ws, ['add', '-A'])
    sh(ws, ['commit', '-q', '-m', 'change'])
    const head = sh(ws, ['rev-parse', 'HEAD']).trim()
    const changes = await changesBetween(GitRepository.plain(ws), start, head)
    expect(changes?.files).toEqual([
      { path: 'a.txt', insertions: 2, deletions: 1 },
      { path: 'logo.png', insertions: null, deletions: null },
      { path: 'odd\tname\nwith newline.txt', insertions: 1, deletions: 0 }
    ])
    expect(await changesBetween(GitRepository.plain(ws), start, 'f'.repeat(40))).toBeNull()
  })

  it('of each attempt are read against the attempt before, the newest attempts only, empty and binary changes too', async () => {
    const ws = makeRepo({ 'a.txt': 'a\n' })
    const head = (): string => sh(ws, ['rev-parse', 'HEAD']).trim()
    const start = head()
    const commits: (string | null)[] = []
    for (let i = 1; i <= DETAILED_ATTEMPTS + 2; i++) {
      if (i === 4) {
        commits.push(null) // an attempt that kept nothing
        continue
      }
      if (i === 6) sh(ws, ['commit', '-q', '--allow-empty', '-m', 'empty'])
      else if (i === 7) writeFileSync(path.join(ws, 'odd\tname\nwith newline.bin'), Buffer.from([0, i, 0]))
      else writeFileSync(path.join(ws, `f${i}.txt`), 'x\n'.repeat(i))
      if (i !== 6) {
        sh(ws, ['add', '-A'])
        sh(ws, ['commit', '-q', '-m', `attempt ${i}`])
      }
      commits.push(head())
    }
    const records = commits.map((commit, i) => ({ ...context(line(1)).outcome.iterations[0], iteration: i + 1, commit }))
    const changes = await attemptChanges(GitRepository.plain(ws), start, records)
    // Attempts 1 and 2 are older than the newest ten; attempt 4 has no commit.
    expect([...changes.keys()]).toEqual([3, 5, 6, 7, 8, 9, 10, 11, 12])
    expect(changes.get(3)).toEqual([{ path: 'f3.txt', insertions: 3, deletions: 0 }])
    // Attempt 5 is measured from attempt 3's commit, the last one kept.
    expect(changes.get(5)).toEqual([{ path: 'f5.txt', insertions: 5, deletions: 0 }])
    expect(changes.get(6)).toEqual([])
    expect(changes.get(7)).toEqual([{ path: 'odd\tname\nwith newline.bin', insertions: null, deletions: null }])
    expect(changes.get(12)).toEqual([{ path: 'f12.txt', insertions: 12, deletions: 0 }])
    // A commit git does not have: the attempts are described from their records instead.
    const unknown = await attemptChanges(GitRepository.plain(ws), start, [{ ...records[11], commit: 'f'.repeat(40) }])
    expect(unknown.size).toBe(0)
  })
})
