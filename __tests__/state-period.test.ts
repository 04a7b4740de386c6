import fc from 'fast-check'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chargesFromLedger, pruneCharges, windowSpendUsd } from '../src/state/period.js'
import { recordRun, prRunCount, type RunSummaryForState } from '../src/state/record-run.js'
import { emptyState, type PeriodCharge } from '../src/state/schema.js'
import { LIMITS } from '../src/records/state-limits.js'
import { validateState } from '../src/state/parse.js'

const HOUR = 3_600_000
const at = (ms: number): string => new Date(ms).toISOString()

describe('the rolling period ledger', () => {
  const now = new Date('2026-06-01T12:00:00Z')

  it('counts only charges inside the window', () => {
    const charges: PeriodCharge[] = [
      { at: at(now.getTime() - 25 * HOUR), usd: 10, runId: 'old' },
      { at: at(now.getTime() - 23 * HOUR), usd: 2, runId: 'a' },
      { at: at(now.getTime() - 1 * HOUR), usd: 1.5, runId: 'b' }
    ]
    expect(windowSpendUsd(charges, now, 24)).toBeCloseTo(3.5)
    expect(windowSpendUsd(charges, now, 2)).toBeCloseTo(1.5)
    expect(pruneCharges({ charges, now, hours: 24 }).map((c) => c.runId)).toEqual(['a', 'b'])
  })

  it('bounded pruning never under-counts the window, at any later time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ageMin: fc.integer({ min: 0, max: 48 * 60 }), usd: fc.double({ min: 0, max: 10, noNaN: true }) }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 30 * 60 }),
        (raw, max, laterMin) => {
          const charges = raw.map((r, i) => ({ at: at(now.getTime() - r.ageMin * 60_000), usd: r.usd, runId: String(i) }))
          const pruned = pruneCharges({ charges, now, hours: 24, max })
          if (pruned.length > max) return false
          const later = new Date(now.getTime() + laterMin * 60_000)
          return windowSpendUsd(pruned, later, 24) + 1e-9 >= windowSpendUsd(charges, later, 24)
        }
      )
    )
  })

  it('reads the charges of a ledger file, worst-case charges included', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'loopgate-ledger-')), 'ledger.jsonl')
    writeFileSync(
      file,
      [
        { type: 'call-start', at: at(now.getTime()), iteration: 1, budgetUsd: 4 },
        { type: 'charge', at: at(now.getTime()), iteration: 1, usd: 0.7, source: 'reported' },
        { type: 'call-start', at: at(now.getTime()), iteration: 2, budgetUsd: 4 },
        { type: 'charge', at: at(now.getTime()), iteration: 2, usd: 4, source: 'worst-case' }
      ]
        .map((e) => JSON.stringify(e))
        .join('\n') + '\nnot json\n'
    )
    expect(chargesFromLedger(file, 'r1').map((c) => c.usd)).toEqual([0.7, 4])
  })
})

describe('recording runs keeps the state bounded', () => {
  it('1,000 runs with charges, PR numbers and long evidence stay within the limits and valid', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-record-'))
    let state = emptyState('loop')
    const start = Date.parse('2026-01-01T00:00:00Z')
    let maxSize = 0
    for (let i = 0; i < 1000; i++) {
      const t = start + i * 20 * 60_000
      const file = path.join(dir, `ledger-${i % 2}.jsonl`)
      writeFileSync(file, `${JSON.stringify({ type: 'charge', at: at(t), iteration: 1, usd: 0.5, source: 'reported' })}\n`)
      const run: RunSummaryForState = {
        runId: `${i}-1`,
        startedAt: new Date(t),
        endedAt: new Date(t + 60_000),
        outcome: 'escalated',
        stopReason: 'same-failure',
        spentUsd: 0.5,
        iterations: 1,
        pr: (i % 150) + 1,
        ledgerFile: file,
        lastFailure: { fingerprint: 'f', evidence: Array.from({ length: 100 }, (_, k) => `failing: test ${k} ${'x'.repeat(900)}`) },
        wip: null,
        countsForPr: true
      }
      state = recordRun(state, run, 24)
      maxSize = Math.max(maxSize, JSON.stringify(state).length)
    }
    expect(() => validateState(JSON.parse(JSON.stringify(state)), 'loop')).not.toThrow()
    expect(state.runs).toHaveLength(LIMITS.runs)
    expect(state.prRuns.length).toBeLessThanOrEqual(LIMITS.prCounts)
    expect(state.periodLedger.length).toBeLessThanOrEqual(72)
    expect(state.lastFailure!.evidence).toHaveLength(LIMITS.evidenceLines)
    expect(maxSize).toBeLessThan(64 * 1024)
    // 20-minute runs, 24 h window: 72 charges of $0.50 in the window
    expect(state.periodLedger.reduce((s, c) => s + c.usd, 0)).toBeCloseTo(36)
  })

  it('counts runs per pull request, but not runs that spent nothing', () => {
    const base = {
      startedAt: new Date(),
      endedAt: new Date(),
      outcome: 'escalated',
      stopReason: 'max-iterations' as const,
      spentUsd: 0,
      iterations: 1,
      pr: 7,
      ledgerFile: '/nonexistent',
      lastFailure: null,
      wip: null
    }
    let state = recordRun(emptyState('l'), { ...base, runId: '1-1', countsForPr: true }, 24)
    state = recordRun(state, { ...base, runId: '2-1', countsForPr: true }, 24)
    state = recordRun(state, { ...base, runId: '3-1', countsForPr: false, stopReason: 'review-capacity' }, 24)
    expect(prRunCount(state, 7)).toBe(2)
    expect(prRunCount(state, 8)).toBe(0)
  })
})
