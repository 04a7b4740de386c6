/** A frame's file and line: V8 (`at f (file:line:col)`, `at file:line:col`), vitest (`❯ file:line:col`), pytest (`file.py:28: …`). */
const FRAMES = [/^\s*at (?:.*? \()?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?(?: \{)?\s*$/, /^\s*❯\s+(\S+?):(\d+)(?::\d+)?\s*$/, /^(\S+\.py):(\d+): /]

/** Frames of the runtime and the test framework, never the test's own. */
const NOT_THE_PROJECT = /^(?:node:|internal\/|<anonymous>|native$)|[\\/]node_modules[\\/]|^evalmachine|[\\/]site-packages[\\/]|[\\/]_pytest[\\/]/

/** A file that looks like a test (folder or file name). */
const TEST_FILE = /(?:^|[\\/])(?:tests?|__tests__|spec|specs)[\\/]|[._-](?:test|spec)\.[cm]?[jt]sx?$|(?:^|[\\/])test_[^\\/]*\.py$|_test\.py$/

function frameOf(line: string): { file: string; line: string } | null {
  for (const pattern of FRAMES) {
    const m = pattern.exec(line)
    if (m) return { file: m[1].replace(/^file:\/\//, ''), line: m[2] }
  }
  return null
}

/**
 * Where a failure happened, as `at file:line` lines, kept when the stack is stripped: the first
 * frame of the project's own code and, when that is not in a test file, the first frame in one —
 * the failing assertion's own line, which tells apart several assertions in one test.
 */
export function failureLocations(lines: readonly string[]): string[] {
  let first: string | null = null
  let inTest: string | null = null
  for (const raw of lines.slice(0, 400)) {
    const frame = frameOf(raw)
    if (!frame || NOT_THE_PROJECT.test(frame.file)) continue
    const at = `at ${frame.file}:${frame.line}`
    first ??= at
    if (TEST_FILE.test(frame.file)) {
      inTest = at
      break
    }
  }
  return [...new Set([first, inTest].filter((l): l is string => l !== null))]
}
