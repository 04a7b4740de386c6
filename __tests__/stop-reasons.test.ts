import { STOP_REASONS, exitCodeFor, outcomeFor, STOP_EXPLANATIONS } from '../src/loop/stop-reasons.js'

describe('stop reasons', () => {
  it('gives every reason a distinct CLI exit status, 0 only for verified', () => {
    const codes = STOP_REASONS.map(exitCodeFor)
    expect(new Set(codes).size).toBe(STOP_REASONS.length)
    expect(codes.filter((c) => c === 0)).toHaveLength(1)
    expect(exitCodeFor('verified')).toBe(0)
  })
  it('maps reasons to outcomes', () => {
    expect(outcomeFor('verified')).toBe('verified')
    expect(outcomeFor('review-capacity')).toBe('skipped')
    expect(outcomeFor('config-error')).toBe('stopped')
    expect(outcomeFor('same-failure')).toBe('escalated')
    expect(outcomeFor('same-failure', false)).toBe('stopped')
    for (const r of STOP_REASONS) expect(STOP_EXPLANATIONS[r].what.length).toBeGreaterThan(10)
  })
})
