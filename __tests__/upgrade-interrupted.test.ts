import { appendFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { GateVerdict } from '../src/loop/engine-types.js'
import { upgradeAttemptsOfSettledRun, UPGRADE_START } from '../src/upgrade/interrupted.js'
import { settleUpgrade, type UpgradeReady } from '../src/upgrade/prepare.js'
import { tempDir } from './helpers/repo.js'

const NOW = new Date('2026-02-01T00:00:00Z')
const basis = { package: 'mathlib', from: '1.0.0', target: '2.0.0', baseCommit: 'a'.repeat(40), lockfileHash: 'l', testsHash: 't', runId: '7-1' }
const refused = { ...basis, package: 'other', target: '3.0.0', outcome: 'bump-failed', fingerprint: null, at: '2026-01-31T00:00:00.000Z' }

function log(...entries: unknown[]): string {
  const file = path.join(tempDir('loopgate-log-'), 'attempts.jsonl')
  writeFileSync(file, entries.map((e) => JSON.stringify(e)).join('\n') + '\n')
  return file
}

describe('the upgrade attempts of a run the post step settles', () => {
  const start = { type: UPGRADE_START, attempt: basis, refused: [refused] }
  const baseline = { type: 'baseline', passed: false, fingerprint: 'f-baseline' }
  const iteration = { type: 'iteration', gate: { passed: false, fingerprint: 'f-iteration' } }

  it('killed after a call: failed, with the last gate failure’s fingerprint', () => {
    const file = log(start, baseline, iteration)
    appendFileSync(file, '{"type":"iteration","gate":{"pass') // the line the kill cut
    expect(upgradeAttemptsOfSettledRun(file, { stopReason: 'cancelled', interrupted: true, calls: 2, now: NOW })).toEqual([
      refused,
      { ...basis, outcome: 'failed', fingerprint: 'f-iteration', at: NOW.toISOString() }
    ])
    expect(upgradeAttemptsOfSettledRun(log(start, baseline), { stopReason: 'cancelled', interrupted: true, calls: 1, now: NOW })[1].fingerprint).toBe(
      'f-baseline'
    )
  })

  it('killed before any call: not judged, only the refused bumps are kept', () => {
    expect(upgradeAttemptsOfSettledRun(log(start, baseline), { stopReason: 'cancelled', interrupted: true, calls: 0, now: NOW })).toEqual([refused])
  })

  it('a stop the main step logged decides as it would have', () => {
    const file = log(start, baseline, { type: 'iteration', gate: { passed: true, fingerprint: null } }, { type: 'stop', stopReason: 'verified' })
    expect(upgradeAttemptsOfSettledRun(file, { stopReason: 'verified', interrupted: false, calls: 1, now: NOW })).toEqual([
      refused,
      { ...basis, outcome: 'verified', fingerprint: null, at: NOW.toISOString() }
    ])
    expect(upgradeAttemptsOfSettledRun(file, { stopReason: 'gate-broken', interrupted: false, calls: 0, now: NOW })).toEqual([refused])
  })

  it('no upgrade named in the log, or a malformed one: nothing', () => {
    expect(upgradeAttemptsOfSettledRun(log(baseline, iteration), { stopReason: 'cancelled', interrupted: true, calls: 1, now: NOW })).toEqual([])
    const bad = log({ type: UPGRADE_START, attempt: { ...basis, package: 42 } }, iteration)
    expect(upgradeAttemptsOfSettledRun(bad, { stopReason: 'cancelled', interrupted: true, calls: 1, now: NOW })).toEqual([])
  })
})

describe('an upgrade run cancelled in the main step', () => {
  const ready = {
    kind: 'ready',
    candidate: { name: 'mathlib', from: '1.0.0', to: '2.0.0' },
    baseCommit: 'a'.repeat(40),
    evidence: { lockfileHash: 'l', testsHash: 't' },
    attempts: []
  } as unknown as UpgradeReady
  const failing = { passed: false, fingerprint: 'f-gate' } as GateVerdict

  it('after an agent call whose gate failed: failed, with that fingerprint', () => {
    expect(settleUpgrade({ ready, end: { stopReason: 'cancelled', lastVerdict: failing, calls: 1 }, runId: '9-1', now: NOW })).toEqual([
      {
        package: 'mathlib',
        from: '1.0.0',
        target: '2.0.0',
        baseCommit: 'a'.repeat(40),
        lockfileHash: 'l',
        testsHash: 't',
        outcome: 'failed',
        fingerprint: 'f-gate',
        runId: '9-1',
        at: NOW.toISOString()
      }
    ])
  })

  it('before any call, or with no failing gate yet: not judged', () => {
    expect(settleUpgrade({ ready, end: { stopReason: 'cancelled', lastVerdict: failing, calls: 0 }, runId: '9-1', now: NOW })).toEqual([])
    expect(settleUpgrade({ ready, end: { stopReason: 'cancelled', lastVerdict: null, calls: 2 }, runId: '9-1', now: NOW })).toEqual([])
  })

  it('the post step decides a logged cancel the same way', () => {
    const start = { type: UPGRADE_START, attempt: basis, refused: [] }
    const failed = log(start, { type: 'iteration', gate: { passed: false, fingerprint: 'f-it' } }, { type: 'stop', stopReason: 'cancelled' })
    expect(upgradeAttemptsOfSettledRun(failed, { stopReason: 'cancelled', interrupted: false, calls: 1, now: NOW })).toEqual([
      { ...basis, outcome: 'failed', fingerprint: 'f-it', at: NOW.toISOString() }
    ])
    const none = log(start, { type: 'stop', stopReason: 'cancelled' })
    expect(upgradeAttemptsOfSettledRun(none, { stopReason: 'cancelled', interrupted: false, calls: 0, now: NOW })).toEqual([])
  })
})
