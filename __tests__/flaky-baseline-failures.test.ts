import { jest } from '@jest/globals'
import { fromCached, toCached } from '../src/gate/baseline/baseline-cache.js'
import type { Baseline } from '../src/gate/protected-gate.js'
import type { GateVerdict } from '../src/loop/engine-types.js'
import { judgeFlaky } from '../src/loop/flaky.js'
import type { LoopRun } from '../src/loop/run-state.js'
import { emptyState } from '../src/state/schema.js'
import { validateState } from '../src/state/parse.js'

/**
 * The tests the baseline failed are the task: never flaky, never the base's. That holds when the
 * baseline comes from an earlier run's cache too, and when the baseline failed naming no test.
 */

const failing = (ids: string[]): GateVerdict => ({
  passed: false,
  reason: 'exit 1',
  exitCode: 1,
  timedOut: false,
  failures: ids.map((id) => ({ id, message: `${id}: expected 5, got -1` })),
  fingerprint: 'f',
  outputTail: '',
  durationMs: 1
})

const baselineOf = (verdict: GateVerdict): Baseline => ({ tests: 2, skipped: 0, ids: null, verdict, broken: null })

describe("the baseline's failures survive the loop's state", () => {
  it('a cached baseline keeps the ids it failed, through the state as it is saved and restored', () => {
    const cached = toCached('k', baselineOf(failing(['math adds two numbers'])))
    expect(cached).not.toBeNull()
    const state = { ...emptyState('loop'), baselines: [cached!] }
    const restored = validateState(JSON.parse(JSON.stringify(state)), 'loop')
    expect(fromCached(restored.baselines[0]).verdict.failedIds).toEqual(['math adds two numbers'])
  })
})

describe('the flaky rule with what the baseline failed', () => {
  const runWith = (baselineFailures: () => string[] | null) => {
    const rerun = jest.fn(async () => ({ verdict: failing([]), passed: [], failingOnBase: ['math adds two numbers'] }))
    const run = { deps: { gate: { run: jest.fn(), baselineFailures, rerun } } } as unknown as LoopRun
    return { run, rerun }
  }
  const gated = (run: LoopRun) => ({ run, iteration: 1, commit: 'c', changedFiles: ['work.txt'], verdict: failing(['math adds two numbers']) })

  it('a test the baseline failed is the task: not rerun, not the base’s', async () => {
    const { run, rerun } = runWith(() => ['math adds two numbers'])
    const judged = await judgeFlaky(gated(run))
    expect(rerun).not.toHaveBeenCalled()
    expect(judged.onlyFlakyLeft).toBe(false)
    expect(judged.verdict.failingOnBase).toBeUndefined()
  })

  it('a baseline that failed naming no test: nothing is rerun, nothing is called flaky or the base’s', async () => {
    const { run, rerun } = runWith(() => null)
    const judged = await judgeFlaky(gated(run))
    expect(rerun).not.toHaveBeenCalled()
    expect(judged.onlyFlakyLeft).toBe(false)
    expect(judged.verdict.failures.map((f) => f.id)).toEqual(['math adds two numbers'])
    expect(judged.notes.join(' ')).toMatch(/baseline failed without naming/)
  })
})
