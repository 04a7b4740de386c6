/** Feature flips through the engine: held out of the iteration's commit, recorded only once verified. */
import { readFileSync } from 'node:fs'
import { runLoop } from '../src/loop/engine.js'
import type { Feature } from '../src/loop/features.js'
import { fakeWorld, withFeatures, type FakeWorld, type ScriptedStep } from '../__fixtures__/engine-fakes.js'
import type { EngineConfig } from '../src/loop/engine-types.js'

const FEATURES: Feature[] = [
  { id: 'adds', test: 'math › adds two', passes: false },
  { id: 'ghost', test: 'does not exist', passes: false }
]
const PASSED = ['math › adds two', 'math › adds zero']

function world(steps: ScriptedStep[], overrides: Partial<EngineConfig> = {}, fallback: ScriptedStep = {}, features = FEATURES): FakeWorld {
  return withFeatures(fakeWorld(steps, overrides, fallback), features)
}

const passes = (text: string | null): boolean[] => (JSON.parse(text ?? '[]') as Feature[]).map((f) => f.passes)
const onDisk = (w: FakeWorld): boolean[] => passes(readFileSync(w.featuresFile, 'utf8'))
const rejected = (out: Awaited<ReturnType<typeof runLoop>>, i: number): string => out.iterations[i].rejected.join('\n')

describe('feature flips (engine, fake workspace and gate)', () => {
  it('a flip whose test id did not run is in no commit, and the next prompt says why', async () => {
    const w = world([
      { files: ['a.js'], flip: [1], gate: 'pass', passedIds: PASSED },
      { files: ['b.js'], gate: 'pass', passedIds: PASSED }
    ])
    const out = await runLoop(w.config, w.deps)
    for (const c of w.commits) expect(passes(c.features)).toEqual([false, false])
    expect(w.commits.map((c) => c.kind)).toEqual(['iteration', 'iteration'])
    expect(out.iterations[0].decision).toBe('continue')
    expect(rejected(out, 0)).toContain('ghost (its test "does not exist" is not among the tests the gate\'s report lists as passed')
    expect(w.calls[1].prompt).toContain('feature flips not verified by the gate were reverted: ghost')
    expect(onDisk(w)).toEqual([false, false])
    expect(out.stopReason).toBe('verified')
    expect(out.verifiedCommit).toBe('c2')
  })

  it('a verified flip is committed alone, on top of the commit the gate judged', async () => {
    const w = world([{ files: ['a.js'], flip: [0], gate: 'pass', passedIds: PASSED }])
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('verified')
    expect(w.gateRuns).toEqual(['c1'])
    expect(w.commits).toEqual([
      { commit: 'c1', parent: 'c0', kind: 'iteration', features: expect.any(String) },
      { commit: 'r1', parent: 'c1', kind: 'features', features: expect.any(String) }
    ])
    expect(passes(w.commits[0].features)).toEqual([false, false])
    expect(passes(w.commits[1].features)).toEqual([true, false])
    expect(out.verifiedCommit).toBe('c1')
    expect(out.headCommit).toBe('r1')
    expect(onDisk(w)).toEqual([true, false])
  })

  it('a gate without a report verifies no flip, even when it passes', async () => {
    const w = world([{ files: ['a.js'], flip: [0], gate: 'pass' }], { maxIterations: 1 })
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('max-iterations')
    expect(rejected(out, 0)).toContain('adds (the gate reported no test ids')
    for (const c of w.commits) expect(passes(c.features)).toEqual([false, false])
  })

  it('ids match whole, after the gate’s normalisation, never as a substring', async () => {
    const features = [
      { id: 'part', test: 'adds two', passes: false },
      { id: 'spaced', test: '  math  ›  adds   zero ', passes: false }
    ]
    const w = world([{ files: ['a.js'], flip: [0, 1], gate: 'pass', passedIds: PASSED }], { maxIterations: 1 }, {}, features)
    const out = await runLoop(w.config, w.deps)
    expect(rejected(out, 0)).toContain('part (its test "adds two" is not among')
    expect(rejected(out, 0)).not.toContain('spaced')
    expect(passes(w.commits.at(-1)?.features ?? null)).toEqual([false, true])
    expect(out.stopReason).toBe('max-iterations')
  })

  it('a flip whose test failed is rejected as failed, even if the id is also listed as passed', async () => {
    const w = world([{ files: ['a.js'], flip: [0], gate: 'fail', failure: 'math › adds two', passedIds: PASSED }], { maxIterations: 1 })
    const out = await runLoop(w.config, w.deps)
    expect(rejected(out, 0)).toContain('adds (its test "math › adds two" failed in the gate)')
    expect(w.commits.map((c) => c.kind)).toEqual(['iteration'])
  })

  it('a flip-only iteration is judged by the standing verdict on the unchanged commit, not a new gate run', async () => {
    const w = world([{ files: ['a.js'], gate: 'fail', failure: 'other', passedIds: PASSED }, { flip: [0] }], { maxIterations: 2 })
    const out = await runLoop(w.config, w.deps)
    // c1 once and its flaky-rule rerun (the failure stands); the flip-only iteration runs no gate
    expect(w.gateRuns).toEqual(['c1', 'c1'])
    expect(rejected(out, 1)).toBe('')
    expect(w.commits.at(-1)).toMatchObject({ commit: 'r2', parent: 'c1', kind: 'features' })
    expect(passes(w.commits.at(-1)?.features ?? null)).toEqual([true, false])
    expect(out.stopReason).toBe('max-iterations')
  })

  it('an unverified flip alone is no progress: no commit, never nothing-to-do', async () => {
    const step: ScriptedStep = { flip: [1], gate: 'pass', passedIds: PASSED, cost: 0 }
    const w = world([], { noProgressLimit: 2 }, step)
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('no-progress')
    expect(w.commits).toEqual([])
    expect(out.iterations.map((i) => rejected(out, i.iteration - 1))).toEqual([expect.stringContaining('ghost'), expect.stringContaining('ghost')])
  })

  it('a cancelled iteration records no flip', async () => {
    const abort = new AbortController()
    const w = world([{ files: ['a.js'], flip: [0], gate: 'pass', passedIds: PASSED }])
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
    expect(passes(w.commits[0].features)).toEqual([false, false])
    expect(w.commits.map((c) => c.kind)).toEqual(['iteration'])
    expect(rejected(out, 0)).toContain('adds (the gate did not judge this iteration)')
  })
})
