import type { FailureItem } from '../loop/engine-types.js'
import { genericFailures } from './console/generic.js'
import { jestParser } from './console/jest.js'
import { mochaParser } from './console/mocha.js'
import { nodeTestParser } from './console/node-test.js'
import { pytestParser } from './console/pytest.js'
import type { ConsoleParser } from './console/types.js'
import { vitestParser } from './console/vitest.js'
import { stripAnsi } from './failure-text.js'
import { isJestJson, parseJestJson } from './jest-json.js'
import { parseJUnit } from './junit.js'
import { countsFromOutput } from './report.js'
import { parseTap } from './tap.js'
import { FailureList, relativeTo, type TestReport } from './test-report.js'

/** What the gate command's output says: who spoke, what failed, how many tests ran. */
export interface OutputReading {
  /** The runners recognised (`tap`, `json`, `junit` for machine-readable output printed to the console). */
  runners: string[]
  failures: FailureItem[]
  counts: { tests: number; skipped: number } | null
}

const CONSOLE_PARSERS: ConsoleParser[] = [vitestParser, jestParser, mochaParser, nodeTestParser, pytestParser]

/** A jest / vitest JSON report printed to the console (`jest --json`, `vitest --reporter=json`). */
function jsonIn(lines: string[], root?: string): TestReport | null {
  const lastEnds: number[] = []
  for (let j = lines.length - 1; j >= 0 && lastEnds.length < 12; j--) if (lines[j].trimEnd().endsWith('}')) lastEnds.push(j)
  let tried = 0
  for (let i = 0; i < lines.length && tried < 3; i++) {
    const line = lines[i]
    const startsReport =
      /^\{\s*"num(?:Total|Failed|Passed)Test/.test(line) || (line.trim() === '{' && /^\s*"num(?:Total|Failed|Passed)Test/.test(lines[i + 1] ?? ''))
    if (!startsReport) continue
    tried++
    for (const end of [i, ...lastEnds.filter((j) => j > i)]) {
      try {
        const value: unknown = JSON.parse(lines.slice(i, end + 1).join('\n'))
        if (isJestJson(value)) return parseJestJson(value, root)
      } catch {
        // not this end; try the next
      }
    }
  }
  return null
}

/** A JUnit XML report printed to the console (`vitest --reporter=junit`, mocha's xunit reporter). */
function junitIn(text: string): TestReport | null {
  const start = text.search(/<\?xml[^>]*\?>\s*<testsuites?\b|<testsuites?\b/)
  if (start < 0) return null
  const close = Math.max(text.lastIndexOf('</testsuites>'), text.lastIndexOf('</testsuite>'))
  if (close < start) return null
  try {
    return parseJUnit(text.slice(start, text.indexOf('>', close) + 1))
  } catch {
    return null
  }
}

/** A TAP stream (node:test's default reporter when not on a terminal, `--reporter tap` of others). */
function tapIn(text: string): TestReport | null {
  const version = /^TAP version \d+[ \t]*$/m.exec(text)
  const planned = /^1\.\.\d+[ \t]*$/m.test(text) && /^(?:not )?ok \d+\b/m.test(text)
  if (!version && !planned) return null
  try {
    return parseTap(version ? text.slice(version.index) : text)
  } catch {
    return null
  }
}

/**
 * Reads the gate command's console output: a machine-readable report printed there wins (JSON,
 * JUnit, TAP); otherwise each runner recognised in it reads its own output; otherwise generic
 * failure lines. Paths under root (the checkout) become relative.
 */
export function readOutput(output: string, root?: string): OutputReading {
  const text = stripAnsi(output).replace(/\r\n?/g, '\n')
  const lines = text.split('\n')
  const machine: [string, () => TestReport | null][] = [
    ['json', () => jsonIn(lines, root)],
    ['junit', () => junitIn(text)],
    ['tap', () => tapIn(text)]
  ]
  const recognised = CONSOLE_PARSERS.filter((p) => p.recognises(text))
  for (const [runner, read] of machine) {
    const report = read()
    if (!report || report.tests === 0) continue
    // A stream inside another runner's output (node:test's TAP in vitest's, say) is not that run's count.
    const summary = recognised.length ? countsFromOutput(text) : null
    const agrees = !summary || summary.tests === report.tests
    return {
      runners: agrees ? [runner] : [runner, ...recognised.map((p) => p.runner)],
      failures: relativeTo(root, report.failures),
      counts: agrees ? { tests: report.tests, skipped: report.skipped } : null
    }
  }
  const failures = new FailureList()
  for (const parser of recognised) parser.read(lines, failures)
  if (recognised.length === 0) genericFailures(lines, failures)
  return { runners: recognised.map((p) => p.runner), failures: relativeTo(root, failures.items), counts: countsFromOutput(text) }
}

/**
 * Runners whose console summary is never a count: each writes a report loopgate could read
 * instead, and any process of the gate user can print the summary. (TAP, `go test` and check-mark
 * lines are what custom runners print: their console count is still read.)
 */
const REPORTING_RUNNERS = new Set(['vitest', 'jest', 'mocha', 'node:test', 'pytest', 'json', 'junit'])

/** The runners in a reading whose console count is not trusted (see REPORTING_RUNNERS). */
export function reportingRunners(reading: OutputReading): string[] {
  return reading.runners.filter((r) => REPORTING_RUNNERS.has(r))
}

/** The failures read from console output (see readOutput). */
export function failuresFromOutput(output: string): FailureItem[] {
  return readOutput(output).failures
}
