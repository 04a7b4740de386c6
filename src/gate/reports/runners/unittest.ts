import { failureText } from '../failure-text.js'
import type { TestCounts, TestRunner } from '../test-runner.js'

const HEADER = /^(FAIL|ERROR): (\S+) \(([^)\s]+)\)/
const RULE = /^(?:={20,}|-{20,})$/

/** unittest's `Ran 3 tests in 0.01s` and the `OK (skipped=1)` / `FAILED (failures=1, skipped=1)` line after it. */
function unittestCounts(text: string): TestCounts | null {
  const ran = /^Ran (\d+) tests? in \d/m.exec(text)
  if (!ran) return null
  const status = /^(?:OK|FAILED)(?: \((.*)\))?\s*$/m.exec(text.slice(ran.index))
  const skipped = Number(/skipped=(\d+)/.exec(status?.[1] ?? '')?.[1] ?? 0) + Number(/expected failures=(\d+)/.exec(status?.[1] ?? '')?.[1] ?? 0)
  return { tests: Number(ran[1]), skipped }
}

/** `test_add (tests.test_math.TestAdd.test_add)` (3.11+) or `(tests.test_math.TestAdd)` → the id its report gives. */
function unittestId(name: string, where: string): string {
  const cls = where.endsWith(`.${name}`) ? where.slice(0, -name.length - 1) : where
  return `${cls} › ${name}`
}

/**
 * unittest's text runner (and Django's test command): each failure is a `FAIL: name (module.Class)`
 * header between rules of `=`, its traceback after a rule of `-`.
 */
export const unittestRunner: TestRunner = {
  id: 'unittest',
  configFiles: [],
  recognises: (text) => /^Ran \d+ tests? in \d/m.test(text) || /^(?:FAIL|ERROR): \S+ \([^)\s]+\)/m.test(text),
  counts: unittestCounts,
  failures(lines, failures) {
    for (let i = 0; i < lines.length; i++) {
      const h = HEADER.exec(lines[i])
      if (!h) continue
      let j = i + 1
      if (j < lines.length && /^-{20,}$/.test(lines[j])) j++
      const block: string[] = []
      for (; j < lines.length && !RULE.test(lines[j]) && !HEADER.test(lines[j]); j++) block.push(lines[j])
      failures.add(unittestId(h[2], h[3]), failureText(block.join('\n')))
      i = j - 1
    }
  }
}
