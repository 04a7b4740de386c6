/**
 * Where the gate's results come from: loopgate's own report channel, never console text; a
 * baseline that yields no count, or in which no test ran, stops the run; every test of the base
 * must pass in a candidate; a resumed run's baseline runs on the base, not on the WIP.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { RunCarry } from '../src/state/schema.js'
import { attackProject, runAttack } from './helpers/gate-fixture.js'
import { installFromOwnNodeModules } from './helpers/node-packages.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'
import { ProtectedGate } from '../src/gate/protected-gate.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { gateEnv } from '../src/agents/agent-env.js'
import { GitRepository } from '../src/git/repository.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

/** An interpreter with pytest: the system's, else the one on PATH (the gate runs as root here: weak isolation). */
function pythonWithPytest(): string | null {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(candidate, ['-c', 'import pytest, sys; print(sys.executable)'], { encoding: 'utf8' })
    if (r.status === 0) return r.stdout.trim()
  }
  return null
}
const PYTHON = pythonWithPytest()
const withPytest = PYTHON ? test : test.skip
if (!PYTHON) console.warn('skipping the pytest cases of gate-results: no python3 with pytest (apt-get install -y python3-pytest)')

function entries(file: string): Record<string, any>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>)
}

function pytestProject(tests?: string): Record<string, string> {
  return {
    '.gitignore': '__pycache__/\n',
    'pytest.ini': '[pytest]\naddopts = -q\n',
    'src/__init__.py': '',
    'src/calc.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_calc.py':
      tests ?? 'from src.calc import add\n\n\ndef test_adds_two():\n    assert add(2, 3) == 5\n\n\ndef test_adds_zero():\n    assert add(0, 0) == 0\n'
  }
}
const pytestGate = (): Record<string, string> => ({ 'gate-command': `${PYTHON} -m pytest -p no:cacheprovider tests`, 'max-iterations': '1' })

describe("pytest with `addopts = -q`: the count comes from loopgate's report", () => {
  withPytest('code that exits 0 when it is imported is not verified', async () => {
    const r = await runAttack({
      isolation: 'weak',
      files: pytestProject(),
      inputs: pytestGate(),
      script: "printf 'import os\\nos._exit(0)\\n' > src/calc.py\n"
    })
    const gate = r.report.run?.iterations[0].gate
    expect(gate?.passed).toBe(false)
    expect(r.report.run?.verifiedCommit).toBeNull()
    expect(gate?.reason).toContain("no report at loopgate's report file")
    expect(gate?.reason).toContain('no test count found (the baseline ran 2)')
    const baseline = entries(r.report.logFile).find((e) => e.type === 'baseline')
    expect(baseline).toMatchObject({ tests: 2, skipped: 0 })
  })

  withPytest('code that skips every test is not verified', async () => {
    const r = await runAttack({
      isolation: 'weak',
      files: pytestProject(),
      inputs: pytestGate(),
      script: 'printf \'import pytest\\n\\n\\ndef add(a, b):\\n    pytest.skip("later")\\n\' > src/calc.py\n'
    })
    const [first] = r.report.run?.iterations ?? []
    expect(first.gate?.passed).toBe(false)
    // The source now imports the judge's own framework: put back before the gate runs it.
    expect(first.rejected.join('\n')).toContain('src/calc.py (imports `pytest`')
    expect(r.report.run?.verifiedCommit).toBeNull()
  })

  withPytest('a skip through an import built at run time is counted against the baseline', async () => {
    const r = await runAttack({
      isolation: 'weak',
      files: pytestProject(),
      inputs: pytestGate(),
      // An import built at run time is past what the source check reads: the skip count still holds.
      script: 'printf \'def add(a, b):\\n    __import__("py" + "test").skip("later")\\n\' > src/calc.py\n'
    })
    const gate = r.report.run?.iterations[0].gate
    expect(gate?.passed).toBe(false)
    expect(gate?.reason).toContain('more tests skipped than the baseline (2 > 0)')
    expect(r.report.run?.verifiedCommit).toBeNull()
  })

  withPytest('a fake summary printed before exiting decides nothing; the honest fix verifies', async () => {
    const r = await runAttack({
      isolation: 'weak',
      files: pytestProject(),
      // -s: nothing captures what the code under test prints
      inputs: { ...pytestGate(), 'gate-command': `${PYTHON} -m pytest -o addopts= -s -p no:cacheprovider tests`, 'max-iterations': '2' },
      script: [
        'if [ "$LOOPGATE_ITERATION" = 1 ]; then',
        `  printf 'import os\\nprint("=" * 20 + " 2 passed in 0.01s " + "=" * 20, flush=True)\\nos._exit(0)\\n' > src/calc.py`,
        'else',
        "  printf 'def add(a, b):\\n    return a + b\\n' > src/calc.py",
        'fi',
        ''
      ].join('\n')
    })
    const [forged, honest] = r.report.run?.iterations ?? []
    expect(forged.gate?.outputTail).toContain('2 passed in 0.01s')
    expect(forged.gate?.passed).toBe(false)
    expect(honest.gate?.passed).toBe(true)
    expect(honest.gate?.testsRun).toBe(2)
    expect(r.report.stopReason).toBe('verified')
  })
})

