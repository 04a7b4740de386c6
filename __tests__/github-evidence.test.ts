import { createClient } from '../src/github/client.js'
import type { EventPlan } from '../src/github/events.js'
import { EVIDENCE_LIMITS, evidenceSection, gatherEvidence, logTail, taskWithEvidence } from '../src/github/review-evidence.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

/** The evidence a triggered run starts from, gathered from the local GitHub server. */

const TOKEN = 'ghs_evidenceTestToken000000000000000001'
const repo = { owner: 'octo-org', repo: 'octo-repo' }
const SHA = 'b'.repeat(40)

const JOB_LOG = [
  '2026-01-01T00:00:00.0000000Z ##[group]Run npm ci',
  '2026-01-01T00:00:01.0000000Z added 120 packages',
  '2026-01-01T00:00:02.0000000Z ##[endgroup]',
  '2026-01-01T00:00:03.0000000Z ##[group]Run npm test',
  '2026-01-01T00:00:04.0000000Z \u001b[31mFAIL\u001b[39m test/math.test.js',
  '2026-01-01T00:00:05.0000000Z   ● add › adds two numbers',
  '2026-01-01T00:00:05.1000000Z     expected 3, received -1',
  '2026-01-01T00:00:06.0000000Z ##[error]Process completed with exit code 1.',
  '2026-01-01T00:00:07.0000000Z Post job cleanup.',
  '2026-01-01T00:00:08.0000000Z Cleaning up orphan processes'
].join('\n')

