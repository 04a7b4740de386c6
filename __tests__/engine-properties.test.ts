import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { runLoop } from '../src/loop/engine.js'
import { lastStopReason } from '../src/records/progress-file.js'
import { STOP_REASONS } from '../src/loop/stop-reasons.js'
import { fakeWorld, type ScriptedStep } from '../__fixtures__/engine-fakes.js'

const step: fc.Arbitrary<ScriptedStep> = fc.record({
  status: fc.constantFrom('claimed-done' as const, 'failed' as const, 'capped' as const),
  cost: fc.option(fc.double({ min: 0, max: 6, noNaN: true }), { nil: undefined }),
  files: fc.constantFrom([], ['a.js'], ['a.js', 'b.js']),
  gate: fc.constantFrom('pass' as const, 'fail' as const),
  failure: fc.constantFrom('x', 'y', 'z'),
  minutes: fc.integer({ min: 0, max: 60 }),
  tampered: fc.boolean()
})

const limits = fc.record({
  maxIterations: fc.integer({ min: 1, max: 15 }),
  callBudgetUsd: fc.double({ min: 0.5, max: 5, noNaN: true }),
  ceilingFactor: fc.double({ min: 1.01, max: 12, noNaN: true }),
  timeLimitMinutes: fc.integer({ min: 1, max: 400 }),
  noProgressLimit: fc.integer({ min: 1, max: 5 }),
  sameFailureLimit: fc.integer({ min: 1, max: 4 })
})

describe('engine properties (fast-check)', () => {
  it('never exceeds the cap or the ceiling, and ends with exactly one stop reason that the progress file names', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 20 }), step, limits, async (steps, fallback, l) => {
        const w = fakeWorld(
          steps,
          {
            maxIterations: l.maxIterations,
            callBudgetUsd: l.callBudgetUsd,
            spendCeilingUsd: l.callBudgetUsd * l.ceilingFactor,
            timeLimitMs: l.timeLimitMinutes * 60_000,
            callTimeoutMs: 45 * 60_000,
            noProgressLimit: l.noProgressLimit,
            sameFailureLimit: l.sameFailureLimit
          },
          fallback
        )
        const out = await runLoop(w.config, w.deps)
        // the iteration cap
        expect(w.calls.length).toBeLessThanOrEqual(l.maxIterations)
        expect(out.iterations.length).toBe(w.calls.length)
        // admission: no call starts unless spent + budget ≤ ceiling
        for (const call of w.calls) expect(call.spentBefore + l.callBudgetUsd).toBeLessThanOrEqual(w.config.spendCeilingUsd + 1e-6)
        // a call can spend at most its reported cost (≤ 6) or its budget; the total stays bounded
        expect(out.spentUsd).toBeLessThanOrEqual(w.config.spendCeilingUsd - l.callBudgetUsd + Math.max(6, l.callBudgetUsd) + 1e-6)
        // exactly one stop reason, from the closed set, named by the last progress line
        expect(STOP_REASONS).toContain(out.stopReason)
        const text = readFileSync(w.progressFile, 'utf8')
        expect(lastStopReason(text)).toBe(out.stopReason)
        expect(text.match(/^stop-reason: /gm)).toHaveLength(1)
        const log = readFileSync(w.deps.log.file, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { type: string })
        expect(log.filter((e) => e.type === 'stop')).toHaveLength(1)
        expect(log[log.length - 1].type).toBe('stop')
      }),
      { numRuns: 300 }
    )
  })

  it('charges exactly the reported costs, and the full budget for every call without one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const w = fakeWorld(steps, { maxIterations: steps.length, spendCeilingUsd: 1000, noProgressLimit: 99, sameFailureLimit: 99 }, {})
        const out = await runLoop(w.config, w.deps)
        const expected = out.iterations.reduce((sum, it) => sum + (steps[it.iteration - 1].cost ?? w.config.callBudgetUsd), 0)
        expect(out.spentUsd).toBeCloseTo(expected, 6)
      }),
      { numRuns: 200 }
    )
  })
})