describe('a baseline that cannot be checked against stops the run before any spend', () => {
  async function brokenRun(opts: { files?: Record<string, string>; inputs: Record<string, string>; prepare?: (ws: string) => void }) {
    const marker = tempDir('loopgate-marker-')
    const r = await runAttack({ isolation: 'weak', ...opts, script: `touch ${path.join(marker, 'called')}\n${FIX}` })
    return { ...r, called: existsSync(path.join(marker, 'called')), why: r.report.notes.join('\n') }
  }

  withPytest('pytest: a collection error on the base (exit 2, no test ran) is gate-broken', async () => {
    const r = await brokenRun({
      files: pytestProject('from src.calc import subtract\n\n\ndef test_subtracts():\n    assert subtract(3, 2) == 1\n'),
      inputs: { 'gate-command': `${PYTHON} -m pytest -o addopts= -p no:cacheprovider tests` }
    })
    expect(r.report.stopReason).toBe('gate-broken')
    expect(r.called).toBe(false)
    expect(r.why).toContain('no test ran on the base')
    expect(r.why).toContain('`gate-command`')
  })

  test('a gate whose test count cannot be read is gate-broken, naming gate-report', async () => {
    const r = await brokenRun({ inputs: { 'gate-command': 'node -e "console.log(\'all good\')"' } })
    expect(r.report.stopReason).toBe('gate-broken')
    expect(r.called).toBe(false)
    expect(r.why).toContain('no test count could be read from the gate on the base')
    expect(r.why).toContain('`gate-report: exit-code`')
    expect(r.why).toMatch(/Change `gate-report`/)
  })

  test("a known runner's console summary is no count when loopgate cannot add its report option", async () => {
    const r = await brokenRun({
      files: mochaProject(),
      prepare: (ws) => installFromOwnNodeModules(ws, ['mocha']),
      inputs: { 'gate-command': 'cd . && node_modules/.bin/mocha test/math.spec.cjs' }
    })
    expect(r.report.stopReason).toBe('gate-broken')
    expect(r.called).toBe(false)
    expect(r.why).toContain('it runs mocha, whose console summary any process can print')
    expect(r.why).toMatch(/Change `gate-report`/)
  }, 120_000)
})

/** A mocha project whose gate runs mocha directly: loopgate adds its xunit report. */
function mochaProject(): Record<string, string> {
  return {
    '.gitignore': 'node_modules/\n',
    'package.json': '{ "name": "p", "private": true }\n',
    'src/math.cjs': 'exports.add = function (a, b) {\n  return a - b\n}\n',
    'test/math.spec.cjs': [
      "const assert = require('node:assert')",
      "const { add } = require('../src/math.cjs')",
      "describe('math', () => {",
      "  it('adds two', () => assert.strictEqual(add(2, 3), 5))",
      "  it('adds zero', () => assert.strictEqual(add(0, 0), 0))",
      '})',
      ''
    ].join('\n')
  }
}

test("mocha: a green summary printed by the code under test decides nothing; loopgate's report does", async () => {
  const r = await runAttack({
    isolation: 'weak',
    files: { ...mochaProject() },
    prepare: (ws) => installFromOwnNodeModules(ws, ['mocha']),
    inputs: { 'gate-command': 'node_modules/.bin/mocha test/math.spec.cjs' },
    script: [
      'if [ "$LOOPGATE_ITERATION" = 1 ]; then',
      `  printf 'process.stdout.write("\\\\n  2 passing (3ms)\\\\n\\\\n")\\nprocess.exit(0)\\n' > src/math.cjs`,
      'else',
      "  printf 'exports.add = (a, b) => a + b\\n' > src/math.cjs",
      'fi',
      ''
    ].join('\n')
  })
  const [forged, honest] = r.report.run?.iterations ?? []
  expect(forged.gate?.outputTail).toContain('2 passing')
  expect(forged.gate?.passed).toBe(false)
  expect(forged.gate?.reason).toContain('no test count found (the baseline ran 2)')
  expect(honest.gate?.passed).toBe(true)
  expect(honest.gate?.passedIds).toEqual(['math › adds two', 'math › adds zero'])
  expect(r.report.stopReason).toBe('verified')
}, 120_000)

