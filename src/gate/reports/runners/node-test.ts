import { tapSummaryCounts } from '../formats/tap.js'
import { failureText, withoutDuration } from '../failure-text.js'
import { indentOf, type TestRunner } from '../test-runner.js'
import { idParts, literal, shellWord } from '../rerun-filter.js'

const SUITE = /^(\s*)▶ (\S.*)$/
const MARKED = /^(\s*)✖ (\S.*)$/

/** `✖ name (1.2ms)` (a failed test, which always has its duration) → indent and name. */
function failedTest(line: string): { indent: number; name: string } | null {
  const m = MARKED.exec(line)
  if (!m) return null
  const hash = m[2].indexOf(' # ')
  const text = (hash < 0 ? m[2] : m[2].slice(0, hash)).trimEnd()
  const name = withoutDuration(text)
  return name === text ? null : { indent: m[1].length, name }
}
/** The last stack frame, followed by the error's own properties (`{ code: …, actual: …, }`). */
const FRAME_WITH_PROPS = /^\s*at .* \{\s*$/

/** The error block without its property dump, except `actual` and `expected`. */
function withoutErrorProps(block: string[]): string[] {
  const start = block.findLastIndex((l) => FRAME_WITH_PROPS.test(l))
  if (start < 0) return block
  const indent = indentOf(block[start])
  const props: string[] = []
  let end = start + 1
  for (; end < block.length && !/^\s*\}\s*$/.test(block[end]); end++) {
    if (/^\s*(?:actual|expected):/.test(block[end]) && indentOf(block[end]) < indent + 4) props.push(block[end].replace(/,\s*$/, ''))
  }
  return [...block.slice(0, start), ...props, ...block.slice(end + 1)]
}

/**
 * node:test's spec reporter (its default on a terminal, and everywhere from Node 23): the tree of
 * `▶ suite` / `✖ test (1.2ms)` lines, each failure followed by its indented error, whose
 * `actual` / `expected` properties are kept. The `failing tests` recap repeats them and is skipped.
 */
export const nodeTestRunner: TestRunner = {
  id: 'node:test',
  configFiles: [],
  recognises: (text) => /^ℹ tests \d+/m.test(text) || /^✖ failing tests:/m.test(text),
  counts: tapSummaryCounts,
  // Node 20 matches a pattern against each test's own name, later versions against the names of
  // its suites and its own joined by spaces: the test's name at the end matches both.
  only: (ids) => [shellWord(`--test-name-pattern=(?:^| )(?:${[...new Set(ids.map((id) => literal(idParts(id).at(-1)!)))].join('|')})$`)],
  failures(lines, failures) {
    const recap = lines.findIndex((l) => /^✖ failing tests:/.test(l))
    const end = recap < 0 ? lines.length : recap
    let open: { indent: number; name: string }[] = []
    for (let i = 0; i < end; i++) {
      const s = SUITE.exec(lines[i])
      if (s) {
        open = open.filter((o) => o.indent < s[1].length)
        open.push({ indent: s[1].length, name: s[2].trimEnd() })
        continue
      }
      const f = failedTest(lines[i])
      if (!f) continue
      const indent = f.indent
      const closesSuite = open.some((o) => o.indent === indent && o.name === f.name)
      const parents = open.filter((o) => o.indent < indent).map((o) => o.name)
      open = open.filter((o) => o.indent < indent)
      const block: string[] = []
      let j = i + 1
      for (; j < end && (lines[j].trim() === '' || indentOf(lines[j]) > indent); j++) block.push(lines[j])
      const message = failureText(withoutErrorProps(block).join('\n'))
      if (!closesSuite || (message && !/subtests? failed/.test(message))) failures.add([...parents, f.name].join(' › '), message)
      i = j - 1
    }
  }
}
