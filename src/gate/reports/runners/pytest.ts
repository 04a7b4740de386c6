import { failureText } from '../failure-text.js'
import type { TestCounts, TestRunner } from '../test-runner.js'
import { pytestNodeId, shellWord } from '../rerun-filter.js'

const REGION = /^=+ (FAILURES|ERRORS|.*) =+$/
const SECTION = /^_{3,} (.+?) _{3,}$/
const SUMMARY = /^(FAILED|ERROR) (\S+)(?: - (.*))?$/

const OUTCOME = '(?:passed|failed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)'
/** `-q`'s last line: the counts alone, `1 failed, 2 passed in 0.12s` (or `no tests ran in 0.01s`). */
const QUIET_SUMMARY = new RegExp(`^(?:\\d+ ${OUTCOME}(?:, \\d+ ${OUTCOME})*|no tests ran) in \\d[\\d.]*s\\b`)

/**
 * pytest's last line, `==== 1 failed, 2 passed in 0.12s ====` (the default) or `1 failed, 2 passed
 * in 0.12s` (`-q`), without the `=` (read per line, linearly). `-qq` prints none.
 */
function pytestSummaryLine(text: string): string | null {
  let found: string | null = null
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd()
    const framed = line.startsWith('=') && line.endsWith('=')
    const inner = framed ? line.replace(/^=+/, '').replace(/=+$/, '').trim() : line
    if (framed ? / in \d[\d.]*s\b/.test(inner) && /\b(?:passed|failed|errors?|skipped|no tests ran)\b/.test(inner) : QUIET_SUMMARY.test(inner)) found = inner
  }
  return found
}

/** The counts of pytest's summary line; a session interrupted during collection ran no test. */
function pytestCounts(text: string): TestCounts | null {
  const summary = pytestSummaryLine(text)
  if (summary === null) return null
  const interrupted = /^!+ Interrupted: \d+ errors? during collection !+$/m.test(text)
  let tests = 0
  let skipped = 0
  for (const m of summary.replace(/ in \d[\d.]*s\b.*$/, '').matchAll(/(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)\b/g)) {
    if (interrupted && /^error/.test(m[2])) continue
    tests += Number(m[1])
    if (m[2] === 'skipped' || m[2] === 'xfailed') skipped += Number(m[1])
  }
  return { tests, skipped }
}

/** The section title pytest gives a node id: `tests/test_x.py::TestA::test_b[1]` → `TestA.test_b[1]`. */
function sectionKey(nodeId: string): string {
  const parts = nodeId.split('::')
  return parts.length > 1 ? parts.slice(1).join('.') : nodeId
}

/**
 * pytest's console: the `FAILURES` / `ERRORS` sections (their `E   ` lines are the message) and
 * the short test summary's `FAILED` / `ERROR` node ids. Without a summary the section titles
 * are the ids.
 */
export const pytestRunner: TestRunner = {
  id: 'pytest',
  configFiles: ['**/pytest.ini', '**/.pytest.ini', '**/pytest.toml', '**/.pytest.toml', '**/tox.ini', '**/setup.cfg', '**/conftest.py'],
  recognises: (text) => /^=+ (?:test session starts|FAILURES|ERRORS|short test summary info) =+$/m.test(text) || pytestSummaryLine(text) !== null,
  counts: pytestCounts,
  only(ids, checkout) {
    const nodeIds = ids.map((id) => pytestNodeId(id, checkout))
    return nodeIds.every((n) => n !== null) ? nodeIds.map((n) => shellWord(n!)) : null
  },
  failures(lines, failures) {
    const sections = new Map<string, string>()
    let region = ''
    for (let i = 0; i < lines.length; i++) {
      const r = REGION.exec(lines[i])
      if (r) {
        region = r[1]
        continue
      }
      const s = region === 'FAILURES' || region === 'ERRORS' ? SECTION.exec(lines[i]) : null
      if (!s) continue
      const block: string[] = []
      let j = i + 1
      for (; j < lines.length && !SECTION.test(lines[j]) && !REGION.test(lines[j]) && !/^-{3,} .* -{3,}$/.test(lines[j]); j++) block.push(lines[j])
      const title = s[1].replace(/^ERROR (?:at (?:setup|teardown) of |collecting )/, '')
      if (!sections.has(title)) sections.set(title, failureText(block.join('\n')))
      i = j - 1
    }
    const summary = lines.map((l) => SUMMARY.exec(l)).filter((m): m is RegExpExecArray => m !== null)
    if (summary.length === 0) {
      for (const [title, message] of sections) failures.add(title, message)
      return
    }
    for (const m of summary) {
      const message = sections.get(sectionKey(m[2])) ?? sections.get(m[2]) ?? failureText(m[3] ?? '')
      failures.add(m[2], message)
    }
  }
}