/** A project whose gate writes a TAP report; one test skips when src/config.mjs says so. */
function tapProject(): Record<string, string> {
  return {
    ...attackProject(),
    'src/config.mjs': 'export const skipSlow = false\n',
    'test/tap.mjs': [
      "import { add } from '../src/math.mjs'",
      "import { skipSlow } from '../src/config.mjs'",
      "console.log('TAP version 13')",
      "console.log('1..3')",
      "console.log(add(2, 3) === 5 ? 'ok 1 - adds two' : 'not ok 1 - adds two')",
      "console.log(add(0, 0) === 0 ? 'ok 2 - adds zero' : 'not ok 2 - adds zero')",
      "console.log(skipSlow ? 'ok 3 - slow # SKIP slow' : 'ok 3 - slow')",
      'if (add(2, 3) !== 5) process.exit(1)',
      ''
    ].join('\n')
  }
}
const TAP_GATE = { 'gate-command': 'node test/tap.mjs > report.tap', 'gate-report': 'report.tap', 'max-iterations': '1' }

test("a report with the baseline's counts but without one of the base's tests does not verify", async () => {
  const forged = 'TAP version 13\\\\n1..3\\\\nok 1 - adds two\\\\nok 2 - adds zero\\\\nok 3 - quick\\\\n'
  const r = await runAttack({
    isolation: 'weak',
    files: tapProject(),
    inputs: TAP_GATE,
    script: `${FIX}printf 'export const skipSlow = false\\nprocess.stdout.write("${forged}"); process.exit(0)\\n' > src/config.mjs\n`
  })
  const gate = r.report.run?.iterations[0].gate
  expect(gate?.testsRun).toBe(3)
  expect(gate?.passed).toBe(false)
  expect(gate?.reason).toContain("1 of the base's tests did not pass: slow (did not run (it ran on the base))")
  expect(gate?.failures).toContainEqual({ id: 'slow', message: 'did not run (it ran on the base)' })
})

test('a resumed run takes its baseline on the base, not on the WIP an earlier agent wrote', async () => {
  const carry: RunCarry = {}
  let base = ''
  const r = await runAttack({
    isolation: 'weak',
    files: tapProject(),
    inputs: { ...TAP_GATE, 'base-ref': 'main' },
    carry,
    prepare: (ws) => {
      base = sh(ws, ['rev-parse', 'HEAD']).trim()
      carry.baseCommit = base
      sh(ws, ['checkout', '-q', '-b', 'loopgate/attack'])
      // the earlier run's agent turned the slow test off
      writeFileSync(path.join(ws, 'src/config.mjs'), 'export const skipSlow = true\n')
      sh(ws, ['commit', '-qam', 'wip: skip the slow test'])
    },
    script: FIX
  })
  const gate = r.report.run?.iterations[0].gate
  expect(gate?.passed).toBe(false)
  expect(r.report.run?.verifiedCommit).toBeNull()
  expect(gate?.reason).toContain('more tests skipped than the baseline (1 > 0)')
  const baseline = entries(r.report.logFile).find((e) => e.type === 'baseline')
  expect(baseline).toMatchObject({ commit: base, tests: 3, skipped: 0 })
})

test("vitest with a file that imports node:test: the count is vitest's, never the stray TAP", async () => {
  const vitestTests = Array.from({ length: 22 }, (_, i) => `  it('case ${i}', () => { expect(add(${i}, 1)).toBe(${i + 1}) })`)
  const ws = makeRepo({
    '.gitignore': 'node_modules/\n',
    'package.json': '{ "name": "p", "private": true, "type": "module" }\n',
    'src/math.js': 'export const add = (a, b) => (a === 1 ? 0 : a + b)\n',
    'test/math.test.js': [
      "import { describe, it, expect } from 'vitest'",
      "import { add } from '../src/math.js'",
      "describe('math', () => {",
      ...vitestTests,
      '})',
      ''
    ].join('\n'),
    'test/legacy.test.js': ["import { describe, it } from 'node:test'", "describe('legacy', () => {", "  it('still here', () => {})", '})', ''].join('\n')
  })
  installFromOwnNodeModules(ws, ['vitest'])
  const head = sh(ws, ['rev-parse', 'HEAD']).trim()
  const temp = tempDir()
  const gate = new ProtectedGate({
    workspace: ws,
    repository: GitRepository.plain(ws),
    snapshot: await BaseSnapshot.take(GitRepository.plain(ws), head, { paths: new ProtectedPaths(['test/**']) }),
    command: 'node_modules/.bin/vitest run',
    timeoutMs: 120_000,
    env: gateEnv(process.env),
    privateDir: path.join(temp, 'private'),
    gateDir: path.join(temp, 'gate')
  })
  await gate.init()
  const baseline = await gate.runBaseline(head)
  // node:test's TAP stream is in vitest's output
  expect(baseline.verdict.outputTail).toMatch(/^TAP version 13$/m)
  expect(baseline.tests).toBe(22)
  expect(baseline.verdict.failures.map((f) => f.id)).toContain('test/math.test.js › math › case 1')
}, 180_000)
