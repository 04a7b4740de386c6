import { exitCodeFor, stopReasonEntry } from '../loop/stop-reasons.js'
import type { SessionEnd } from '../session/flow.js'
import { cliWords, verboseOnly } from './cli-words.js'
import { adviceFor, failingTestLines } from './failing-tests.js'

export interface CliIO {
  out: (text: string) => void
  err: (text: string) => void
  isTTY: boolean
  env: NodeJS.ProcessEnv
}

/** A note as one terminal line: no newlines, no control characters (paths and output can carry them). */
export const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()

/**
 * What a run prints, in the CLI's words: progress on stdout, warnings and errors on stderr, each
 * message once (a note already printed while the run went on is not printed again at its end).
 */
export class RunOutput {
  private readonly said = new Set<string>()

  constructor(
    private readonly io: CliIO,
    private readonly verbose: boolean
  ) {}

  /** A line of the run's progress. */
  report(line: string): void {
    const text = cliWords(line)
    if (verboseOnly(text) && !this.verbose) return
    this.said.add(oneLine(text))
    this.io.out(`${text}\n`)
  }

  /** Why the run stopped before the loop (an error): on stderr, said once. */
  explain(line: string): void {
    const text = cliWords(line)
    this.said.add(oneLine(text))
    this.io.err(`${text}\n`)
  }

  /** Something a person should act on, though the run goes on. */
  warn(line: string): void {
    const text = cliWords(line)
    this.said.add(oneLine(text))
    this.io.err(`warning: ${text}\n`)
  }

  /** What the run found, its stop reason in words, where its files are; the exit status of its stop reason. */
  end(end: SessionEnd): number {
    const io = this.io
    if (end.kind === 'stopped') {
      io.err(`${end.stopReason}: ${cliWords(end.message)}\n`)
      io.out(`stop-reason: ${end.stopReason}\n`)
      return exitCodeFor(end.stopReason)
    }
    const report = end.report
    const entry = stopReasonEntry(report.stopReason)
    // A run stopped (not escalated): what it found explains an error, so it goes where errors go.
    const explain = entry.outcome === 'stopped' ? io.err : io.out
    for (const note of report.notes) {
      const text = oneLine(cliWords(note))
      if (this.said.has(text) || (verboseOnly(text) && !this.verbose)) continue
      this.said.add(text)
      explain(`note: ${text}\n`)
    }
    io.out(`stop-reason: ${report.stopReason}\n`)
    const failing = report.stopReason === 'verified' ? [] : failingTestLines(report.run?.iterations ?? [])
    explain(`${entry.outcome === 'stopped' ? `${report.stopReason}: ` : ''}${cliWords(`${entry.what} ${adviceFor(entry.action, failing.length > 0)}`)}\n`)
    for (const line of failing) io.out(`${line}\n`)
    io.out(`attempt log: ${report.logFile}\n`)
    for (const file of report.published.files) io.out(`would publish: ${file}\n`)
    if (end.stateSaved && !end.stateSaved.saved) io.err(`warning: the loop state was not saved: ${end.stateSaved.message ?? 'unknown reason'}\n`)
    return exitCodeFor(report.stopReason)
  }
}
