import { failureText, withoutDuration } from '../failure-text.js'
import type { TestCounts, TestRunner } from '../test-runner.js'
import { byFileAndName } from './jest.js'

const SECTION = /^\s*⎯{3,}\s*(Failed Tests|Failed Suites|Unhandled Errors?)\b/
const SEPARATOR = /^\s*⎯{3,}/
const FAIL = /^\s*FAIL\s+(\S.*)$/
/** A tree line of a failed test, with the duration vitest appends. */
const CROSS = /^\s*[×✗]\s+(\S.*)$/

/** vitest's `Tests  1 failed | 2 passed (3)` summary line. */
function vitestCounts(text: string): TestCounts | null {
  const vitest = /^[ \t]*Tests[ \t]+(.*?)\((\d+)\)/m.exec(text)
  if (!vitest) return null
  return { tests: Number(vitest[2]), skipped: Number(/(\d+) skipped/.exec(vitest[1])?.[1] ?? 0) }
}

/**
 * vitest's default reporter: the `Failed Tests` / `Failed Suites` sections, one `FAIL file > … >
 * test` line (or several sharing one error) followed by the error and its diff.
 */
export const vitestRunner: TestRunner = {
  id: 'vitest',
  configFiles: ['**/vitest.config*', '**/vitest.workspace*', '**/vitest.setup*', '**/vite.config*'],
  recognises: (text) =>
    /^[ \t]*(?:RUN|DEV)[ \t]+v\d+\.\d+\.\d+/m.test(text) ||
    /⎯ Failed (?:Tests|Suites) \d+ ⎯/.test(text) ||
    /^[ \t]*Test Files[ \t]+\d+ (?:passed|failed)/m.test(text),
  counts: vitestCounts,
  // vitest's file filters are parts of the path, not patterns.
  only: (ids) => byFileAndName(ids, (file) => file),
  failures(lines, failures) {
    let section: string | null = null
    let found = false
    for (let i = 0; i < lines.length; i++) {
      const header = SECTION.exec(lines[i])
      if (header) {
        section = header[1]
        if (/^Unhandled/.test(section)) {
          const block = untilSeparator(lines, i + 1)
          failures.add('unhandled error', failureText(block.join('\n')))
          found = true
        }
        continue
      }
      if (!section || /^Unhandled/.test(section)) continue
      const ids: string[] = []
      let j = i
      for (let m = FAIL.exec(lines[j] ?? ''); m && j < lines.length; m = FAIL.exec(lines[++j] ?? '')) ids.push(withoutFileTag(m[1].trimEnd()))
      if (ids.length === 0) continue
      const block = untilSeparator(lines, j)
      const message = failureText(block.join('\n'))
      for (const id of ids) failures.add(id, message)
      found = true
      i = j + block.length - 1
    }
    if (found) return
    for (const line of lines) {
      const m = CROSS.exec(line)
      if (m) failures.add(withoutDuration(m[1]), '')
    }
  }
}

/** `file.test.ts [ file.test.ts ]` (a suite that failed to load) → `file.test.ts`. */
function withoutFileTag(id: string): string {
  const open = id.lastIndexOf(' [')
  return id.endsWith(']') && open > 0 ? id.slice(0, open).trimEnd() : id
}

function untilSeparator(lines: string[], from: number): string[] {
  const block: string[] = []
  for (let j = from; j < lines.length && !SEPARATOR.test(lines[j]) && !FAIL.test(lines[j]); j++) block.push(lines[j])
  return block
}
