import { failureText, withoutDuration } from './failure-text.js'
import type { FailureList } from './report-model.js'
import { indentOf, type TestCounts } from './test-runner.js'

const FAILURE_LINE = [
  /^\s*FAILED\s+(\S+)(?:\s+-\s+(.*))?$/, // pytest short summary
  /^\s*ERROR\s+(\S+)(?:\s+-\s+(.*))?$/, // pytest errors
  /^\s*(?:✕|✗|×)\s+(\S.*)$/, // check-mark reporters (their duration is cut below)
  /^\s*--- FAIL:\s+(\S+)/, // go test
  /^\s*FAIL\s+(\S+\.(?:test|spec)\.[cm]?[jt]sx?)(?:\s+\(\d+(?:\.\d+)?\s?m?s\))?\s*$/ // jest suite line (not vitest's `FAIL file > test`)
]

/**
 * Failures from output no known runner printed: FAILED / ERROR / ✕ / `--- FAIL` lines, each with
 * its inline message or the lines indented below it.
 */
export function genericFailures(lines: string[], failures: FailureList): void {
  for (let i = 0; i < lines.length; i++) {
    for (const pattern of FAILURE_LINE) {
      const m = pattern.exec(lines[i])
      if (!m || !m[1]?.trim()) continue
      let message = (m[2] ?? '').trim()
      if (!message) {
        const block: string[] = []
        const indent = indentOf(lines[i])
        for (let j = i + 1; j < lines.length && j <= i + 60; j++) {
          const l = lines[j]
          if (l.trim() !== '' && (indentOf(l) <= indent || FAILURE_LINE.some((p) => p.test(l)))) break
          block.push(l)
        }
        message = block.join('\n')
      }
      failures.add(withoutDuration(m[1]), failureText(message))
      break
    }
  }
}

/** Counts from output no known runner summarised: `go test -v` result lines, else check marks. */
export function genericCounts(text: string): TestCounts | null {
  const go = text.match(/^[ \t]*--- (?:PASS|FAIL|SKIP):/gm)
  if (go) return { tests: go.length, skipped: text.match(/^[ \t]*--- SKIP:/gm)?.length ?? 0 }
  const passMarks = text.match(/^[ \t]*(?:✓|✔|✕|✗|×)[ \t]/gm)
  if (passMarks) return { tests: passMarks.length, skipped: 0 }
  return null
}
