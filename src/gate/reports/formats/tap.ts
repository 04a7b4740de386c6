import { indentOf, type TestCounts } from '../test-runner.js'
import type { ReportFormat } from '../report-format.js'
import { failureText } from '../failure-text.js'
import { FailureList, type TestReport } from '../report-model.js'

const TEST_POINT = /^(\s*)(not ok|ok)\b/i
const SUBTEST = /^(\s*)#\s*Subtest:\s*(.*)$/
const SUMMARY_COMMENT = /^\s*#\s*(?:tests|suites|pass|fail|cancelled|skipped|skip|todo|duration_ms)\b/

interface TestPoint {
  indent: number
  ok: boolean
  number?: string
  name: string
  directive?: 'SKIP' | 'TODO'
}

/** `ok 3 - name # SKIP why`, read with string operations (linear on any line). */
function testPoint(line: string): TestPoint | null {
  const m = TEST_POINT.exec(line)
  if (!m) return null
  const rest = line.slice(m[0].length)
  const hash = rest.indexOf('#')
  let head = (hash < 0 ? rest : rest.slice(0, hash)).trim()
  const number = /^\d+/.exec(head)?.[0]
  if (number) head = head.slice(number.length).trim()
  if (head.startsWith('-')) head = head.slice(1).trim()
  const directive = hash < 0 ? undefined : /^\s*(SKIP|TODO)/i.exec(rest.slice(hash + 1))?.[1].toUpperCase()
  return { indent: m[1].length, ok: m[2].toLowerCase() === 'ok', number, name: head, directive: directive as TestPoint['directive'] }
}

function unquote(value: string): string {
  const v = value.trim()
  if (v.length >= 2 && v[0] === "'" && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'")
  if (v.length >= 2 && v[0] === '"' && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string
    } catch {
      return v.slice(1, -1)
    }
  }
  return v
}

/** The top-level keys of a TAP YAML diagnostic block, each with its value as text. */
function yamlFields(lines: string[]): Map<string, string> {
  const fields = new Map<string, string>()
  const keyLines = lines.filter((l) => l.trim() !== '')
  if (keyLines.length === 0) return fields
  const base = indentOf(keyLines[0])
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (indentOf(line) !== base) continue
    const m = /^\s*([A-Za-z_][\w-]*):\s*(.*)$/.exec(line)
    if (!m) continue
    const inline = m[2].trim()
    if (inline && !/^[|>][-+]?$/.test(inline)) {
      fields.set(m[1], unquote(inline))
      continue
    }
    const body: string[] = []
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || indentOf(lines[j]) > base); j++) body.push(lines[j])
    const inner = body.filter((l) => l.trim() !== '').reduce((min, l) => Math.min(min, indentOf(l)), Infinity)
    const cut = Number.isFinite(inner) ? inner : 0
    fields.set(
      m[1],
      body
        .map((l) => l.slice(cut))
        .join('\n')
        .replace(/\s+$/, '')
    )
  }
  return fields
}

