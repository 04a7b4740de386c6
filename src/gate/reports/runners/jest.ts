import { failureText } from '../failure-text.js'
import { indentOf, type TestCounts, type TestRunner } from '../test-runner.js'
import { anyOf, idParts, literal, shellWord } from '../rerun-filter.js'

const FILE = /^\s?(?:PASS|FAIL)\s+(\S+)/
const BULLET = /^(\s*)● (\S.*)$/
const END = /^(?:Test Suites:|Summary of all failing tests)/

/** jest's `Tests:` summary line; todo tests count as skipped. */
function jestCounts(text: string): TestCounts | null {
  const jest = /^Tests:[ \t]+(.*?)\b(\d+) total/m.exec(text)
  if (!jest) return null
  const skipped = Number(/(\d+) skipped/.exec(jest[1])?.[1] ?? 0) + Number(/(\d+) todo/.exec(jest[1])?.[1] ?? 0)
  return { tests: Number(jest[2]), skipped }
}

/**
 * `-t` with the tests' full names (describe blocks and title, joined by spaces), and each test's
 * file as a path filter; null for a file that failed to load (its id is the file alone).
 */
export function byFileAndName(ids: readonly string[], fileFilter: (file: string) => string): string[] | null {
  const parts = ids.map(idParts)
  if (parts.some((p) => p.length < 2)) return null
  const files = [...new Set(parts.map((p) => p[0]))]
  return ['-t', shellWord(anyOf(parts.map((p) => p.slice(1).join(' ')))), ...files.map((f) => shellWord(fileFilter(f)))]
}

/** jest's default reporter: `● describe › test` blocks under each `FAIL file` line. */
export const jestRunner: TestRunner = {
  id: 'jest',
  configFiles: ['**/jest.config*', '**/jest.setup*', '**/jest-setup.*', '**/setupTests.*'],
  recognises: (text) => /^Test Suites:[ \t]+\d+/m.test(text) || (/^[ \t]*● \S/m.test(text) && /^(?:PASS|FAIL)[ \t]+\S/m.test(text)),
  counts: jestCounts,
  only: (ids) => byFileAndName(ids, (file) => `${literal(file)}$`),
  failures(lines, failures) {
    let file = ''
    for (let i = 0; i < lines.length; i++) {
      const f = FILE.exec(lines[i])
      if (f) {
        file = f[1]
        continue
      }
      const b = BULLET.exec(lines[i])
      const title = b?.[2].trimEnd()
      if (!b || !title || title === 'Console') continue
      const block: string[] = []
      let j = i + 1
      for (; j < lines.length; j++) {
        const l = lines[j]
        if (FILE.test(l) || END.test(l) || (BULLET.test(l) && indentOf(l) <= b[1].length)) break
        block.push(l)
      }
      const id = title === 'Test suite failed to run' ? file || title : file ? `${file} › ${title}` : title
      failures.add(id, failureText(block.join('\n')))
      i = j - 1
    }
  }
}
