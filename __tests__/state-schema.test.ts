import fc from 'fast-check'
import { emptyState, STATE_VERSION, StateCorruptError, type LoopState } from '../src/state/schema.js'
import { LIMITS } from '../src/records/state-limits.js'
import { parseState, validateState } from '../src/state/parse.js'
import { stateKey, stateKeyPrefix, stateLocation } from '../src/state/store.js'

const COMMIT_A = 'a'.repeat(40)
const COMMIT_B = 'b'.repeat(40)

function sample(): LoopState {
  return {
    ...emptyState('nightly', new Date('2026-01-01T00:00:00Z')),
    periodLedger: [{ at: '2026-01-01T01:00:00.000Z', usd: 1.25, runId: '10-1' }],
    runs: [
      {
        runId: '10-1',
        startedAt: '2026-01-01T00:00:00.000Z',
        endedAt: '2026-01-01T01:00:00.000Z',
        outcome: 'escalated',
        stopReason: 'same-failure',
        spentUsd: 1.25,
        iterations: 2,
        pr: null
      }
    ],
    lastFailure: { fingerprint: 'abc123', evidence: ['failing: t1'] },
    wip: { branch: 'loopgate/nightly-wip', head: COMMIT_A, base: COMMIT_B },
    escalationIssue: 12,
    openPullRequests: [3],
    prRuns: [{ pr: 3, runs: 2, lastAt: '2026-01-01T01:00:00.000Z' }]
  }
}

describe('state schema', () => {
  it('round-trips a valid state', () => {
    const s = sample()
    expect(parseState(JSON.stringify(s), 'nightly')).toEqual(s)
    expect(validateState(emptyState('x'), 'x').version).toBe(STATE_VERSION)
  })

  const corruptions: [string, (s: any) => void, RegExp][] = [
    ['another version', (s) => (s.version = 2), /state\.version/],
    ['another loop', (s) => (s.loopId = 'other'), /state\.loopId/],
    ['a negative charge', (s) => (s.periodLedger[0].usd = -1), /periodLedger\[0\]\.usd/],
    ['a charge that is a string', (s) => (s.periodLedger[0].usd = '1'), /periodLedger\[0\]\.usd/],
    ['a bad time', (s) => (s.periodLedger[0].at = 'yesterday'), /periodLedger\[0\]\.at/],
    ['a stop reason that is not a name', (s) => (s.runs[0].stopReason = 'gave up; see <b>'), /runs\[0\]\.stopReason/],
    ['a stop reason that is not a string', (s) => (s.runs[0].stopReason = 16), /runs\[0\]\.stopReason/],
    ['fractional iterations', (s) => (s.runs[0].iterations = 1.5), /runs\[0\]\.iterations/],
    ['a wip head that is not a commit', (s) => (s.wip.head = 'main; rm -rf /'), /wip\.head/],
    ['too many runs', (s) => (s.runs = Array.from({ length: LIMITS.runs + 1 }, () => s.runs[0])), /state\.runs/],
    ['an overlong evidence line', (s) => (s.lastFailure.evidence = ['x'.repeat(LIMITS.evidenceLineChars + 1)]), /evidence\[0\]/],
    ['a missing list', (s) => delete s.prRuns, /state\.prRuns/],
    ['a PR number of zero', (s) => (s.prRuns[0].pr = 0), /prRuns\[0\]\.pr/]
  ]
  it.each(corruptions)('refuses %s, naming the field', (_name, corrupt, field) => {
    const s = JSON.parse(JSON.stringify(sample()))
    corrupt(s)
    expect(() => validateState(s, 'nightly')).toThrow(StateCorruptError)
    expect(() => validateState(s, 'nightly')).toThrow(field)
  })

  it('refuses text that is not JSON, and never throws anything but StateCorruptError on junk', () => {
    expect(() => parseState('{"version":1,', 'nightly')).toThrow(/not JSON/)
    fc.assert(
      fc.property(fc.json(), (text) => {
        try {
          parseState(text, 'nightly')
        } catch (err) {
          return err instanceof StateCorruptError
        }
        return true
      })
    )
  })

  it('keeps a stop reason another version added or renamed as recorded, instead of calling the state corrupt', () => {
    const s = sample()
    s.runs = [
      { ...s.runs[0], runId: '8-1', stopReason: 'gave-up' },
      { ...s.runs[0], runId: '9-1', stopReason: 'gate-broken', outcome: 'stopped' },
      { ...s.runs[0], runId: '10-1' }
    ]
    const read = parseState(JSON.stringify(s), 'nightly')
    expect(read.runs.map((r) => r.stopReason)).toEqual(['gave-up', 'gate-broken', 'same-failure'])
    // Saved again, the unknown reason survives for the version that knows it.
    expect(parseState(JSON.stringify(read), 'nightly')).toEqual(read)
  })

  it('keys: one immutable key per run attempt, restored by the loop prefix; PR loops add the number', () => {
    expect(stateKey('nightly', '123-2', null)).toBe('loopgate-nightly-123-2')
    expect(stateKeyPrefix('nightly', null)).toBe('loopgate-nightly-')
    expect(stateKey('fix', '9-1', 7)).toBe('loopgate-fix@pr-7-9-1')
    expect(stateKey('fix', '9-1', 7).startsWith(stateKeyPrefix('fix', null))).toBe(false)
    expect(stateKey('fix', '9-1', 7).startsWith(stateKeyPrefix('fix', 7))).toBe(true)
    expect(stateLocation('/runner/_temp', 'nightly', null).file).toBe('/runner/_temp/loopgate-state/nightly/state.json')
  })
})
