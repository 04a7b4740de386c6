import type { RunResult } from '../process/run.js'
import type { FailureItem, GateVerdict } from '../loop/types.js'
import { readTreeEntry } from '../fs/tree.js'
import { verdictFingerprint } from './fingerprint.js'
import { readOutput } from './output.js'
import { parseReport, type TestReport } from './report.js'

/** What a gate command's run is judged on. */
export interface GateRun {
  run: Pick<RunResult, 'exitCode' | 'signal' | 'timedOut' | 'aborted'>
  /** Its stdout and stderr (and the set-up's before them). */
  output: string
  /** The folder it ran in: where the report is read, what failure paths are relative to. */
  dir: string
  timeoutMs: number
  durationMs: number
  /** The JUnit XML / TAP report it writes, relative to `dir`. */
  report?: string
  /** The counts of the baseline run on the base: fewer tests, or more skipped, fail the gate. */
  baseline?: { tests: number | null; skipped: number | null } | null
}

function endReason(run: GateRun['run'], timeoutMs: number): string {
  if (run.timedOut) return `timed out after ${Math.round(timeoutMs / 1000)} s`
  if (run.aborted) return 'cancelled'
  if (run.exitCode === null) return `crashed (killed by ${run.signal})`
  return `exit ${run.exitCode}`
}

function readReport(dir: string, report: string, reasons: string[]): TestReport | null {
  const entry = readTreeEntry(dir, report)
  if (entry.kind !== 'file') {
    reasons.push(`no report at ${report}`)
    return null
  }
  try {
    return parseReport(entry.data.toString('utf8'), dir)
  } catch (err) {
    reasons.push(`unreadable report ${report}: ${(err as Error).message}`)
    return null
  }
}

/**
 * The gate's verdict: it passes only when the command exited 0 on its own, its report (when it
 * names one) was read and lists no failure, and it ran no fewer tests and skipped no more than
 * the baseline. Every other reason is said.
 */
export function gateVerdict(g: GateRun): GateVerdict {
  const { run, output, dir } = g
  const reasons = [endReason(run, g.timeoutMs)]
  const report = g.report ? readReport(dir, g.report, reasons) : null
  const fromOutput = report ? null : readOutput(output, dir)
  const counts = report ? { tests: report.tests, skipped: report.skipped } : fromOutput!.counts
  const base = g.baseline
  if (base && base.tests !== null) {
    if (!counts) reasons.push(`no test count found (the baseline ran ${base.tests})`)
    else if (counts.tests < base.tests) reasons.push(`fewer tests than the baseline (${counts.tests} < ${base.tests})`)
  }
  if (base && base.skipped !== null && counts && counts.skipped > base.skipped) {
    reasons.push(`more tests skipped than the baseline (${counts.skipped} > ${base.skipped})`)
  }
  if (report && report.failed > 0 && run.exitCode === 0) reasons.push(`${report.failed} failing in the report`)
  const passed = run.exitCode === 0 && !run.timedOut && !run.aborted && reasons.length === 1
  const failures: FailureItem[] = passed ? [] : report ? report.failures : fromOutput!.failures
  const reason = reasons.length === 1 ? reasons[0] : reasons.slice(run.exitCode === 0 ? 1 : 0).join('; ')
  return {
    passed,
    reason,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    failures,
    fingerprint: passed ? null : verdictFingerprint(failures, reason, output),
    testsRun: counts?.tests,
    skipped: counts?.skipped,
    passedIds: report?.passedIds,
    outputTail: output.slice(-20000),
    durationMs: g.durationMs
  }
}

/** A gate that failed before or instead of its command (a protected file differs, a refused set-up). */
export function failedVerdict(reason: string, failures: FailureItem[], durationMs: number, output = ''): GateVerdict {
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
