import type { FailureList } from './report-model.js'

export interface TestCounts {
  tests: number
  skipped: number
}

/**
 * One test runner, as the gate reads it: the configuration files it reads (protected by default),
 * how its console output is recognised, the failures in it and the counts of its summary.
 */
export interface TestRunner {
  id: string
  /** Protected-paths patterns of the files that configure the runner. */
  configFiles: readonly string[]
  /** Whether this runner's output is in the text (colours already stripped). */
  recognises(text: string): boolean
  /** Adds the failures its console output names. */
  failures(lines: string[], failures: FailureList): void
  /** The counts of its summary in the text, or null when there is none. */
  counts(text: string): TestCounts | null
  /**
   * The options (shell words) that make the runner run only these tests, by the ids its report
   * gives, beside loopgate's report option; null when they cannot be told to it.
   */
  only?(ids: readonly string[], checkout: string): string[] | null
}

export function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].length
}
