import type { FailureList } from './report-model.js'

/** Reads one runner's human-readable console output (colours already stripped). */
export interface ConsoleParser {
  runner: string
  /** Whether this runner's output is in the text. */
  recognises(text: string): boolean
  /** Adds the failures it finds. */
  read(lines: string[], failures: FailureList): void
}

export function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].length
}
