import type { GateVerdict } from '../../loop/engine-types.js'
import { errorLines } from '../reports/error-lines.js'
import { readOutput, reportingRunners } from '../reports/console-output.js'
import { REPORT_OPTIONS } from '../reports/command-runners.js'
import type { ChannelRunner } from '../reports/report-channel.js'

/**
 * Whether a failing baseline is the environment's fault (the gate cannot run at all) rather than
 * the task's (the tests run and fail: that is the bug the agent is there to fix). A broken gate
 * stops the run before the first call: no agent could make it pass.
 */

/** How one step of the gate ended. */
export interface StepEnd {
  step: 'setup' | 'command'
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  aborted: boolean
  /** What the failure is known to owe to how the gate runs the step (said with the failure). */
  cause?: string
}

/** The gate's run on the base: how its last step ended, its verdict and its output. */
export interface BaselineRun {
  end: StepEnd | null
  verdict: GateVerdict
  output: string
}

export interface BrokenGate {
  /** What failed, in a sentence. */
  what: string
  /** The inputs to change, most likely first. */
  inputs: string[]
  /** The line of output that shows it, when there is one. */
  evidence?: string
}

/** Signs, in the output of a command that ran no test, that the runner never got to the tests. */
const CANNOT_START: RegExp[] = [
  /command not found/i,
  /^(?:\/bin\/)?(?:ba)?sh: .*: not found$/m,
  /permission denied/i,
  /\bEACCES\b/,
  /\bspawn \S+ ENOENT\b/,
  /Cannot find package '[^'./][^']*'/,
  /Cannot find module '(?![./])[^']+'/,
  /No module named '?(?:pytest|unittest|nose2?)'?$/m,
  /npm (?:ERR!|error) Missing script/i,
  /\bENOTCACHED\b/,
  /\bENOSPC\b/,
  /Segmentation fault|Aborted \(core dumped\)|Bus error/
]

const CRASH_SIGNALS = new Set(['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGILL', 'SIGKILL', 'SIGFPE'])

function evidenceLine(output: string, pattern?: RegExp): string | undefined {
  const lines = output
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
  const line = pattern ? lines.find((l) => pattern.test(l)) : lines[lines.length - 1]
  return line ? line.slice(0, 300) : undefined
}

function ranNoTest(verdict: GateVerdict): boolean {
  return verdict.testsRun === undefined && verdict.failures.length === 0 && !verdict.passedIds?.length
}

