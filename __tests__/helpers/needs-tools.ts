/**
 * `needs(...tools).describe/it/test`: a group that runs where every tool is there, and is skipped
 * elsewhere with one printed line naming the tool and the command that installs it (recorded for
 * the summary at the end of `npm test`, which fails the run under CI=true).
 */
import path from 'node:path'
// @ts-expect-error plain ESM module shared with the jest global setup, without types
import { probeTools, testPython, toolTable, TOOLS_ENV } from '../setup/test-tools.mjs'
// @ts-expect-error plain ESM module shared with the jest global teardown, without types
import { recordSkip, skipLine } from '../setup/skip-ledger.mjs'

export type Tool = 'python3' | 'pytest' | 'venv' | 'pip' | 'django' | 'poetry' | 'setfacl' | 'sudo' | 'setsid' | 'second-user' | 'cgroup2'
interface ToolInfo {
  what: string
  install: string
}

/** The Python the tests run pytest and build venvs with (LOOPGATE_TEST_PYTHON, else /usr/bin/python3). */
export const TEST_PYTHON: string = testPython()

let known: Record<Tool, boolean> | null = null

/** The global setup's answers when they were for this Python, else a probe of this worker's own. */
function availability(): Record<Tool, boolean> {
  if (known) return known
  const text = process.env[TOOLS_ENV as string]
  const inherited = text ? (JSON.parse(text) as { python: string; tools: Record<Tool, boolean> }) : null
  known = inherited?.python === TEST_PYTHON ? inherited.tools : (probeTools() as Record<Tool, boolean>)
  return known
}

export function hasTool(tool: Tool): boolean {
  return availability()[tool]
}

type TestFn = ((name: string, fn: jest.ProvidesCallback, timeout?: number) => void) & { each: jest.Each }
export interface Gated {
  describe: (name: string, fn: () => void) => void
  it: TestFn
  test: TestFn
}

function skipped(name: string, missing: Tool[]): void {
  const table = toolTable() as Record<Tool, ToolInfo>
  const testPath = expect.getState().testPath
  const skip = {
    file: testPath ? path.relative(process.cwd(), testPath) : '(unknown file)',
    name,
    tools: missing.map((tool) => ({ name: tool, what: table[tool].what, install: table[tool].install }))
  }
  process.stderr.write(`${skipLine(skip)}\n`)
  recordSkip(skip)
}

export function needs(...tools: Tool[]): Gated {
  const missing = tools.filter((tool) => !hasTool(tool))
  if (missing.length === 0) return { describe, it: test, test }
  const each = (table: unknown) => (name: string, fn: unknown, timeout?: number) => {
    skipped(name, missing)
    ;(test.skip.each as unknown as (t: unknown) => (n: string, f: unknown, ms?: number) => void)(table)(name, fn, timeout)
  }
  const skipTest = Object.assign(
    (name: string, fn: jest.ProvidesCallback, timeout?: number) => {
      skipped(name, missing)
      test.skip(name, fn, timeout)
    },
    { each: each as unknown as jest.Each }
  )
  return {
    describe: (name, fn) => {
      skipped(name, missing)
      describe.skip(name, fn)
    },
    it: skipTest,
    test: skipTest
  }
}
