import { readFileSync } from 'node:fs'
import { runLoop } from '../src/loop/engine.js'
import { fakeWorld } from '../__fixtures__/engine-fakes.js'

const lastLine = (file: string): string => readFileSync(file, 'utf8').trim().split('\n').pop() ?? ''

describe('engine (injected clock, agent, workspace and gate)', () => {
  it('verifies only when the gate passes on a non-empty change set', async () => {
    const w = fakeWorld([
      { files: ['a.js'], gate: 'fail', failure: 'x' },
      { files: ['a.js'], gate: 'pass', cost: 1 }
    ])
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('verified')
    expect(out.iterations).toHaveLength(2)
    expect(out.verifiedCommit).toBe('c2')
    expect(lastLine(w.progressFile)).toBe('stop-reason: verified')
  })

  it('stops at max-iterations, counting calls before each one', async () => {
    const w = fakeWorld([], { maxIterations: 3 }, { files: ['a.js'], cost: 0.1 })
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('max-iterations')
    expect(w.calls).toHaveLength(3)
  })

  it('checks spent + call-budget ≤ ceiling before each call (costs reported)', async () => {
    const w = fakeWorld([], { callBudgetUsd: 4, spendCeilingUsd: 10 }, { files: ['a.js'], cost: 3 })
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('spend-ceiling')
    // 0+4≤10, 3+4≤10, 6+4≤10, 9+4>10
    expect(w.calls).toHaveLength(3)
    expect(out.spentUsd).toBeCloseTo(9)
  })

  it('charges a call without a cost report its full budget', async () => {
    const w = fakeWorld([], { callBudgetUsd: 4, spendCeilingUsd: 10 }, { files: ['a.js'] })
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('spend-ceiling')
    expect(w.calls).toHaveLength(2)
    expect(out.spentUsd).toBe(8)
    expect(out.iterations.every((i) => i.agent.costSource === 'worst-case')).toBe(true)
  })

  it('stops at the whole-run time limit and caps each call at the time left', async () => {
    const w = fakeWorld([], { timeLimitMs: 25 * 60_000, callTimeoutMs: 20 * 60_000 }, { files: ['a.js'], cost: 0, minutes: 10 })
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('time-limit')
    expect(w.calls.map((c) => c.timeoutMs)).toEqual([20 * 60_000, 15 * 60_000, 5 * 60_000])
  })

  it('stops on no-progress after N empty iteration diffs in a row', async () => {
    const w = fakeWorld([{ files: ['a.js'], gate: 'fail', failure: 'a' }], { noProgressLimit: 3 }, { files: [], cost: 0 })
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('no-progress')
    expect(out.iterations).toHaveLength(4)
    // an unchanged tree is not gated again (its failing test was rerun once there: not flaky)
    expect(w.gateRuns).toEqual(['c1', 'c1'])
  })

  it('stops on the same failure fingerprint N times in a row, resets on a new one', async () => {
    const w = fakeWorld([
      { files: ['a'], gate: 'fail', failure: 'x' },
      { files: ['a'], gate: 'fail', failure: 'y' },
      { files: ['a'], gate: 'fail', failure: 'y' }
    ])
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('same-failure')
    expect(out.iterations).toHaveLength(3)
  })

  it('stops on agent-failure after 3 failed calls in a row', async () => {
    const w = fakeWorld(
      [
        { status: 'failed', cost: 1 },
        { status: 'capped', cost: 1 },
        { status: 'failed', cost: 1 }
      ],
      { noProgressLimit: 10 }
    )
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('agent-failure')
    expect(out.iterations).toHaveLength(3)
  })

  it('stops on the second tampering iteration', async () => {
    const w = fakeWorld([
      { tampered: true, files: ['a'], gate: 'fail', failure: 'p' },
      { files: ['a'], gate: 'fail', failure: 'q' },
      { tampered: true, files: ['a'], gate: 'fail', failure: 'r' }
    ])
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('protected-tampering')
    expect(out.iterations).toHaveLength(3)
  })

  it('reports nothing-to-do when the agent claims done, changed nothing and the gate passes', async () => {
    const w = fakeWorld([{ files: [], gate: 'pass', cost: 0.5 }])
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('nothing-to-do')
    expect(w.gateRuns).toEqual(['c0'])
  })

  it('feeds the last evidence (failing tests, rejections) into the next prompt', async () => {
    const w = fakeWorld([
      { files: ['a'], gate: 'fail', failure: 'suite › adds', tampered: true },
      { files: ['a'], gate: 'pass' }
    ])
    await runLoop(w.config, w.deps)
    expect(w.calls[0].prompt).not.toContain('Evidence')
    expect(w.calls[1].prompt).toContain('failing: suite › adds')
    expect(w.calls[1].prompt).toContain('rejected: protected files changed')
    expect(w.calls[1].prompt).toContain('iteration 2 of at most 20')
  })

  it('stops as cancelled when the signal fires, after charging the call', async () => {
    const abort = new AbortController()
    const w = fakeWorld([], {}, { files: ['a'], gate: 'fail' })
    const run = w.deps.agent.run
    w.deps.agent = {
      run: async (...args) => {
        const r = await run(...args)
        abort.abort()
        return r
      }
    }
    const out = await runLoop(w.config, { ...w.deps, signal: abort.signal })
    expect(out.stopReason).toBe('cancelled')
    expect(out.spentUsd).toBe(4)
    expect(w.gateRuns).toEqual([])
  })

  it('applies the rolling period ceiling before a call', async () => {
    const w = fakeWorld([], { period: { ceilingUsd: 10, spentBeforeUsd: 7 } }, { files: ['a'], cost: 1 })
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('period-ceiling')
    expect(w.calls).toHaveLength(0)
  })
})
