import { failureText, MESSAGE_MAX_CHARS, MESSAGE_MAX_LINES } from '../src/gate/reports/failure-text.js'
import { fingerprintOf, normaliseMessage, normaliseOutput, verdictFingerprint } from '../src/gate/reports/fingerprint.js'
import { failuresFromOutput, readOutput } from '../src/gate/reports/console-output.js'

describe('failure fingerprints from plain output', () => {
  it('reads TAP failures with the message from the YAML block, not its markers', () => {
    const tap = [
      'TAP version 13',
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

  it('is the same when an edit above the failing line in the code moves it, and differs for another file', () => {
    const at = (where: string) => fingerprintOf([{ id: 'loads', message: `AssertionError: expected 2 to equal 3\nat ${where}\nat test/loader.test.js:14` }])
    expect(at('lib/loader.js:28')).toBe(at('lib/loader.js:31:7'))
    expect(at('lib/loader.js:28')).not.toBe(at('lib/other.js:28'))
  })

  it('does not depend on the order of failures', () => {
    expect(
      fingerprintOf([
        { id: 'a', message: 'x' },
        { id: 'b', message: 'y' }
      ])
    ).toBe(
      fingerprintOf([
        { id: 'b', message: 'y' },
        { id: 'a', message: 'x' }
      ])
    )
    expect(fingerprintOf([])).toBeNull()
  })
})

describe('fingerprints when no test line is read', () => {
  const yamlCrash = (dir: string, ms: number): string =>
    [
      `> p@1.0.0 test ${dir}`,
      '> node scripts/check.mjs',
      '',
      `${dir}/node_modules/js-yaml/dist/js-yaml.mjs:1273`,
      '      throw new YAMLException(message, mark);',
      'YAMLException: bad indentation of a mapping entry (3:5)',
      `    at generateError (file://${dir}/node_modules/js-yaml/dist/js-yaml.mjs:1273:10)`,
      `    at Object.<anonymous> (${dir}/scripts/check.mjs:4:1) 0x7ffd${ms}`,
      `Done in ${ms}ms at 2026-11-29T23:24:${10 + (ms % 40)}.966Z`
    ].join('\n')
  const assertionLater = (dir: string): string =>
    [`> p@1.0.0 test ${dir}`, '> node scripts/check.mjs', '', 'AssertionError [ERR_ASSERTION]: 3 == 4', `    at ${dir}/scripts/check.mjs:9:3`].join('\n')
  const eslint = (rule: string, text: string, line: number): string =>
    [`/home/runner/work/p/p/src/a.js`, `  ${line}:7  error  ${text}  ${rule}`, '', '✖ 1 problem (1 error, 0 warnings)'].join('\n')

  it('differ for different errors with the same reason', () => {
    expect(failuresFromOutput(yamlCrash('/home/u/p', 12))).toEqual([])
    const crash = verdictFingerprint([], 'exit 1', yamlCrash('/home/u/p', 12))
    const later = verdictFingerprint([], 'exit 1', assertionLater('/home/u/p'))
    expect(crash).not.toBe(later)
    expect(failuresFromOutput(eslint('no-unused-vars', "'x' is assigned a value but never used", 3))).toEqual([])
    expect(verdictFingerprint([], 'exit 1', eslint('no-unused-vars', "'x' is assigned a value but never used", 3))).not.toBe(
      verdictFingerprint([], 'exit 1', eslint('no-undef', "'y' is not defined", 3))
    )
  })

  it('are the same for the same failure in another directory, at another time, with other numbers', () => {
    expect(verdictFingerprint([], 'exit 1', yamlCrash('/tmp/loopgate-gate-aaa/checkout', 12))).toBe(
      verdictFingerprint([], 'exit 1', yamlCrash('/home/runner/work/_temp/loopgate-gate-bbb/checkout', 3051))
    )
    expect(verdictFingerprint([], 'exit 1', `\u001b[31m${eslint('no-undef', "'y' is not defined", 3)}\u001b[0m`)).toBe(
      verdictFingerprint([], 'exit 1', eslint('no-undef', "'y' is not defined", 17))
    )
    expect(normaliseOutput('b 12ms\na /srv/x/y.js:3:4\nb 9ms')).toBe('a <dir>/y.js:<n>:<n>\nb <dur>')
  })

  it('still depend on the reason (a timeout is not a crash)', () => {
    expect(verdictFingerprint([], 'timed out after 30 s', 'same')).not.toBe(verdictFingerprint([], 'exit 1', 'same'))
  })
})

describe('vitest console output', () => {
  const out = [
    ' RUN  v4.1.12 /tmp/p',
    '',
    ' ❯ test/a.test.ts (4 tests | 4 failed) 12ms',
    '     × one 3ms',
    '     × two 10ms',
    '     × three 1ms',
    '     × four 1ms',
    '',
    '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 4 ⎯⎯⎯⎯⎯⎯⎯',
    '',
    ...['one', 'two', 'three', 'four'].flatMap((name, i) => [
      ` FAIL  test/a.test.ts > suite > ${name}`,
      `AssertionError: expected ${i} to be 9 // Object.is equality`,
      '',
      '- Expected',
      '+ Received',
      '',
      '- 9',
      `+ ${i}`,
      '',
      ` ❯ test/a.test.ts:${i + 3}:20`,
      `      ${i + 3}|   it('${name}', () => expect(${i}).toBe(9))`,
      '       |                                 ^',
      '',
      `⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[${i + 1}/4]⎯`,
      ''
    ]),
    ' Test Files  1 failed (1)',
    '      Tests  4 failed (4)'
  ].join('\n')

  it('gives one item per failure, ids without timings, the diff in the message', () => {
    const failures = failuresFromOutput(out)
    expect(failures.map((f) => f.id)).toEqual(['one', 'two', 'three', 'four'].map((n) => `test/a.test.ts > suite > ${n}`))
    expect(failures[1].message).toBe('AssertionError: expected 1 to be 9 // Object.is equality\n\n- Expected\n+ Received\n\n- 9\n+ 1\nat test/a.test.ts:4')
  })

  it('without the failure sections, reads the tree lines without their durations', () => {
    expect(failuresFromOutput(out.split('⎯⎯⎯⎯⎯⎯⎯ Failed Tests')[0]).map((f) => f.id)).toEqual(['one', 'two', 'three', 'four'])
  })
})

describe('failure messages', () => {
  it('keep at most 40 lines and 4 KB, and say when they were cut', () => {
    const long = failureText(['AssertionError: lists differ', ...Array.from({ length: 100 }, (_, i) => `+ item ${i}`)].join('\n'))
    expect(long.split('\n')).toHaveLength(MESSAGE_MAX_LINES + 1)
    expect(long.endsWith('\n…')).toBe(true)
    const wide = failureText(`Error: ${'x'.repeat(10_000)}`)
    expect(wide.length).toBeLessThanOrEqual(MESSAGE_MAX_CHARS + 2)
  })

  it('drop stack frames, code frames and colours, not the words of the message', () => {
    const text = failureText(
      [
        '\u001b[31mError: at least 3 items expected\u001b[39m',
        '',
        '  > 4 | expect(list).toHaveLength(3)',
        '      |                ^',
        '    at Object.toHaveLength (/tmp/x/test.js:4:18)',
        '    at new Promise (<anonymous>)'
      ].join('\n')
    )
    // The failing line is kept as the last line (the gate's verdict makes it relative to the checkout).
    expect(text).toBe('Error: at least 3 items expected\nat /tmp/x/test.js:4')
  })
})

describe('hostile output', () => {
  // the output comes from code the agent wrote; reading it must stay linear (no regex backtracking blow-up)
  const rows = (row: string): string => `${row}\n`.repeat(Math.floor(1_000_000 / (row.length + 1)))
  test.each([
    ['blank lines', '\n'.repeat(1_000_000)],
    ['whitespace runs', rows(' '.repeat(2000))],
    ['a TAP line padded with spaces', rows(`not ok 1 - a${' '.repeat(1900)}x`)],
    ['vitest separators', rows(`⎯⎯⎯ Failed Tests ${'⎯'.repeat(1980)}x`)],
    ['a FAIL line padded with spaces', ` RUN  v1.0.0 /x\n⎯⎯⎯ Failed Tests 1 ⎯⎯⎯\n${rows(` FAIL  a > b${' '.repeat(1900)}x`)}`],
    ['jest bullets padded with spaces', `Test Suites: 1 failed\n${rows(`  ● a${' '.repeat(1990)}x`)}`],
    ['pytest-like summaries', rows(`= ${'passed in 1s '.repeat(150)}x`)],
    ['digit runs', rows(`Tests: ${'1'.repeat(2000)}x`)]
  ])('%s: read and fingerprinted in well under the gate timeout', (_name, output) => {
    const started = performance.now()
    const read = readOutput(output)
    verdictFingerprint(read.failures, 'exit 1', output)
    expect(performance.now() - started).toBeLessThan(3000)
  })
})
