import { chargesKey, MAX_CACHE_KEY, parseChargesKey, unionWindowUsd, type ChargeRecord } from '../src/state/charge-records.js'
import { leaseKey, parseLeaseKey, readLoopRecords } from '../src/state/lease.js'

const NOW = new Date('2026-12-01T12:00:00Z')
const hoursAgo = (h: number): string => new Date(NOW.getTime() - h * 3_600_000).toISOString()

describe('charge records written as cache keys', () => {
  it('a run’s charges survive the round trip through its key', () => {
    const charges: ChargeRecord[] = [
      { runId: '77-1', iteration: 1, at: hoursAgo(2), usd: 1.25 },
      { runId: '77-1', iteration: 2, at: hoursAgo(1), usd: 0.000_001 }
    ]
    const parsed = parseChargesKey('nightly', chargesKey('nightly', '77-1', charges))
    expect(parsed?.runId).toBe('77-1')
    expect(parsed?.charges.map((c) => [c.iteration, c.usd])).toEqual([
      [1, 1.25],
      [2, 0.000_001]
    ])
    // Times are kept to the second, rounded up: a charge never leaves the window early.
    expect(Date.parse(parsed!.charges[0].at)).toBeGreaterThanOrEqual(Date.parse(charges[0].at))
  })

  it('a key too long for the cache merges the oldest charges, keeping the sum and the newest time', () => {
    const charges = Array.from({ length: 200 }, (_, i) => ({ runId: '5-1', iteration: i + 1, at: hoursAgo(10 - i / 20), usd: 0.37 }))
    const key = chargesKey('a-long-loop-name', '5-1', charges)
    expect(key.length).toBeLessThanOrEqual(MAX_CACHE_KEY)
    expect(key).not.toContain(',')
    const parsed = parseChargesKey('a-long-loop-name', key)!
    expect(parsed.charges.length).toBeLessThan(200)
    expect(parsed.charges.reduce((s, c) => s + c.usd, 0)).toBeCloseTo(200 * 0.37, 5)
    expect(Date.parse(parsed.charges.at(-1)!.at)).toBeGreaterThanOrEqual(Date.parse(charges.at(-1)!.at))
  })

  it('keys of another loop, or that are not charges, are not read as charges', () => {
    expect(parseChargesKey('loop', chargesKey('loop-2', '1-1', []))).toBeNull()
    expect(parseChargesKey('loop', 'loopgate-loop-1-1')).toBeNull()
    expect(parseChargesKey('loop', 'loopgate-loop@charges-1-1~x')).toBeNull()
  })

  it('the window counts each run once, by its fullest record, and only inside period-hours', () => {
    const inState = [{ runId: 'r1', at: hoursAgo(3), usd: 1 }]
    const entryR1 = [
      { runId: 'r1', at: hoursAgo(3), usd: 1 },
      { runId: 'r1', at: hoursAgo(2), usd: 2 }
    ]
    const entryR2 = [{ runId: 'r2', at: hoursAgo(1), usd: 3 }]
    const old = [{ runId: 'r0', at: hoursAgo(30), usd: 50 }]
    expect(unionWindowUsd([inState, entryR1, entryR2, old], NOW, 24)).toBe(6)
    expect(unionWindowUsd([inState, entryR2], NOW, 24)).toBe(4)
  })
})

describe('leases', () => {
  const lease = (runId: string, deadlineHours: number, scope = 'loop') => leaseKey('loop', { runId, scope, deadline: hoursAgo(-deadlineHours), ceilingUsd: 40 })

  it('round-trips its run, scope, deadline and ceiling', () => {
    expect(parseLeaseKey('loop', lease('12-3', 5, 'pr7'))).toMatchObject({ runId: '12-3', scope: 'pr7', ceilingUsd: 40 })
  })

  it('the earliest live lease on the scope holds it; an ended run, another scope or this run does not', () => {
    const entries = [
      { key: lease('10-1', 4), createdAt: '2026-12-01T11:00:00Z' },
      { key: chargesKey('loop', '10-1', []), createdAt: '2026-12-01T11:30:00Z' },
      { key: lease('11-1', 4, 'pr8'), createdAt: '2026-12-01T11:10:00Z' },
      { key: lease('12-1', 4), createdAt: '2026-12-01T11:20:00Z' },
      { key: lease('13-1', 4), createdAt: '2026-12-01T11:40:00Z' }
    ]
    expect(readLoopRecords({ loopId: 'loop', entries, self: { runId: '13-1', scope: 'loop' }, now: NOW }).holder?.runId).toBe('12-1')
    // Of two runs that leased at once, the earlier lease goes on.
    expect(readLoopRecords({ loopId: 'loop', entries, self: { runId: '12-1', scope: 'loop' }, now: NOW }).holder).toBeNull()
  })

  it('a lease past its deadline with no charges entry counts at its ceiling; an earlier attempt of this workflow run is never live', () => {
    const entries = [
      { key: lease('20-1', -1), createdAt: '2026-12-01T06:00:00Z' },
      { key: lease('30-1', 3), createdAt: '2026-12-01T11:00:00Z' }
    ]
    const records = readLoopRecords({ loopId: 'loop', entries, self: { runId: '30-2', scope: 'loop' }, now: NOW })
    expect(records.holder).toBeNull()
    expect(records.unsettled.map((c) => [c.runId, c.usd])).toEqual([
      ['20-1', 40],
      ['30-1', 40]
    ])
  })
})
