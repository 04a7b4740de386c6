import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { readSettings } from '../src/inputs.js'
import type { RunOutcome } from '../src/loop/types.js'
import { BODY_LIMIT, escalationBody, pullRequestBody, runComment } from '../src/publish/bodies.js'
import type { PublishContext } from '../src/publish/types.js'
import { preLoopSummary, runSummary, spendChart } from '../src/report/markdown.js'
import { tempDir } from './helpers/repo.js'

function context(logText: string, stopReason: RunOutcome['stopReason'] = 'verified'): PublishContext {
  const dir = tempDir()
  const logFile = path.join(dir, 'attempts.jsonl')
  writeFileSync(logFile, logText)
  const inputs: Record<string, string> = { agent: 'command', 'agent-command': 'true', prompt: 'Upgrade one dependency.', 'gate-command': 'npm test', 'loop-id': 'nightly', 'spend-ceiling-usd': '10', 'call-budget-usd': '2' }
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
    gate: { passed: stopReason === 'verified' && i === 2, reason: 'exit 0', exitCode: 0, timedOut: false, failures: [], fingerprint: null, outputTail: 'ok', durationMs: 10 },
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
  return { settings, outcome, runDir: dir, logFile, progressText: '' }
}

const line = (i: number): string => `${JSON.stringify({ type: 'iteration', iteration: i, pad: 'x'.repeat(900) })}\n`

describe('bodies', () => {
  it('keeps a short log whole', () => {
    const body = pullRequestBody(context(line(1)), { logUrl: 'https://github.com/o/r/actions/runs/1/artifacts/2' })
    expect(body).toContain('"iteration":1')
    expect(body).not.toContain('cut to fit')
    expect(body).toContain('[workflow artifact](https://github.com/o/r/actions/runs/1/artifacts/2)')
  })

  it('cuts a log too long for a body at a line and links the full log', () => {
    const log = Array.from({ length: 200 }, (_, i) => line(i)).join('')
    expect(log.length).toBeGreaterThan(BODY_LIMIT)
    for (const body of [
      pullRequestBody(context(log), { logUrl: 'https://example.test/log' }),
      escalationBody(context(log, 'same-failure'), { logUrl: 'https://example.test/log', wipBranch: 'loopgate/nightly-wip' }),
      runComment(context(log, 'same-failure'), { logUrl: 'https://example.test/log' })
    ]) {
      expect(body.length).toBeLessThanOrEqual(BODY_LIMIT)
      expect(body).toContain('cut to fit')
      expect(body).toContain('read [the full log](https://example.test/log)')
      const logBlock = body.slice(body.indexOf('```json\n') + 8, body.indexOf('\n… (cut'))
      for (const l of logBlock.split('\n')) expect(() => JSON.parse(l)).not.toThrow()
    }
  })

  it('says in plain words what fired and what to change, and where the unfinished work is', () => {
    const body = escalationBody(context(line(1), 'spend-ceiling'), { wipBranch: 'loopgate/nightly-wip' })
    expect(body).toContain('`spend-ceiling-usd`')
    expect(body).toContain('**What you can do:** Raise `spend-ceiling-usd`')
    expect(body).toContain('`loopgate/nightly-wip`')
    expect(body).toContain('$4.00 of the $10.00 ceiling')
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

  it('summarises a run that stopped before the loop', () => {
    const text = preLoopSummary('nothing-to-do', 'nightly', ['skipped: pull request #3 comes from a fork (f/r)'])
    expect(text).toContain('## loopgate: nothing-to-do')
    expect(text).toContain('comes from a fork')
    expect(text).toContain('nothing was spent')
  })
})
