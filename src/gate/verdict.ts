import path from 'node:path'
import type { RunResult } from '../process/run-process.js'
import type { FailureItem, GateVerdict } from '../loop/engine-types.js'
import { readTreeEntry } from '../fs/tree.js'
import { describeTampering, type Tampering } from './baseline/compare.js'
import { verdictFingerprint } from './reports/fingerprint.js'
import { readOutput, reportingRunners } from './reports/console-output.js'
import { parseReport, type TestReport } from './reports/parse-report.js'
import { failureInRepository } from './reports/failure-location.js'

/** What a gate command's run is judged on. */
interface GateRun {
  run: Pick<RunResult, 'exitCode' | 'signal' | 'timedOut' | 'aborted'>
  /** Its stdout and stderr (and the set-up's before them). */
  output: string
  /** The folder it ran in: where the report is read, what failure paths are relative to. */
  dir: string
  timeoutMs: number
  durationMs: number
  /** The JUnit XML / TAP report it writes, relative to `dir` (`gate-report`). */
  report?: string
  /** The report loopgate's own option made the runner write (an absolute path outside `dir`); wins over `report`. */
  channel?: string
  /** The baseline run on the base: fewer tests, more skipped, or one of its tests not passing fail the gate. */
  baseline?: BaselineCounts | null
  /** Runners loopgate knows that the command starts without its channel: their console summary is no count. */
  named?: readonly string[]
  /** `gate-report: exit-code`: the exit status alone decides; no count or id is read or checked. */
  exitCodeOnly?: boolean
}

/** What a verdict judged by the exit code alone says of itself (the summary and the pull request show it). */
const EXIT_CODE_ONLY = 'judged by the exit code alone (`gate-report: exit-code`): no test count or test id was checked'

/** What the baseline on the base said: its counts (null when none could be read) and its tests' ids. */
interface BaselineCounts {
  tests: number | null
  skipped: number | null
  /** From a report: the ids of the tests that ran (passed or failed) and of those skipped. */
  ids?: BaselineIds | null
}

export interface BaselineIds {
  ran: string[]
  skipped: string[]
}

function endReason(run: GateRun['run'], timeoutMs: number): string {
  if (run.timedOut) return `timed out after ${Math.round(timeoutMs / 1000)} s`
  if (run.aborted) return 'cancelled'
  if (run.exitCode === null) return `crashed (killed by ${run.signal})`
  return `exit ${run.exitCode}`
}

/** The report at `report` under `dir` (`label` in a reason; the path by default); failure paths under `root` (the checkout; `dir` by default) become relative. */
function readReport(at: { dir: string; report: string; root?: string; label?: string }, reasons: string[]): TestReport | null {
  const { dir, report, root = dir, label = report } = at
  const entry = readTreeEntry(dir, report)
  if (entry.kind !== 'file') {
    reasons.push(`no report at ${label}`)
    return null
  }
  try {
    return parseReport(entry.data.toString('utf8'), root)
  } catch (err) {
    reasons.push(`unreadable report ${label}: ${(err as Error).message}`)
    return null
  }
}

/** The report loopgate's channel or `gate-report` names, or null (and why) when it cannot be read. */
function expectedReport(g: GateRun, reasons: string[]): TestReport | null {
  if (g.channel) return readReport({ dir: path.dirname(g.channel), report: path.basename(g.channel), root: g.dir, label: "loopgate's report file" }, reasons)
  return g.report ? readReport({ dir: g.dir, report: g.report }, reasons) : null
}

/** The base's tests that did not pass: each that ran there must pass, each skipped there must still be listed. */
function missingBaseTests(ids: BaselineIds, report: TestReport): FailureItem[] {
  const passed = new Set(report.passedIds)
  const listed = new Set([...report.passedIds, ...report.failedIds, ...report.skippedIds])
  const failing = new Set(report.failedIds)
  const missing: FailureItem[] = []
  for (const id of ids.ran) {
    // a failing one is among the report's failures already
    if (!passed.has(id) && !failing.has(id)) missing.push({ id, message: listed.has(id) ? 'skipped (it ran on the base)' : 'did not run (it ran on the base)' })
  }
  for (const id of ids.skipped) if (!listed.has(id)) missing.push({ id, message: 'missing (the base lists it)' })
  return missing
}