/** Null when the baseline is fine or fails the way a task's bug does; else what is broken. */
export function brokenBaseline(run: BaselineRun, timeoutMs: number): BrokenGate | null {
  const { end, verdict, output } = run
  if (verdict.passed || !end || end.aborted) return null
  const seconds = Math.round(timeoutMs / 1000)
  if (end.timedOut) {
    return {
      what: `the gate${end.step === 'setup' ? "'s gate-setup" : ''} timed out on the base after ${seconds} s`,
      inputs: ['gate-timeout-minutes', end.step === 'setup' ? 'gate-setup' : 'gate-command']
    }
  }
  if (end.step === 'setup') {
    return {
      what: `gate-setup failed on the base (${end.exitCode === null ? `killed by ${end.signal}` : `exit ${end.exitCode}`})${end.cause ? `; ${end.cause}` : ''}`,
      inputs: ['gate-setup'],
      evidence: errorLines(output) ?? evidenceLine(output)
    }
  }
  if (!ranNoTest(verdict)) return null
  if (end.exitCode === 126 || end.exitCode === 127) {
    return {
      what: `the gate command could not start on the base (exit ${end.exitCode}: ${end.exitCode === 127 ? 'command not found' : 'not executable'})`,
      inputs: ['gate-command', 'gate-setup'],
      evidence: evidenceLine(output, /not found|permission denied|not executable/i) ?? evidenceLine(output)
    }
  }
  if (end.exitCode === null && end.signal && CRASH_SIGNALS.has(end.signal)) {
    return {
      what: `the test runner crashed on the base before any test ran (killed by ${end.signal})`,
      inputs: ['gate-command', 'gate-setup'],
      evidence: evidenceLine(output)
    }
  }
  const sign = CANNOT_START.find((p) => p.test(output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')))
  if (sign) {
    return {
      what: `the test runner could not start on the base (exit ${end.exitCode ?? end.signal}, no test ran)`,
      inputs: ['gate-command', 'gate-setup'],
      evidence: evidenceLine(output, sign)
    }
  }
  return null
}

/** What the run needs to say why a baseline has no count: the channel's runner, the runners the command starts without it. */
interface CountSource {
  channel: string | null
  bump?: boolean
  /** Runners loopgate knows that the command starts where it cannot add its report option. */
  named?: readonly string[]
  /** `gate-report: exit-code`: no count is expected. */
  exitCodeOnly?: boolean
}

const EXIT_CODE_HINT =
  'or, for a gate with no countable runner, set `gate-report: exit-code` to judge by the exit code alone (no test count or id is then checked)'

/** Why no count was read, and what to change: a report the command writes, or exit-code judging. */
function whyNoCount(reason: string, how: CountSource, output: string): string {
  const found = [...(how.named ?? []), ...reportingRunners(readOutput(output))]
  const named = [...new Set(found)].filter((r): r is ChannelRunner => r in REPORT_OPTIONS)
  if (named.length) {
    const options = named.map((r) => `${r}: \`${REPORT_OPTIONS[r]}\``).join('; ')
    return `no test count could be read from the gate on the base (${reason}): it runs ${named.join(' and ')}, whose console summary any process can print, and loopgate cannot add its report option to this gate command (not a simple command or package script, or one with a report of its own); have the command write a report (${options}) and set \`gate-report\` to its file, ${EXIT_CODE_HINT}`
  }
  return `no test count could be read from the gate on the base (${reason}): loopgate knows no report option for this gate command and found no summary line; set \`gate-report\` to a JUnit XML, jest / vitest JSON or TAP report the command writes, ${EXIT_CODE_HINT}`
}

/**
 * A baseline that cannot be checked against: no test count could be read (from loopgate's report,
 * the `gate-report`, or a summary line), or the count says no test ran (a collection or import
 * error). Every check of a candidate compares with these, so the run stops before any spend. A
 * gate judged by its exit code alone has no count to read.
 */
export function uncountedBaseline(run: BaselineRun, how: CountSource): BrokenGate | null {
  const { end, verdict, output } = run
  if (!end || end.aborted || end.step !== 'command' || end.timedOut) return null
  if (verdict.testsRun === undefined) {
    if (how.exitCodeOnly && !how.channel) return null
    if (how.channel) {
      return {
        what: `${how.channel} wrote no readable report on the base (${verdict.reason})`,
        inputs: ['gate-command', 'gate-report'],
        evidence: evidenceLine(output)
      }
    }
    // No console line is the cause here: the console is not what a count is read from.
    return { what: whyNoCount(verdict.reason, how, output), inputs: ['gate-report', 'gate-command'] }
  }
  if (verdict.testsRun > 0 || how.bump) return null
  return {
    what: `no test ran on the base (${verdict.reason}${verdict.failures.length ? `; ${verdict.failures.length} error(s), e.g. ${verdict.failures[0].id}` : ''})`,
    inputs: ['gate-command', 'gate-setup'],
    evidence: evidenceLine(output, /error|Error|No module named|Cannot find/) ?? evidenceLine(output)
  }
}

/** One line for people: what failed, the evidence, which inputs to change. */
export function describeBroken(broken: BrokenGate): string {
  const inputs = broken.inputs.map((i) => `\`${i}\``).join(' or ')
  // A gate that ran but gave no count needs its tests counted, not to run.
  const aim = broken.inputs.includes('gate-report') ? "loopgate can count the gate's tests" : 'the gate runs'
  return `${broken.what}${broken.evidence ? `: ${broken.evidence}` : ''}. Change ${inputs} so ${aim} on the base branch; no agent call was made.`
}

/** Stops the run before the first call: the gate cannot run on the base itself. */
export class GateBrokenError extends Error {
  /** The setup's notes up to the baseline, for the summary. */
  readonly notes: string[]

  constructor(
    readonly broken: BrokenGate,
    readonly verdict: GateVerdict,
    notes: string[] = []
  ) {
    super(describeBroken(broken))
    this.notes = [...notes]
    this.name = 'GateBrokenError'
  }
}
