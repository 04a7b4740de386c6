/**
 * The runner and report-format registries against their folders: every file under
 * `src/gate/reports/runners/` and `formats/` is registered and every registered entry has its file,
 * and each has a fixture (real output of that runner or format) that the gate reads.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { readOutput } from '../src/gate/reports/console-output.js'
import { REPORT_FORMATS } from '../src/gate/reports/format-registry.js'
import { countsFromOutput, parseReport } from '../src/gate/reports/parse-report.js'
import { FailureList } from '../src/gate/reports/report-model.js'
import type { ReportFormat } from '../src/gate/reports/report-format.js'
import { TEST_RUNNERS } from '../src/gate/reports/runner-registry.js'
import type { TestRunner } from '../src/gate/reports/test-runner.js'
import { DEFAULT_PROTECTED_PATHS } from '../src/gate/protection/protection-defaults.js'

const REPORTS = path.resolve('src/gate/reports')
const FIXTURES = path.resolve('__fixtures__/reports')

/** Each module of a registry folder with the entries it exports (objects passing isEntry). */
async function folderEntries<T>(folder: string, isEntry: (v: unknown) => v is T): Promise<Map<string, T[]>> {
  const found = new Map<string, T[]>()
  for (const file of readdirSync(path.join(REPORTS, folder)).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(`../src/gate/reports/${folder}/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>
    found.set(file.replace(/\.ts$/, ''), Object.values(mod).filter(isEntry))
  }
  return found
}

const isRunner = (v: unknown): v is TestRunner =>
  typeof v === 'object' && v !== null && 'configFiles' in v && 'recognises' in v && 'failures' in v && 'counts' in v
const isFormat = (v: unknown): v is ReportFormat => typeof v === 'object' && v !== null && 'isFile' in v && 'parse' in v && 'inConsole' in v

/** The fixture of a registry file: `<folder>/<file name>.<any extension>`. */
function fixtureOf(folder: string, name: string): string {
  const file = readdirSync(path.join(FIXTURES, folder)).find((f) => f.slice(0, f.lastIndexOf('.')) === name)
  if (!file) throw new Error(`no fixture for ${folder}/${name}`)
  return readFileSync(path.join(FIXTURES, folder, file), 'utf8')
}

describe('the test-runner registry', () => {
  it('lists exactly one runner per file in runners/, with distinct ids', async () => {
    const files = await folderEntries('runners', isRunner)
    for (const [file, entries] of files) expect({ file, entries: entries.length }).toEqual({ file, entries: 1 })
    const fromFiles = [...files.values()].flat()
    expect(new Set(fromFiles)).toEqual(new Set(TEST_RUNNERS))
    expect(new Set(TEST_RUNNERS.map((r) => r.id)).size).toBe(TEST_RUNNERS.length)
  })

  it.each([...readdirSync(path.join(REPORTS, 'runners'))].map((f) => f.replace(/\.ts$/, '')))('reads the fixture of %s', async (name) => {
    const [runner] = (await folderEntries('runners', isRunner)).get(name)!
    const text = fixtureOf('runners', name)
    expect(runner.recognises(text)).toBe(true)
    const failures = new FailureList()
    runner.failures(text.split('\n'), failures)
    expect(failures.items.map((f) => f.id).join('\n')).toMatch(/adds wrongly|adds_wrongly/)
    expect(runner.counts(text)).toEqual({ tests: 2, skipped: 0 })
    expect(countsFromOutput(text)).toEqual({ tests: 2, skipped: 0 })
    expect(readOutput(text).runners).toEqual([runner.id])
    for (const pattern of runner.configFiles) expect(DEFAULT_PROTECTED_PATHS).toContain(pattern)
  })
})

describe('the report-format registry', () => {
  it('lists exactly one format per file in formats/, with distinct ids, the catch-all last', async () => {
    const files = await folderEntries('formats', isFormat)
    for (const [file, entries] of files) expect({ file, entries: entries.length }).toEqual({ file, entries: 1 })
    expect(new Set([...files.values()].flat())).toEqual(new Set(REPORT_FORMATS))
    expect(new Set(REPORT_FORMATS.map((f) => f.id)).size).toBe(REPORT_FORMATS.length)
    expect(REPORT_FORMATS.at(-1)!.isFile('anything')).toBe(true)
  })

  it.each([...readdirSync(path.join(REPORTS, 'formats'))].map((f) => f.replace(/\.ts$/, '')))('reads the fixture of %s', async (name) => {
    const [format] = (await folderEntries('formats', isFormat)).get(name)!
    const text = fixtureOf('formats', name)
    expect(REPORT_FORMATS.find((f) => f.isFile(text))).toBe(format)
    const report = parseReport(text)
    expect({ tests: report.tests, skipped: report.skipped, failed: report.failures.length }).toEqual({ tests: 2, skipped: 0, failed: 1 })
    expect(report.failures[0].id).toMatch(/adds wrongly/)
    const printed = readOutput(`some build output\n${text}\n`)
    expect({ runners: printed.runners, counts: printed.counts }).toEqual({ runners: [format.id], counts: { tests: 2, skipped: 0 } })
  })
})
