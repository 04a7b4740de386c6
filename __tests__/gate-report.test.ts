import { countsFromOutput, parseJUnit, parseReport, parseTap } from '../src/gate/reports/parse-report.js'
import { fingerprintOf } from '../src/gate/reports/fingerprint.js'

const JEST_JUNIT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="4" failures="1" errors="0" time="1.2">
  <testsuite name="math" errors="0" failures="1" skipped="1" timestamp="2026-01-01T00:00:00" time="0.5" tests="4">
    <testcase classname="math adds" name="math adds two numbers" time="0.002">
      <failure message="expected 5, got -1">Error: expect(received).toBe(expected) // Object.is equality

Expected: 5
Received: -1
    at Object.&lt;anonymous&gt; (/tmp/jest_rs/abc/test.js:3:5)</failure>
    </testcase>
    <testcase classname="math adds" name="zero &amp; zero" time="0.001"/>
    <testcase classname="math adds" name="skipped one" time="0"><skipped/></testcase>
    <testcase classname="math adds" name="cdata" time="0.001"><error><![CDATA[TypeError: x is not a function
  at y]]></error></testcase>
  </testsuite>
</testsuites>`

const PYTEST = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="0" tests="2" time="0.05" timestamp="2026-01-01T00:00:00.000000" hostname="h"><testcase classname="tests.test_math" name="test_add" time="0.001"><failure message="assert -1 == 5">def test_add():
&gt;       assert add(2, 3) == 5
E       assert -1 == 5</failure></testcase><testcase classname="tests.test_math" name="test_zero" time="0.000" /></testsuite></testsuites>`

const GO = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2" failures="1">
	<testsuite name="example.com/m" tests="2" failures="1" errors="0" id="0" hostname="h" time="0.003" timestamp="2026-01-01T00:00:00Z">
		<testcase name="TestAdd" classname="example.com/m" time="0.000">
			<failure message="Failed" type="">    m_test.go:6: add(2, 3) = -1, want 5</failure>
		</testcase>
		<testcase name="TestZero" classname="example.com/m" time="0.000"></testcase>
	</testsuite>
</testsuites>`

describe('JUnit XML', () => {
  test('jest-junit: ids, messages (message attribute and text without stack frames), skipped, errors, CDATA, entities', () => {
    const r = parseJUnit(JEST_JUNIT)
    expect(r.tests).toBe(4)
    expect(r.skipped).toBe(1)
    expect(r.failures).toEqual([
      {
        id: 'math adds › math adds two numbers',
        message: 'expected 5, got -1\nError: expect(received).toBe(expected) // Object.is equality\n\nExpected: 5\nReceived: -1\nat /tmp/jest_rs/abc/test.js:3'
      },
      { id: 'math adds › cdata', message: 'TypeError: x is not a function\n  at y' }
    ])
    expect(r.passedIds).toEqual(['math adds › zero & zero'])
  })

  test('pytest --junitxml and go-junit-report', () => {
    const py = parseReport(PYTEST)
    expect(py.tests).toBe(2)
    expect(py.failures).toEqual([{ id: 'tests.test_math › test_add', message: 'assert -1 == 5' }])
    const go = parseReport(GO)
    expect(go.failures).toEqual([{ id: 'example.com/m › TestAdd', message: 'Failed\nm_test.go:6: add(2, 3) = -1, want 5' }])
    expect(go.passedIds).toEqual(['example.com/m › TestZero'])
  })

  test('not a report: throws (the gate fails closed)', () => {
    expect(() => parseJUnit('<html><body>oops</body></html>')).toThrow(/not a JUnit/)
    expect(() => parseTap('just some output')).toThrow(/not a TAP/)
  })

  test('the fingerprint ignores durations, timestamps and temp paths', () => {
    const a = parseJUnit(JEST_JUNIT)
    const b = parseJUnit(
      JEST_JUNIT.replace(/time="[^"]*"/g, 'time="9.9"')
        .replace('/tmp/jest_rs/abc', '/tmp/jest_rs/zzz')
        .replace('2026-01-01T00:00:00', '2027-02-02T11:11:11')
    )
    expect(fingerprintOf(a.failures)).toBe(fingerprintOf(b.failures))
    const c = parseJUnit(JEST_JUNIT.replace('expected 5, got -1', 'expected 5, got 7'))
    expect(fingerprintOf(c.failures)).not.toBe(fingerprintOf(a.failures))
  })

  test('a 10,000-test report parses in well under two seconds', () => {
    const cases: string[] = []
    for (let i = 0; i < 10000; i++) {
      cases.push(
        i % 100 === 0
          ? `<testcase classname="suite${i % 37}" name="test number ${i}" time="0.01"><failure message="boom ${i}">Error: boom\n at x (/tmp/a/b.js:1:1)</failure></testcase>`
          : `<testcase classname="suite${i % 37}" name="test number ${i}" time="0.01"/>`
      )
    }
    const xml = `<?xml version="1.0"?><testsuites><testsuite name="big" tests="10000">${cases.join('\n')}</testsuite></testsuites>`
    // Its speed is a figure of npm run bench (the fingerprint of a 10,000-test report).
    const r = parseJUnit(xml)
    expect(r.tests).toBe(10000)
    expect(r.failures).toHaveLength(100)
  })
})

describe('TAP', () => {
  test('ok / not ok / SKIP / TODO and the first diagnostic line', () => {
    const r = parseTap(
      [
        'TAP version 13',
        '1..4',
        'ok 1 - adds',
        'not ok 2 - subtracts',
        '  ---',
        "  message: 'expected 1'",
        '  ...',
        'ok 3 - later # SKIP not yet',
        'not ok 4 - flaky # TODO fix'
      ].join('\n')
    )
    expect(r.tests).toBe(4)
    expect(r.skipped).toBe(1)
    expect(r.failures).toEqual([{ id: 'subtracts', message: 'expected 1' }])
    expect(r.passedIds).toEqual(['adds', 'flaky'])
  })
})

describe('test counts from plain output', () => {
  test.each([
    ['jest', 'Tests:       1 failed, 2 skipped, 5 passed, 8 total', { tests: 8, skipped: 2 }],
    ['pytest', '===== 1 failed, 4 passed, 2 skipped in 0.12s =====', { tests: 7, skipped: 2 }],
    ['mocha', '  5 passing (10ms)\n  1 pending\n  2 failing', { tests: 8, skipped: 1 }],
    ['go', '--- PASS: TestA (0.00s)\n--- FAIL: TestB (0.00s)\n--- SKIP: TestC (0.00s)', { tests: 3, skipped: 1 }],
    ['node:test TAP summary', '# tests 6\n# pass 6\n# skip 1', { tests: 6, skipped: 1 }],
    ['check marks', '✓ a\n✕ b\n✓ c', { tests: 3, skipped: 0 }]
  ])('%s', (_name, output, expected) => {
    expect(countsFromOutput(output)).toEqual(expected)
  })

  test('nothing countable', () => {
    expect(countsFromOutput('all good')).toBeNull()
  })
})
