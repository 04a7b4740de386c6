import { readFileSync } from 'node:fs'
import path from 'node:path'
import { STOP_REASONS, STOP_REASON_TABLE, exitCodeFor, knownStopReason, needsEscalation, outcomeFor, stopReasonEntry } from '../src/loop/stop-reasons.js'
import { ROOT } from './helpers/action-runner.js'

/** The exit codes released before the table: 0 for verified, else 10 + the position in this list. */
const RELEASED_ORDER = [
  'verified',
  'max-iterations',
  'spend-ceiling',
  'period-ceiling',
  'time-limit',
  'no-progress',
  'same-failure',
  'protected-tampering',
  'agent-failure',
  'cancelled',
  'review-capacity',
  'nothing-to-do',
  'state-corrupt',
  'config-error'
]
const RELEASED_CODES: Record<string, number> = {
  verified: 0,
  'max-iterations': 11,
  'spend-ceiling': 12,
  'period-ceiling': 13,
  'time-limit': 14,
  'no-progress': 15,
  'same-failure': 16,
  'protected-tampering': 17,
  'agent-failure': 18,
  cancelled: 19,
  'review-capacity': 20,
  'nothing-to-do': 21,
  'state-corrupt': 22,
  'config-error': 23
}

describe('stop reasons', () => {
  it('keeps every released exit code exactly as it was', () => {
    RELEASED_ORDER.forEach((reason, i) => expect(RELEASED_CODES[reason]).toBe(reason === 'verified' ? 0 : 10 + i))
    for (const [reason, code] of Object.entries(RELEASED_CODES)) expect(exitCodeFor(knownStopReason(reason)!)).toBe(code)
  })

  it('gives gate-broken a code of its own without renumbering the others', () => {
    expect(exitCodeFor('gate-broken')).toBe(24)
    expect(outcomeFor('gate-broken')).toBe('stopped')
    expect(needsEscalation('gate-broken')).toBe(false)
  })

  it('gives agent-gave-up the next code, escalating', () => {
    expect(exitCodeFor('agent-gave-up')).toBe(25)
    expect(outcomeFor('agent-gave-up')).toBe('escalated')
  })

  it('gives every reason a distinct CLI exit status, 0 only for verified, within the shell range', () => {
    const codes = STOP_REASONS.map(exitCodeFor)
    expect(new Set(codes).size).toBe(STOP_REASONS.length)
    expect(codes.filter((c) => c === 0)).toHaveLength(1)
    expect(exitCodeFor('verified')).toBe(0)
    // 1 is an unexpected error and 2 a usage error; codes above 125 mean something to the shell.
    for (const c of codes.filter((c) => c !== 0)) expect(c).toBeGreaterThanOrEqual(10)
    for (const c of codes) expect(c).toBeLessThanOrEqual(125)
  })

  it('maps reasons to outcomes', () => {
    expect(outcomeFor('verified')).toBe('verified')
    expect(outcomeFor('review-capacity')).toBe('skipped')
    expect(outcomeFor('config-error')).toBe('stopped')
    expect(outcomeFor('same-failure')).toBe('escalated')
    expect(outcomeFor('same-failure', false)).toBe('stopped')
    expect(outcomeFor('verified', false)).toBe('verified')
    expect(outcomeFor('nothing-to-do', false)).toBe('skipped')
  })

  it('escalates exactly the reasons whose outcome is escalated', () => {
    for (const reason of STOP_REASONS) expect(needsEscalation(reason)).toBe(outcomeFor(reason) === 'escalated')
    expect(STOP_REASONS.filter(needsEscalation)).toEqual([
      'max-iterations',
      'spend-ceiling',
      'period-ceiling',
      'time-limit',
      'no-progress',
      'same-failure',
      'protected-tampering',
      'agent-failure',
      'cancelled',
      'agent-gave-up',
      'provider-unavailable',
      'flaky-tests'
    ])
  })

  it('gives every reason words: what fired and what a person can change', () => {
    for (const reason of STOP_REASONS) {
      expect(stopReasonEntry(reason).what.length).toBeGreaterThan(10)
      expect(stopReasonEntry(reason).action.length).toBeGreaterThan(10)
    }
  })

  it('gives every reason the decision a person is asked to make, in words of its own for each escalating one', () => {
    const none = {
      attempts: 0,
      firstFailure: null,
      protectedPaths: null,
      agentFailure: null,
      gaveUpReason: null,
      providerSaid: null,
      flaky: null,
      failingOnBase: null
    }
    const all = {
      attempts: 3,
      firstFailure: '` t `',
      protectedPaths: '` p `',
      agentFailure: '` a `',
      gaveUpReason: '` g `',
      providerSaid: '` s `',
      flaky: '` f `',
      failingOnBase: '` b `'
    }
    for (const reason of STOP_REASONS) {
      for (const seen of [none, all]) {
        const decision = stopReasonEntry(reason).decision(seen)
        expect(decision.length).toBeGreaterThan(40)
        expect(decision).not.toMatch(/\bnull\b|\bundefined\b/)
        if (needsEscalation(reason)) expect(decision).not.toContain('the loop stopped with')
      }
    }
  })

  it('reads a name it does not know as unknown, not as one of its own', () => {
    expect(knownStopReason('gate-broken')).toBe('gate-broken')
    expect(knownStopReason('gave-up')).toBeUndefined()
    expect(knownStopReason('toString')).toBeUndefined()
    expect(knownStopReason('__proto__')).toBeUndefined()
  })

  it('is listed in docs/stop-reasons.md with the same exit code, outcome and words', () => {
    const readme = readFileSync(path.join(ROOT, 'docs', 'stop-reasons.md'), 'utf8').split('\n')
    for (const reason of STOP_REASONS) {
      const e = STOP_REASON_TABLE[reason]
      expect(readme).toContain(`| \`${reason}\` | ${e.exitCode} | ${e.outcome} | ${e.what} | ${e.action} |`)
    }
  })
})