/** A failing test point's message from the lines that follow it (YAML block or plain diagnostics). */
function diagnostics(block: string[]): { message: string; failureType: string } {
  const start = block.findIndex((l) => l.trim() !== '')
  if (start >= 0 && block[start].trim() === '---') {
    const end = block.findIndex((l, i) => i > start && indentOf(l) <= indentOf(block[start]) && l.trim() === '...')
    const fields = yamlFields(block.slice(start + 1, end < 0 ? block.length : end))
    const parts = [fields.get('error') ?? fields.get('message') ?? '']
    for (const key of ['expected', 'actual', 'wanted', 'found']) {
      const v = fields.get(key)
      if (v !== undefined) parts.push(v.includes('\n') ? `${key}:\n${v.replace(/^/gm, '  ')}` : `${key}: ${v}`)
    }
    // node:test's frames come without `at`: given it, they are read for the failing line and stripped.
    const frames = (fields.get('stack') ?? '')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => `at ${l.trim()}`)
    return { message: failureText([...parts.filter((p) => p !== ''), ...frames].join('\n')), failureType: fields.get('failureType') ?? '' }
  }
  const plain = block.filter((l) => !SUBTEST.test(l) && !SUMMARY_COMMENT.test(l)).map((l) => l.replace(/^(\s*)#\s?/, '$1'))
  return { message: failureText(plain.join('\n')), failureType: '' }
}

/**
 * Reads a TAP stream, nested subtests included (node:test): leaves are the tests, a parent's id
 * leads its children's; `# SKIP` / `# TODO` directives; YAML diagnostics give the message with
 * expected and actual. A parent that failed only because a child did adds no failure.
 */
export function parseTap(text: string): TestReport {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  let tests = 0
  let skipped = 0
  const failures = new FailureList()
  const passedIds: string[] = []
  const failedIds: string[] = []
  const skippedIds: string[] = []
  let sawPlanOrTest = false
  let open: { indent: number; name: string }[] = []
  let lastPointIndent = -1
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^\s*1\.\.\d+/.test(line)) sawPlanOrTest = true
    const sub = SUBTEST.exec(line)
    if (sub) {
      open = open.filter((o) => o.indent < sub[1].length)
      open.push({ indent: sub[1].length, name: sub[2].trim() })
      continue
    }
    const point = testPoint(line)
    if (!point) continue
    sawPlanOrTest = true
    const indent = point.indent
    const isParent = lastPointIndent > indent
    lastPointIndent = indent
    const parents = open.filter((o) => o.indent < indent).map((o) => o.name)
    open = open.filter((o) => o.indent < indent)
    const name = point.name || `test ${point.number ?? tests + 1}`
    const id = [...parents, name].join(' › ')
    const block: string[] = []
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j]
      if (next.trim() !== '' && (indentOf(next) < indent || (indentOf(next) === indent && !/^\s*#(?!\s*Subtest:)/.test(next)))) break
      if (TEST_POINT.test(next) || SUBTEST.test(next)) break
      block.push(next)
    }
    const directive = point.directive
    const failedPoint = !point.ok && directive !== 'TODO'
    if (isParent) {
      if (!failedPoint) continue
      const d = diagnostics(block)
      if (d.failureType !== 'subtestsFailed' && !/^\d+ subtests? failed$/.test(d.message)) failures.add(id, d.message)
      continue
    }
    tests++
    if (directive === 'SKIP') {
      skipped++
      skippedIds.push(id)
    } else if (!failedPoint) passedIds.push(id)
    else {
      failures.add(id, diagnostics(block).message)
      failedIds.push(id)
    }
  }
  if (!sawPlanOrTest) throw new Error('not a TAP report (no plan and no test lines)')
  return { format: 'tap', tests, failed: failures.items.length, skipped, failures: failures.items, passedIds, failedIds, skippedIds }
}

/** A TAP stream (node:test's default reporter when not on a terminal, `--reporter tap` of others). */
function tapIn(text: string): TestReport | null {
  const version = /^TAP version \d+[ \t]*$/m.exec(text)
  const planned = /^1\.\.\d+[ \t]*$/m.test(text) && /^(?:not )?ok \d+\b/m.test(text)
  if (!version && !planned) return null
  try {
    return parseTap(version ? text.slice(version.index) : text)
  } catch {
    return null
  }
}

/** The `# tests N` / `# skip N` summary of a TAP stream (`ℹ tests N` in node:test's spec reporter). */
export function tapSummaryCounts(text: string): TestCounts | null {
  const tapTests = /^(?:#|ℹ) tests (\d+)/m.exec(text)
  if (!tapTests) return null
  return { tests: Number(tapTests[1]), skipped: Number(/^(?:#|ℹ) skip(?:ped)? (\d+)/m.exec(text)?.[1] ?? 0) }
}

/** Any report file that is not another format is read as TAP. */
export const tapFormat: ReportFormat = {
  id: 'tap',
  isFile: () => true,
  parse: (text) => parseTap(text),
  inConsole: (text) => tapIn(text)
}
