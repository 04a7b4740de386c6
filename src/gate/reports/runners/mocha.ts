import { failureText } from '../failure-text.js'
import type { TestCounts, TestRunner } from '../test-runner.js'
import { anyOf, idParts, shellWord } from '../rerun-filter.js'

const HEADER = /^ {2}(\d+)\) (.*)$/

/** mocha's `N passing`, `N failing`, `N pending` lines; pending tests count as skipped. */
function mochaCounts(text: string): TestCounts | null {
  const mocha = /^[ \t]*(\d+) passing/m.exec(text)
  if (!mocha) return null
  const failing = Number(/^[ \t]*(\d+) failing/m.exec(text)?.[1] ?? 0)
  const pending = Number(/^[ \t]*(\d+) pending/m.exec(text)?.[1] ?? 0)
  return { tests: Number(mocha[1]) + failing + pending, skipped: pending }
}

/**
 * mocha's spec-style reporters: after `N failing`, numbered entries whose title spans one line per
 * suite level and ends with `:`, followed by the error and mocha's `+ expected - actual` diff.
 */
export const mochaRunner: TestRunner = {
  id: 'mocha',
  configFiles: ['**/.mocharc*'],
  recognises: (text) => /^[ \t]*\d+ passing \(\d/m.test(text) || /^[ \t]*\d+ failing[ \t]*$/m.test(text),
  counts: mochaCounts,
  // `--grep` matches the full title (suites and test, joined by spaces); the xunit report files a
  // test outside any suite under the root suite, `Mocha Tests`.
  only: (ids) => {
    const titles = ids.map(idParts).flatMap((p) => (p[0] === 'Mocha Tests' && p.length > 1 ? [p.join(' '), p.slice(1).join(' ')] : [p.join(' ')]))
    return ['--grep', shellWord(anyOf(titles))]
  },
  failures(lines, failures) {
    const start = lines.findIndex((l) => /^\s*\d+ failing\s*$/.test(l))
    if (start < 0) return
    for (let i = start + 1; i < lines.length; i++) {
      const h = HEADER.exec(lines[i])
      if (!h) continue
      const title = [h[2].trim()]
      let j = i + 1
      while (!title[title.length - 1].endsWith(':') && j < lines.length && lines[j].trim() !== '' && j - i < 20) title.push(lines[j++].trim())
      title[title.length - 1] = title[title.length - 1].replace(/:$/, '')
      const block: string[] = []
      for (; j < lines.length && !HEADER.test(lines[j]); j++) block.push(lines[j])
      failures.add(title.join(' › '), failureText(block.map((l) => l.replace(/^ {6}/, '')).join('\n')))
      i = j - 1
    }
  }
}
