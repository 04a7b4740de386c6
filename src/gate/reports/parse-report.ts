import { stripAnsi } from './failure-text.js'
import { genericCounts } from './generic-console.js'
import { REPORT_FORMATS } from './format-registry.js'
import { relativeTo, type TestReport } from './report-model.js'
import { TEST_RUNNERS } from './runner-registry.js'
import type { TestCounts } from './test-runner.js'

export type { TestReport } from './report-model.js'
export { parseJUnit } from './formats/junit.js'
export { parseTap } from './formats/tap.js'

/**
 * A report file in one of the report formats (JUnit XML, a jest / vitest JSON report, TAP).
 * Throws when it is none of them. Paths under root (the checkout) become relative.
 */
export function parseReport(text: string, root?: string): TestReport {
  const report = REPORT_FORMATS.find((f) => f.isFile(text))!.parse(text, root)
  const ids = (list: string[]): string[] =>
    relativeTo(
      root,
      list.map((id) => ({ id, message: '' }))
    ).map((f) => f.id)
  return {
    ...report,
    failures: relativeTo(root, report.failures),
    passedIds: ids(report.passedIds),
    failedIds: ids(report.failedIds),
    skippedIds: ids(report.skippedIds)
  }
}

/** Test counts read from plain output: a runner's summary, else `go test` or check-mark lines. */
export function countsFromOutput(output: string): TestCounts | null {
  const text = stripAnsi(output)
  for (const runner of TEST_RUNNERS) {
    const counts = runner.counts(text)
    if (counts) return counts
  }
  return genericCounts(text)
}
