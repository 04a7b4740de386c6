import { fingerprintOf, normaliseMessage } from '../src/gate/fingerprint.js'
import { failuresFromOutput } from '../src/gate/output.js'

describe('failure fingerprints from plain output', () => {
  it('reads TAP failures with the message from the YAML block, not its markers', () => {
    const tap = [
      'not ok 3 - drops punctuation',
      '  ---',
      '  duration_ms: 2.944609',
      "  location: '/tmp/loopgate-demo-abc/test/slugify.test.mjs:13:1'",
      "  failureType: 'testCodeFailure'",
      '  error: |-',
      '    Expected values to be strictly equal:',
      '  ...'
    ].join('\n')
    expect(failuresFromOutput(tap)).toEqual([{ id: 'drops punctuation', message: 'Expected values to be strictly equal:' }])
  })

  it('reads jest ✕, pytest FAILED / ERROR and go --- FAIL lines', () => {
    const out = [
      '  ✕ adds numbers (5 ms)',
      '    expected 5, got -1',
      'FAILED tests/test_x.py::test_a - AssertionError: boom',
      'ERROR tests/test_y.py::test_b - ImportError',
      '--- FAIL: TestParse (0.01s)',
      '    parse_test.go:12: bad token'
    ].join('\n')
    expect(failuresFromOutput(out).map((f) => f.id)).toEqual(['adds numbers', 'tests/test_x.py::test_a', 'tests/test_y.py::test_b', 'TestParse'])
  })

  it('is the same across runs that differ in times, addresses, temp paths, pids and colours', () => {
    const a = failuresFromOutput('\u001b[31m✕ parses\u001b[0m\n  Error at 0x7ffd1a2b in /tmp/jest_abc123/x.js after 35 ms (pid 4242)\n')
    const b = failuresFromOutput('✕ parses\n  Error at 0x55aa0000 in /tmp/jest_zz9/x.js after 1.2 s (pid 77)\n')
    expect(fingerprintOf(a)).toBe(fingerprintOf(b))
    expect(fingerprintOf(a)).toMatch(/^[0-9a-f]{12}$/)
    expect(fingerprintOf(failuresFromOutput('✕ parses\n  Error: other\n'))).not.toBe(fingerprintOf(a))
    expect(normaliseMessage('at 2026-11-29T23:24:56.966Z took 12ms')).toBe('at <time> took <dur>')
  })

  it('does not depend on the order of failures', () => {
    expect(fingerprintOf([{ id: 'a', message: 'x' }, { id: 'b', message: 'y' }])).toBe(fingerprintOf([{ id: 'b', message: 'y' }, { id: 'a', message: 'x' }]))
    expect(fingerprintOf([])).toBeNull()
  })
})
