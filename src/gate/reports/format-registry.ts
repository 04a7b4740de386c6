import { jestJsonFormat } from './formats/jest-json.js'
import { junitFormat } from './formats/junit.js'
import { tapFormat } from './formats/tap.js'
import type { ReportFormat } from './report-format.js'

/**
 * Every report format the gate reads, one file each under `formats/`, in the order a report file
 * or the console output is tried; the last one takes any report file.
 */
export const REPORT_FORMATS: readonly ReportFormat[] = [jestJsonFormat, junitFormat, tapFormat]
