import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor, outcomeFor } from '../src/loop/stop-reasons.js'
import { makeRepo, sharedTempDir } from './helpers/repo.js'
import { runIn } from './helpers/settings.js'

/**
 * The flaky rule through the real gate and node:test: a test that fails on a coin the test controls
 * (a counter of gate runs: it fails on the runs listed) is rerun on the same commit; passing there,
 * it is flaky — named, never the agent's task, out of the breakers — and when only tests already
 * seen flaky fail again, the run ends `flaky-tests`.
 */

/** A project whose `add` is broken (the task), with a coin test that fails on the gate runs in `failOn`. */
function project(failOn: number[]): { repo: string; gateRuns: () => number } {
  const counter = path.join(sharedTempDir('loopgate-flaky-coin-'), 'runs')
  writeFileSync(counter, '')
  chmodSync(counter, 0o666)
  const repo = makeRepo({
    'package.json': JSON.stringify({ name: 'coin', version: '1.0.0', private: true, type: 'module' }),
    'src/math.mjs': 'export function add(a, b) {\n  return a - b\n}\n',
    'test/math.test.mjs': [
      "import { test } from 'node:test'",
      "import assert from 'node:assert'",
      "import { add } from '../src/math.mjs'",
      "test('add adds', () => {",
      '  assert.equal(add(2, 3), 5)',
      '})',
      ''
    ].join('\n'),
    'test/coin.test.mjs': [
      "import { test } from 'node:test'",
      "import assert from 'node:assert'",
      "import { appendFileSync, readFileSync } from 'node:fs'",
      `const counter = ${JSON.stringify(counter)}`,
      "appendFileSync(counter, 'run\\n')",
      "const run = readFileSync(counter, 'utf8').split('\\n').filter(Boolean).length",
      "test('coin lands heads', () => {",
      `  assert.ok(!${JSON.stringify(failOn)}.includes(run), 'tails on gate run ' + run)`,
      '})',
      ''
    ].join('\n')
  })
  return { repo, gateRuns: () => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length }
}

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs"
const inputs = (agent: string) => ({ 'agent-command': agent, 'gate-command': 'node --test', 'max-iterations': '4', 'same-failure-limit': '2' })

describe('flaky tests are told apart from the agent’s failures', () => {
  test('a test failing once on the fixed commit is rerun there: the rerun passes, verified, the flaky test named in the PR', async () => {
    const { repo, gateRuns } = project([2])
    const report = await runIn(repo, inputs(FIX))
    expect(report.stopReason).toBe('verified')
    expect(gateRuns()).toBe(3) // the baseline, the agent's commit, its rerun
    expect(report.run?.iterations).toHaveLength(1)
    const gate = report.run!.iterations[0].gate!
    expect(gate.passed).toBe(true)
    expect(gate.flaky?.join()).toMatch(/coin lands heads/)
    const body = readFileSync(path.join(report.runDir, 'pull-request.md'), 'utf8')
    expect(body).toContain('### Flaky tests')
    expect(body).toMatch(/coin lands heads/)
    const log = readFileSync(report.logFile, 'utf8')
    expect(log).toMatch(/"flaky":\["[^"]*coin lands heads/)
  })

  test('a test seen flaky that fails again as the only failure ends the run as flaky-tests, never the agent’s task', async () => {
    // Gate runs: 1 baseline, 2 iteration 1 (coin fails), 3 its rerun (passes), 4 iteration 2 (fails again).
    const { repo, gateRuns } = project([2, 4])
    const agent = `if [ -f notes.txt ]; then ${FIX}; else echo looking > notes.txt; fi`
    const report = await runIn(repo, inputs(agent))
    expect(report.stopReason).toBe('flaky-tests')
    expect(exitCodeFor('flaky-tests')).toBe(27)
    expect(outcomeFor('flaky-tests')).toBe('escalated')
    expect(gateRuns()).toBe(4)
    const [first, second] = report.run!.iterations
    // The first verdict is the rerun's: only the real failure, the coin named flaky.
    expect(first.gate!.failures.map((f) => f.id).join()).toMatch(/add adds/)
    expect(first.gate!.failures.map((f) => f.id).join()).not.toMatch(/coin/)
    expect(first.evidence.join('\n')).toMatch(/flaky, not your task[^\n]*coin lands heads/)
    expect(first.evidence.filter((l) => l.startsWith('failing:')).join('\n')).not.toMatch(/coin/)
    expect(second.gate!.failures.map((f) => f.id).join()).toMatch(/coin lands heads/)
    const issue = readFileSync(path.join(report.runDir, 'escalation-issue.md'), 'utf8')
    expect(issue).toMatch(/\*\*Decision:\*\* only flaky tests were failing at the end[^\n]*quarantine or fix `[^`]*coin lands heads/)
    expect(issue).toContain('### Flaky tests')
  })

  test('a test the baseline already failed is the task: not rerun, never flaky', async () => {
    // The coin fails at the baseline (run 1) and on iteration 1's commit (run 2).
    const { repo, gateRuns } = project([1, 2])
    const report = await runIn(repo, { ...inputs(`echo looking > notes.txt`), 'max-iterations': '1' })
    expect(report.stopReason).toBe('max-iterations')
    expect(gateRuns()).toBe(2) // no rerun
    expect(report.run!.iterations[0].gate!.flaky).toBeUndefined()
    expect(report.run!.iterations[0].evidence.join('\n')).not.toMatch(/flaky, not your task/)
    expect(existsSync(path.join(report.runDir, 'escalation-issue.md')) && readFileSync(path.join(report.runDir, 'escalation-issue.md'), 'utf8')).not.toContain(
      '### Flaky tests'
    )
  })
})
