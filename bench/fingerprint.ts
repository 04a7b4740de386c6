// Fingerprinting a 10,000-test JUnit report (jest-junit shape, 500 failures): parse + fingerprint.
import { pathToFileURL } from 'node:url'
import { fingerprintOf } from '../src/gate/reports/fingerprint.js'
import { parseJUnit } from '../src/gate/reports/parse-report.js'
import { DEFAULT_PROTECTED_PATHS } from '../src/gate/protection/protection-defaults.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { median, printTable, type Figure } from './lib.js'

const TESTS = 10_000
const FAILING_EVERY = 20

export function junitReport(tests = TESTS): string {
  const cases: string[] = []
  for (let i = 0; i < tests; i++) {
    const name = `module ${i % 200} › behaves case ${i}`
    const body =
      i % FAILING_EVERY === 0
        ? `<failure message="expected ${i} at 0x7ffd${i.toString(16)}">Error: expected ${i}\n    at /tmp/jest_${i}/suite.test.js:${i}:7 (${i % 97} ms)</failure>`
        : ''
    cases.push(`    <testcase classname="suite ${i % 200}" name="${name}" time="0.00${i % 9}">${body}</testcase>`)
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="${tests}">\n  <testsuite name="all" tests="${tests}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`
}

/** Classifying 50,000 paths against the whole default protected list (done for every changed path). */
function protectedMatching(): Figure {
  const paths = new ProtectedPaths(DEFAULT_PROTECTED_PATHS)
  const files = Array.from({ length: 50_000 }, (_, i) => `src/module${i % 97}/deep/path/file${i}.ts`)
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const t = performance.now()
    for (const f of files) paths.kind(f)
    times.push(performance.now() - t)
  }
  const ms = median(times)
  return { name: 'match 50,000 paths against the default protected list', value: `${ms.toFixed(0)} ms`, target: '≤ 500 ms', ok: ms <= 500 }
}

export async function benchFingerprint(): Promise<Figure[]> {
  const xml = junitReport()
  const times: number[] = []
  let failures = 0
  for (let i = 0; i < 9; i++) {
    const t = performance.now()
    const report = parseJUnit(xml)
    fingerprintOf(report.failures)
    times.push(performance.now() - t)
    failures = report.failures.length
  }
  return [
    { name: `fingerprint a ${TESTS}-test JUnit report (${failures} failing, ${(xml.length / 1e6).toFixed(1)} MB)`, value: `${median(times).toFixed(0)} ms` },
    protectedMatching()
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) printTable(await benchFingerprint())
