import type { FailureItem } from '../../loop/engine-types.js'
import { stripAnsi } from './failure-text.js'
import { REPORT_FORMATS } from './format-registry.js'
import { genericFailures } from './generic-console.js'
import { countsFromOutput } from './parse-report.js'
import { FailureList, relativeTo } from './report-model.js'
import { TEST_RUNNERS } from './runner-registry.js'
import type { TestCounts } from './test-runner.js'

/** What the gate command's output says: who spoke, what failed, how many tests ran. */
interface OutputReading {
  /** The runners recognised (`tap`, `json`, `junit` for machine-readable output printed to the console). */
  runners: string[]
  failures: FailureItem[]
  counts: TestCounts | null
}

/**
 * Reads the gate command's console output: a machine-readable report printed there wins (JSON,
 * JUnit, TAP); otherwise each runner recognised in it reads its own output; otherwise generic
 * failure lines. Paths under root (the checkout) become relative.
 */
export function readOutput(output: string, root?: string): OutputReading {
  const text = stripAnsi(output).replace(/\r\n?/g, '\n')
  const lines = text.split('\n')
  const recognised = TEST_RUNNERS.filter((r) => r.recognises(text))
  for (const format of REPORT_FORMATS) {
    const report = format.inConsole(text, lines, root)
    if (!report || report.tests === 0) continue
    // A stream inside another runner's output (node:test's TAP in vitest's, say) is not that run's count.
    const summary = recognised.length ? countsFromOutput(text) : null
    const agrees = !summary || summary.tests === report.tests
    return {
      runners: agrees ? [format.id] : [format.id, ...recognised.map((r) => r.id)],
      failures: relativeTo(root, report.failures),
      counts: agrees ? { tests: report.tests, skipped: report.skipped } : null
    }
  }
  const failures = new FailureList()
  for (const runner of recognised) runner.failures(lines, failures)
  if (recognised.length === 0) genericFailures(lines, failures)
  return { runners: recognised.map((r) => r.id), failures: relativeTo(root, failures.items), counts: countsFromOutput(text) }
}

/**
 * Runners whose console summary is never a count: each registered runner and the JSON and JUnit
 * formats write a report loopgate could read instead, and any process of the gate user can print
 * the summary. (TAP, `go test` and check-mark lines are what custom runners print: their console
 * count is still read.)
 */
const REPORTING_RUNNERS = new Set([...TEST_RUNNERS.map((r) => r.id), 'json', 'junit'])

/** The runners in a reading whose console count is not trusted (see REPORTING_RUNNERS). */
export function reportingRunners(reading: OutputReading): string[] {
  return reading.runners.filter((r) => REPORTING_RUNNERS.has(r))
}

/** The failures read from console output (see readOutput). */
export function failuresFromOutput(output: string): FailureItem[] {
  return readOutput(output).failures
}
