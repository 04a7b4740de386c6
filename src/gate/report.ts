import type { FailureItem } from '../loop/types.js'
import { normaliseMessage } from './fingerprint.js'

export interface TestReport {
  format: 'junit' | 'tap'
  tests: number
  failed: number
  skipped: number
  failures: FailureItem[]
  passedIds: string[]
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

function decode(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, ent: string) => {
    if (ent[0] === '#') {
      const code = ent[1] === 'x' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10)
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[ent] ?? whole
  })
}

const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g

function attributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {}
  if (!text) return attrs
  ATTR.lastIndex = 0
  for (let m = ATTR.exec(text); m; m = ATTR.exec(text)) attrs[m[1]] = decode(m[2] ?? m[3] ?? '')
  return attrs
}

const TOKEN = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<[?!][^>]*>|<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? ''
  )
}

/**
 * Reads a JUnit XML report (jest-junit, pytest --junitxml, go-junit-report, surefire): one pass
 * over the tags, no DOM. Throws when the text is not a JUnit report.
 */
export function parseJUnit(xml: string): TestReport {
  let tests = 0
  let skipped = 0
  const failures: FailureItem[] = []
  const passedIds: string[] = []
  let sawRoot = false
  let current: { id: string; failed: boolean; skipped: boolean; message: string } | null = null
  let capture: { message: string; text: string } | null = null
  let suiteName = ''
  let last = 0
  TOKEN.lastIndex = 0
  for (let m = TOKEN.exec(xml); m; m = TOKEN.exec(xml)) {
    if (capture && m.index > last) capture.text += xml.slice(last, m.index)
    last = TOKEN.lastIndex
    if (m[1] !== undefined) {
      if (capture) capture.text += m[1]
      continue
    }
    const name = m[3]
    if (!name) continue
    const closing = m[2] === '/'
    const selfClosing = m[5] === '/'
    if (name === 'testsuites' || name === 'testsuite') {
      sawRoot = true
      if (name === 'testsuite' && !closing) suiteName = attributes(m[4]).name ?? ''
      continue
    }
    if (name === 'testcase') {
      if (!closing) {
        const a = attributes(m[4])
        const cls = a.classname || a.class || suiteName
        const id = cls && a.name ? `${cls} › ${a.name}` : a.name || cls || `test ${tests + 1}`
        current = { id, failed: false, skipped: false, message: '' }
        tests++
      }
      if (closing || selfClosing) {
        if (current) {
          if (current.failed) failures.push({ id: current.id, message: normaliseMessage(current.message).slice(0, 500) })
          else if (current.skipped) skipped++
          else passedIds.push(current.id)
        }
        current = null
      }
      continue
    }
    if (!current) continue
    if (name === 'failure' || name === 'error') {
      if (!closing) {
        current.failed = true
        const a = attributes(m[4])
        capture = { message: a.message ?? '', text: '' }
        if (selfClosing) {
          current.message ||= capture.message || a.type || name
          capture = null
        }
      } else if (capture) {
        current.message ||= firstLine(capture.message) || firstLine(decode(capture.text)) || name
        capture = null
      }
    } else if (name === 'skipped' && !closing) {
      current.skipped = true
    }
  }
  if (!sawRoot) throw new Error('not a JUnit XML report (no <testsuite> or <testsuites>)')
  return { format: 'junit', tests, failed: failures.length, skipped, failures, passedIds }
}

/** Reads a TAP stream: `ok` / `not ok` lines, `# SKIP` / `# TODO` directives, the first diagnostic. */
export function parseTap(text: string): TestReport {
  const lines = text.split(/\r?\n/)
  let tests = 0
  let skipped = 0
  const failures: FailureItem[] = []
  const passedIds: string[] = []
  let sawPlanOrTest = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^\s*1\.\.\d+/.test(line)) sawPlanOrTest = true
    const m = /^\s*(not ok|ok)\b\s*(\d+)?\s*-?\s*([^#]*?)\s*(?:#\s*(SKIP|TODO)\S*\s*(.*))?$/i.exec(line)
    if (!m) continue
    sawPlanOrTest = true
    tests++
    const id = m[3] || `test ${m[2] ?? tests}`
    const directive = m[4]?.toUpperCase()
    if (directive === 'SKIP') {
      skipped++
      continue
    }
    if (m[1].toLowerCase() === 'ok' || directive === 'TODO') {
      passedIds.push(id)
      continue
    }
    let message = ''
    for (let j = i + 1; j < lines.length && /^\s+|^#/.test(lines[j]); j++) {
      const t = lines[j].trim().replace(/^#\s*/, '').replace(/^(?:message|error):\s*/, '')
      if (t && t !== '---' && t !== '...') {
        message = t.replace(/^['"]|['"]$/g, '')
        break
      }
    }
    failures.push({ id, message: normaliseMessage(message).slice(0, 500) })
  }
  if (!sawPlanOrTest) throw new Error('not a TAP report (no plan and no test lines)')
  return { format: 'tap', tests, failed: failures.length, skipped, failures, passedIds }
}

/** JUnit when the text looks like XML, else TAP. */
export function parseReport(text: string): TestReport {
  return /^\s*(?:<\?xml|<testsuites?\b|<!--)/.test(text) ? parseJUnit(text) : parseTap(text)
}

/** Test counts read from plain output (jest, vitest, pytest, mocha, go test, TAP summaries). */
export function countsFromOutput(output: string): { tests: number; skipped: number } | null {
  const text = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
  const jest = /^Tests:\s+(.*?)(\d+) total/m.exec(text)
  if (jest) {
    const skipped = Number(/(\d+) skipped/.exec(jest[1])?.[1] ?? 0) + Number(/(\d+) todo/.exec(jest[1])?.[1] ?? 0)
    return { tests: Number(jest[2]), skipped }
  }
  const vitest = /^\s*Tests\s+(.*?)\((\d+)\)/m.exec(text)
  if (vitest) return { tests: Number(vitest[2]), skipped: Number(/(\d+) skipped/.exec(vitest[1])?.[1] ?? 0) }
  const pytest = [...text.matchAll(/^=+ (.*\b(?:passed|failed|error|errors|skipped)\b.*) in [\d.]+s.*=+$/gm)].pop()
  if (pytest) {
    let tests = 0
    let skipped = 0
    for (const m of pytest[1].matchAll(/(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)/g)) {
      tests += Number(m[1])
      if (m[2] === 'skipped' || m[2] === 'xfailed') skipped += Number(m[1])
    }
    return { tests, skipped }
  }
  const tapTests = /^# tests (\d+)/m.exec(text)
  if (tapTests) return { tests: Number(tapTests[1]), skipped: Number(/^# skip (\d+)/m.exec(text)?.[1] ?? 0) }
  const mocha = /^\s*(\d+) passing/m.exec(text)
  if (mocha) {
    const failing = Number(/^\s*(\d+) failing/m.exec(text)?.[1] ?? 0)
    const pending = Number(/^\s*(\d+) pending/m.exec(text)?.[1] ?? 0)
    return { tests: Number(mocha[1]) + failing + pending, skipped: pending }
  }
  const go = text.match(/^\s*--- (?:PASS|FAIL|SKIP):/gm)
  if (go) return { tests: go.length, skipped: text.match(/^\s*--- SKIP:/gm)?.length ?? 0 }
  const passMarks = text.match(/^\s*(?:✓|✔|✕|✗|×)\s/gm)
  if (passMarks) return { tests: passMarks.length, skipped: 0 }
  return null
}
