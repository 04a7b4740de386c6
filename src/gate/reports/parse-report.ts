import { stripAnsi } from './failure-text.js'
import { pytestCounts } from './runners/pytest.js'
import { parseJestJson, isJestJson } from './formats/jest-json.js'
import { parseJUnit } from './formats/junit.js'
import { parseTap } from './formats/tap.js'
import { relativeTo, type TestReport } from './report-model.js'

export type { TestReport } from './report-model.js'
export { parseJUnit } from './formats/junit.js'
export { parseTap } from './formats/tap.js'

/**
 * A report file: JUnit XML, a jest / vitest JSON report, or TAP. Throws when it is none of them.
 * Paths under root (the checkout) become relative.
 */
export function parseReport(text: string, root?: string): TestReport {
  const report = parseReportText(text, root)
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

function parseReportText(text: string, root?: string): TestReport {
  if (/^\s*(?:<\?xml|<testsuites?\b|<!--)/.test(text)) return parseJUnit(text)
  if (/^\s*\{/.test(text)) {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (err) {
      throw new Error(`not a JSON test report (${(err as Error).message})`)
    }
    if (!isJestJson(value)) throw new Error('not a jest or vitest JSON report (no testResults)')
    return parseJestJson(value, root)
  }
  return parseTap(text)
}

/** Test counts read from plain output (jest, vitest, pytest, mocha, go test, TAP summaries). */
export function countsFromOutput(output: string): { tests: number; skipped: number } | null {
  const text = stripAnsi(output)
  const jest = /^Tests:[ \t]+(.*?)\b(\d+) total/m.exec(text)
  if (jest) {
    const skipped = Number(/(\d+) skipped/.exec(jest[1])?.[1] ?? 0) + Number(/(\d+) todo/.exec(jest[1])?.[1] ?? 0)
    return { tests: Number(jest[2]), skipped }
  }
  const vitest = /^[ \t]*Tests[ \t]+(.*?)\((\d+)\)/m.exec(text)
  if (vitest) return { tests: Number(vitest[2]), skipped: Number(/(\d+) skipped/.exec(vitest[1])?.[1] ?? 0) }
  const pytest = pytestCounts(text)
  if (pytest !== null) return pytest
  const tapTests = /^(?:#|ℹ) tests (\d+)/m.exec(text)
  if (tapTests) return { tests: Number(tapTests[1]), skipped: Number(/^(?:#|ℹ) skip(?:ped)? (\d+)/m.exec(text)?.[1] ?? 0) }
  const mocha = /^[ \t]*(\d+) passing/m.exec(text)
  if (mocha) {
    const failing = Number(/^[ \t]*(\d+) failing/m.exec(text)?.[1] ?? 0)
    const pending = Number(/^[ \t]*(\d+) pending/m.exec(text)?.[1] ?? 0)
    return { tests: Number(mocha[1]) + failing + pending, skipped: pending }
  }
  const go = text.match(/^[ \t]*--- (?:PASS|FAIL|SKIP):/gm)
  if (go) return { tests: go.length, skipped: text.match(/^[ \t]*--- SKIP:/gm)?.length ?? 0 }
  const passMarks = text.match(/^[ \t]*(?:✓|✔|✕|✗|×)[ \t]/gm)
  if (passMarks) return { tests: passMarks.length, skipped: 0 }
  return null
}