describe('evidence for a triggered run', () => {
  let gh: GitHubServer
  let client: ReturnType<typeof createClient>
  let pr: number
  beforeAll(async () => {
    gh = await startGitHubServer({ token: TOKEN })
    pr = gh.addPull({ head: 'feature', headSha: SHA, labels: [], author: 'contributor' }).number
    gh.reviewThreads.push(
      {
        pr,
        path: 'src/math.js',
        line: 2,
        isResolved: false,
        comments: [
          { author: 'reviewer', body: 'This subtracts; `add` must add.' },
          { author: 'contributor', body: 'Will fix.' }
        ]
      },
      { pr, path: 'src/old.js', line: 9, isResolved: true, comments: [{ author: 'reviewer', body: 'RESOLVED-THREAD-TEXT' }] },
      { pr: pr + 100, path: 'elsewhere.js', line: 1, isResolved: false, comments: [{ author: 'reviewer', body: 'OTHER-PR-TEXT' }] }
    )
    gh.checkRuns.push(
      {
        id: 501,
        name: 'test (20)',
        conclusion: 'failure',
        headSha: SHA,
        suiteId: 77,
        runId: 900,
        steps: [
          { name: 'Set up job', conclusion: 'success' },
          { name: 'npm test', conclusion: 'failure' },
          { name: 'Post job cleanup', conclusion: 'success' }
        ],
        annotations: [{ path: 'test/math.test.js', startLine: 4, level: 'failure', title: 'add › adds two numbers', message: 'expected 3, received -1' }],
        log: JOB_LOG
      },
      {
        id: 502,
        name: 'lint',
        conclusion: 'success',
        headSha: SHA,
        suiteId: 77,
        runId: 900,
        annotations: [{ path: 'x.js', startLine: 1, level: 'warning', message: 'LINT-PASSED-TEXT' }],
        log: 'fine'
      },
      {
        id: 601,
        name: 'external-ci',
        conclusion: 'failure',
        headSha: SHA,
        suiteId: 78,
        annotations: [{ path: 'src/math.js', startLine: 2, level: 'failure', message: 'external says no' }]
      }
    )
    client = createClient(TOKEN, { GITHUB_API_URL: gh.url }, () => undefined)
  })
  afterAll(async () => {
    expect(gh.violations).toEqual([])
    await gh.close()
  })

  const prPlan = (trigger: NonNullable<Extract<EventPlan, { kind: 'pull-request' }>['trigger']>): EventPlan => ({
    kind: 'pull-request',
    eventName: 'x',
    number: pr,
    url: `https://github.com/octo-org/octo-repo/pull/${pr}`,
    headBranch: 'feature',
    headSha: SHA,
    baseBranch: 'main',
    trigger
  })

  it('a command carries its words and the PR’s unresolved review threads (not resolved ones, not other PRs’)', async () => {
    const evidence = await gatherEvidence(
      client,
      repo,
      prPlan({ kind: 'command', event: 'issue_comment', author: 'maintainer', words: 'fix the add helper', comment: { id: 1, kind: 'issue-comment' } })
    )
    expect(evidence?.request).toEqual({ author: 'maintainer', words: 'fix the add helper', where: 'issue comment' })
    expect(evidence?.threads).toEqual([
      {
        path: 'src/math.js',
        line: 2,
        outdated: false,
        comments: [
          { author: 'reviewer', body: 'This subtracts; `add` must add.' },
          { author: 'contributor', body: 'Will fix.' }
        ]
      }
    ])
    const task = taskWithEvidence('Address the review.', evidence)
    expect(task.startsWith('Address the review.\n\n## Evidence gathered by loopgate')).toBe(true)
    expect(task).toContain('fix the add helper')
    expect(task).toContain('src/math.js:2')
    expect(task).toContain('reviewer: This subtracts; `add` must add.')
    expect(task).not.toContain('RESOLVED-THREAD-TEXT')
    expect(task).not.toContain('OTHER-PR-TEXT')
    expect(gh.requests.some((r) => r.operationId === 'graphql')).toBe(true)
  })

  it('a failed workflow run carries the failing job’s annotations and the end of its failing step’s log', async () => {
    const evidence = await gatherEvidence(
      client,
      repo,
      prPlan({ kind: 'failed-check', event: 'workflow_run', headSha: SHA, checkSuiteId: 77, workflowRunId: 900, name: 'CI' })
    )
    expect(evidence?.checks).toHaveLength(1)
    const [check] = evidence!.checks
    expect(check).toMatchObject({ name: 'test (20)', conclusion: 'failure', step: 'npm test' })
    expect(check.annotations).toEqual([
      { path: 'test/math.test.js', line: 4, level: 'failure', title: 'add › adds two numbers', message: 'expected 3, received -1' }
    ])
    expect(check.logTail).toContain('expected 3, received -1')
    expect(check.logTail!.split('\n').at(-1)).toBe('##[error]Process completed with exit code 1.')
    expect(check.logTail).not.toContain('Cleaning up orphan processes')
    expect(check.logTail).not.toMatch(/\u001b|2026-01-01T/)
    const task = taskWithEvidence('Make CI pass.', evidence)
    expect(task).toContain('### Failing check: test (20) (failure)')
    expect(task).toContain('test/math.test.js:4 [failure] add › adds two numbers: expected 3, received -1')
    expect(task).toContain('End of the log of the failing step "npm test"')
    expect(task).not.toContain('LINT-PASSED-TEXT')
  })

  it('a failed check suite reads its failing check runs; a run without an Actions log still gives its annotations', async () => {
    const evidence = await gatherEvidence(
      client,
      repo,
      prPlan({ kind: 'failed-check', event: 'check_suite', headSha: SHA, checkSuiteId: 78, workflowRunId: null, name: 'external' })
    )
    expect(evidence?.checks).toEqual([
      {
        name: 'external-ci',
        conclusion: 'failure',
        annotations: [{ path: 'src/math.js', line: 2, level: 'failure', title: '', message: 'external says no' }],
        step: null,
        logTail: null
      }
    ])
  })

  it('what cannot be read becomes a gap, not a stop', async () => {
    gh.fail('actions/list-jobs-for-workflow-run', 403, 1, 'Resource not accessible by integration')
    const evidence = await gatherEvidence(
      client,
      repo,
      prPlan({ kind: 'failed-check', event: 'workflow_run', headSha: SHA, checkSuiteId: 77, workflowRunId: 900, name: 'CI' })
    )
    expect(evidence?.checks).toEqual([])
    expect(evidence?.gaps.join('\n')).toContain('the failing checks could not be read')
    expect(taskWithEvidence('t', evidence)).toContain('Not gathered: the failing checks could not be read')
  })

  it('keeps people’s text bounded: long comments, many threads, huge logs', () => {
    const huge = 'x'.repeat(100_000)
    const text = evidenceSection({
      request: { author: 'a', words: huge.slice(0, EVIDENCE_LIMITS.words), where: 'issue comment' },
      threads: Array.from({ length: EVIDENCE_LIMITS.threads }, (_, i) => ({
        path: `f${i}.js`,
        line: i,
        outdated: false,
        comments: [{ author: 'r', body: huge.slice(0, EVIDENCE_LIMITS.commentChars) }]
      })),
      checks: [{ name: 'c', conclusion: 'failure', annotations: [], step: null, logTail: logTail(`${huge}\n`.repeat(3)) }],
      gaps: []
    })
    expect(text.length).toBeLessThanOrEqual(EVIDENCE_LIMITS.total + 200)
    expect(text).toContain('left out to keep the task under')
    // No fence is left open: every part is whole.
    expect((text.match(/^`{3,}/gm) ?? []).length % 2).toBe(0)
    expect(logTail(`${huge}\n`).length).toBeLessThanOrEqual(EVIDENCE_LIMITS.logChars)
  })
})