function countChecks(base: BaselineCounts, counts: { tests: number; skipped: number } | null, reasons: string[]): void {
  if (base.tests === null) reasons.push('the baseline has no test count, so no result can be checked')
  else if (!counts) reasons.push(`no test count found (the baseline ran ${base.tests})`)
  else if (counts.tests < base.tests) reasons.push(`fewer tests than the baseline (${counts.tests} < ${base.tests})`)
  if (base.skipped !== null && counts && counts.skipped > base.skipped) {
    reasons.push(`more tests skipped than the baseline (${counts.skipped} > ${base.skipped})`)
  }
}

/**
 * The gate's verdict: it passes only when the command exited 0 on its own, its report (loopgate's
 * own, or `gate-report`) was read and lists no failure, it ran no fewer tests and skipped no more
 * than the baseline, and every test the baseline's report listed passed. With a report, the
 * console decides nothing but the evidence of a report that is missing. Every other reason is said.
 */
export function gateVerdict(g: GateRun): GateVerdict {
  const { run, output, dir } = g
  const reasons = [endReason(run, g.timeoutMs)]
  const report = expectedReport(g, reasons)
  const fromOutput = report ? null : readOutput(output, dir)
  const trusted = !g.channel && !g.report && !g.exitCodeOnly && !g.named?.length && reportingRunners(fromOutput!).length === 0
  const counts = report ? { tests: report.tests, skipped: report.skipped } : trusted ? fromOutput!.counts : null
  const base = g.baseline
  if (base && !g.exitCodeOnly) countChecks(base, counts, reasons)
  const missing = base?.ids && report ? missingBaseTests(base.ids, report) : []
  if (missing.length) {
    const shown = missing.slice(0, 5).map((m) => `${m.id} (${m.message})`)
    reasons.push(`${missing.length} of the base's tests did not pass: ${shown.join(', ')}${missing.length > 5 ? ', …' : ''}`)
  }
  if (report && report.failed > 0 && run.exitCode === 0) reasons.push(`${report.failed} failing in the report`)
  const passed = run.exitCode === 0 && !run.timedOut && !run.aborted && reasons.length === 1
  const read = report ? report.failures : fromOutput!.failures
  const failures: FailureItem[] = passed ? [] : [...read, ...missing.filter((m) => !read.some((r) => r.id === m.id))].map((f) => failureInRepository(f, dir))
  const said = reasons.length === 1 ? reasons[0] : reasons.slice(run.exitCode === 0 ? 1 : 0).join('; ')
  const reason = g.exitCodeOnly ? `${said}; ${EXIT_CODE_ONLY}` : said
  return {
    passed,
    reason,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    failures,
    fingerprint: passed ? null : verdictFingerprint(failures, reason, output),
    testsRun: counts?.tests,
    ...(g.exitCodeOnly ? { exitCodeOnly: true } : {}),
    skipped: counts?.skipped,
    passedIds: report?.passedIds,
    failedIds: report?.failedIds,
    skippedIds: report?.skippedIds,
    outputTail: output.slice(-20000),
    durationMs: g.durationMs
  }
}

/** A gate that failed before or instead of its command (a protected file differs, a refused set-up). */
export function failedVerdict(reason: string, how: { failures: FailureItem[]; durationMs: number; output?: string }): GateVerdict {
  const { failures, durationMs, output = '' } = how
  return {
    passed: false,
    reason,
    exitCode: null,
    timedOut: false,
    failures,
    fingerprint: verdictFingerprint(failures, reason, output),
    outputTail: output.slice(-20000),
    durationMs
  }
}

/** The verdict on a checkout whose protected files or dependencies differ from what the gate trusts. */
export function tamperedVerdict(mismatches: Tampering[], started: number, when = ''): GateVerdict {
  return failedVerdict(`${when}protected files differ from the base in the clean checkout: ${describeTampering(mismatches)}`, {
    failures: mismatches.map((m) => ({ id: m.path, message: `protected file ${m.change}` })),
    durationMs: Date.now() - started
  })
}

/** A file that failed to load, reported as a test named by its path (node:test): not a test of the base. */
const FILE_ENTRY = /^\S*[^\s/]\.(?:[cm]?[jt]sx?)$/

/** The base's tests each candidate must pass: those that ran (passed or failed), and those skipped. */
export function baselineIds(verdict: GateVerdict): BaselineIds {
  const failed = (verdict.failedIds ?? []).filter((id) => !FILE_ENTRY.test(id))
  return { ran: [...(verdict.passedIds ?? []), ...failed], skipped: verdict.skippedIds ?? [] }
}
