import path from 'node:path'
import { failureText } from '../failure-text.js'
import { FailureList, type TestReport } from '../report-model.js'
import type { ReportFormat } from '../report-format.js'

interface AssertionResult {
  ancestorTitles?: unknown
  title?: unknown
  fullName?: unknown
  status?: unknown
  failureMessages?: unknown
}

interface FileResult {
  name?: unknown
  message?: unknown
  status?: unknown
  assertionResults?: unknown
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** Whether a parsed JSON value is a jest / vitest JSON report. */
function isJestJson(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>).testResults) && 'numTotalTests' in value
}

/**
 * Reads the JSON report of jest (`--json`) or vitest (`--reporter=json`): one id per test
 * (file › describe › test, the file relative to root), the failure messages without stack frames.
 * A file that failed to load counts as one failure.
 */
function parseJestJson(value: Record<string, unknown>, root?: string): TestReport {
  let tests = 0
  let skipped = 0
  const failures = new FailureList()
  const passedIds: string[] = []
  const failedIds: string[] = []
  const skippedIds: string[] = []
  for (const file of arr(value.testResults) as FileResult[]) {
    const abs = str(file.name)
    const rel = root && abs.startsWith(`${root}${path.sep}`) ? path.relative(root, abs) : abs
    const results = arr(file.assertionResults) as AssertionResult[]
    for (const a of results) {
      tests++
      const titles = [...arr(a.ancestorTitles).map(str), str(a.title) || str(a.fullName)]
      const id = [rel, ...titles].filter((t) => t !== '').join(' › ')
      const status = str(a.status)
      if (status === 'passed') passedIds.push(id)
      else if (status === 'failed') {
        failures.add(id, failureText(arr(a.failureMessages).map(str).join('\n')))
        failedIds.push(id)
      } else {
        skipped++
        skippedIds.push(id)
      }
    }
    if (results.length === 0 && str(file.status) === 'failed') failures.add(rel, failureText(str(file.message)) || 'test file failed')
  }
  return { format: 'json', tests, failed: failures.items.length, skipped, failures: failures.items, passedIds, failedIds, skippedIds }
}

/** A jest / vitest JSON report printed to the console (`jest --json`, `vitest --reporter=json`). */
function jsonIn(lines: string[], root?: string): TestReport | null {
  const lastEnds: number[] = []
  for (let j = lines.length - 1; j >= 0 && lastEnds.length < 12; j--) if (lines[j].trimEnd().endsWith('}')) lastEnds.push(j)
  let tried = 0
  for (let i = 0; i < lines.length && tried < 3; i++) {
    const line = lines[i]
    const startsReport =
      /^\{\s*"num(?:Total|Failed|Passed)Test/.test(line) || (line.trim() === '{' && /^\s*"num(?:Total|Failed|Passed)Test/.test(lines[i + 1] ?? ''))
    if (!startsReport) continue
    tried++
    for (const end of [i, ...lastEnds.filter((j) => j > i)]) {
      try {
        const value: unknown = JSON.parse(lines.slice(i, end + 1).join('\n'))
        if (isJestJson(value)) return parseJestJson(value, root)
      } catch {
        // not this end; try the next
      }
    }
  }
  return null
}

function parseJsonFile(text: string, root?: string): TestReport {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new Error(`not a JSON test report (${(err as Error).message})`)
  }
  if (!isJestJson(value)) throw new Error('not a jest or vitest JSON report (no testResults)')
  return parseJestJson(value, root)
}

export const jestJsonFormat: ReportFormat = {
  id: 'json',
  isFile: (text) => /^\s*\{/.test(text),
  parse: parseJsonFile,
  inConsole: (_text, lines, root) => jsonIn(lines, root)
}
