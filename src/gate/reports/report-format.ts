import type { TestReport } from './report-model.js'

/** One machine-readable report format: as a report file and as a report printed to the console. */
export interface ReportFormat {
  /** The name a reading reports as its runner when the report was printed to the console. */
  id: string
  /** Whether a report file's text is in this format (asked in registry order; the last says yes). */
  isFile(text: string): boolean
  /** Reads a report file; throws when the text is not a report of this format. */
  parse(text: string, root?: string): TestReport
  /** The report printed in console output, or null when there is none (colours stripped). */
  inConsole(text: string, lines: string[], root?: string): TestReport | null
}
