/**
 * `npm test` on a machine whose Python has no pytest: the tests that need it are skipped with the
 * tool and its install command, listed again at the end of the run, and CI=true fails the run.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { tempDir } from './helpers/repo.js'

const ROOT = path.resolve(import.meta.dirname, '..')
const PIP_TEST = 'bumps the pin as its own commit, the agent fixes the call site, verified; the next run with nothing new spends nothing'
const EDITABLE_TEST = 'an editable install (.pth naming the workspace) cannot make the gate test the workspace instead of the commit'
/** A jest run of its own starts cold (its own cache) and may wait for a loaded machine. */
const JEST_RUN_MS = 300_000
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

interface JestRun {
  status: number | null
  stderr: string
  /** Jest's JSON report; none where the global teardown failed the run (jest writes it after). */
  results: { numFailedTests: number; testResults: { assertionResults: { title: string; status: string }[] }[] } | null
}

/** A virtualenv of the test Python, without pip and without the system's packages: no pytest. */
function pythonWithoutPytest(): string {
  const dir = tempDir('loopgate-no-pytest-')
  chmodSync(dir, 0o755)
  const venv = path.join(dir, 'venv')
  const made = spawnSync(TEST_PYTHON, ['-m', 'venv', '--without-pip', venv], { encoding: 'utf8' })
  if (made.status !== 0) throw new Error(`${TEST_PYTHON} -m venv failed: ${made.stderr}`)
  return path.join(venv, 'bin')
}

/** Jest on `files` (only the named tests), as a run of its own: its own temp folder, tool probe and teardown. */
function jest(files: string[], names: string[], env: NodeJS.ProcessEnv): JestRun {
  const out = tempDir('loopgate-jest-run-')
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, TMPDIR: out, NODE_OPTIONS: '--experimental-vm-modules --no-warnings' }
  for (const name of ['CI', 'LOOPGATE_TEST_TMP', 'LOOPGATE_TEST_CLI_ROOT', 'LOOPGATE_TEST_TOOLS', 'PYTHONPATH', 'PYTHONHOME', 'JEST_WORKER_ID']) {
    if (!(name in env)) delete childEnv[name]
  }
  const json = path.join(out, 'results.json')
  const args = [path.join(ROOT, 'node_modules/jest/bin/jest.js'), ...files, '--maxWorkers=1', '--json', `--outputFile=${json}`]
  const r = spawnSync(process.execPath, [...args, '-t', names.map(escape).join('|')], { cwd: ROOT, env: childEnv, encoding: 'utf8', timeout: JEST_RUN_MS })
  const results = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as JestRun['results']) : null
  return { status: r.status, stderr: r.stderr, results }
}

const statusOf = (run: JestRun, title: string): string | undefined =>
  run.results?.testResults.flatMap((file) => file.assertionResults).find((t) => t.title === title)?.status

needs('python3').describe('a machine whose Python has no pytest', () => {
  let bin: string
  beforeAll(() => {
    bin = pythonWithoutPytest()
    expect(spawnSync(path.join(bin, 'python3'), ['-c', 'import pytest'], { env: { PATH: bin } }).status).not.toBe(0)
  })

  test(
    'the pytest tests are skipped with the tool and its install command, and listed at the end',
    () => {
      const python = path.join(bin, 'python3')
      const run = jest(['__tests__/upgrade-pip.test.ts', '__tests__/gate-real-layouts.test.ts'], [PIP_TEST, EDITABLE_TEST], {
        PATH: `${bin}:${process.env.PATH}`,
        LOOPGATE_TEST_PYTHON: python
      })
      expect({ status: run.status, failed: run.results?.numFailedTests }).toEqual({ status: 0, failed: 0 })
      expect(statusOf(run, PIP_TEST)).toBe('pending')
      expect(statusOf(run, EDITABLE_TEST)).toBe('pending')
      const needsPytest = `pytest for ${python} (apt-get install python3-pytest)`
      const pipLine = new RegExp(`^skipped __tests__/upgrade-pip\\.test\\.ts › ${escape(PIP_TEST)}: needs .*${escape(needsPytest)}`, 'm')
      const editableLine = new RegExp(`^skipped __tests__/gate-real-layouts\\.test\\.ts › ${escape(EDITABLE_TEST)}: needs ${escape(needsPytest)}$`, 'm')
      expect(run.stderr).toMatch(pipLine)
      expect(run.stderr).toMatch(editableLine)
      // The end of the run lists them again, with what to install.
      const summary = run.stderr.slice(run.stderr.indexOf('test group(s) did not run, for a tool this machine lacks:'))
      expect(summary).toMatch(new RegExp(`^  ${pipLine.source.slice(1)}`, 'm'))
      expect(summary).toMatch(new RegExp(`^  ${editableLine.source.slice(1)}`, 'm'))
      expect(summary).toMatch(/^To run them:\n( {2}.+\n)* {2}apt-get install( \S+)* python3-pytest( |$)/m)
    },
    JEST_RUN_MS
  )

  test(
    'under CI=true the same skip fails the run',
    () => {
      const run = jest(['__tests__/gate-real-layouts.test.ts'], [EDITABLE_TEST], {
        PATH: `${bin}:${process.env.PATH}`,
        LOOPGATE_TEST_PYTHON: path.join(bin, 'python3'),
        CI: 'true'
      })
      expect(run.stderr).toMatch(new RegExp(`^skipped __tests__/gate-real-layouts\\.test\\.ts › ${escape(EDITABLE_TEST)}: needs pytest`, 'm'))
      expect(run.stderr).not.toMatch(/✕|● /)
      expect(run.stderr).toContain('CI=true: 1 test group(s) skipped for a missing tool')
      expect(run.status).not.toBe(0)
    },
    JEST_RUN_MS
  )
})
