import { readFileSync } from 'node:fs'
import path from 'node:path'
import { FIX, journal, nodeProject, STEADY } from './helpers/flaky-project.js'
import { makeRepo } from './helpers/repo.js'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { runIn } from './helpers/settings.js'

/**
 * The flaky rule's rerun through the real gate and real runners: when failing tests the change
 * does not touch are left, the whole gate command runs again on the same commit, with the same
 * selection and order (each test writes its name to a journal when it runs, so the test reads how
 * often each one ran); one that fails again is rerun alone on the base's tree.
 */

const inputs = (agent: string, gate = 'node --test') => ({ 'agent-command': agent, 'gate-command': gate, 'max-iterations': '3', 'same-failure-limit': '2' })

describe('the flaky rerun runs the same command, the same selection and order', () => {
  test('node:test: a flaky test among many passes when the whole command runs again on the commit', async () => {
    const j = journal()
    const repo = nodeProject(j.file, { 'coin lands heads': "assert.ok(run !== 2, 'tails on run ' + run)" })
    const report = await runIn(repo, inputs(FIX))
    expect(report.stopReason).toBe('verified')
    // The baseline, the agent's commit, and the whole command again.
    expect(j.runs('coin lands heads')).toBe(3)
    for (const name of [...STEADY, 'add adds']) expect(j.runs(name)).toBe(3)
    const gate = report.run!.iterations[0].gate!
    expect(gate.passed).toBe(true)
    expect(gate.flaky).toEqual(['coin lands heads'])
    // loopgate's own report of the rerun lists every test of the command.
    expect([...(gate.rerun?.ran ?? [])].sort()).toEqual(['add adds', 'coin lands heads', ...STEADY].sort())
    expect(gate.rerun?.how).toContain('the whole gate command again, the same selection and order (`node --test`)')
    const log = readFileSync(report.logFile, 'utf8')
    expect(log).toMatch(
      /rerun on the same commit for the failing tests the change does not touch \(coin lands heads\): the whole gate command again[^"]*it ran 6 test/
    )
    expect(readFileSync(path.join(report.runDir, 'pull-request.md'), 'utf8')).toMatch(/### Flaky tests[\s\S]*coin lands heads/)
  })

  test('a test that passed at the baseline and fails on the base too is the base’s: never the task, and the run ends flaky-tests', async () => {
    const j = journal()
    // It passes on its first run (the baseline) and fails from then on, wherever it runs.
    const repo = nodeProject(j.file, { 'certificate still valid': "assert.ok(run < 2, 'expired on run ' + run)" })
    const agent = `if [ -f notes.txt ]; then ${FIX}; else echo looking > notes.txt; fi`
    const report = await runIn(repo, inputs(agent))
    expect(report.stopReason).toBe('flaky-tests')
    // The baseline, iteration 1, its rerun there, its rerun on the base's tree, iteration 2 (not rerun again).
    expect(j.runs('certificate still valid')).toBe(5)
    // The baseline, iteration 1, its rerun there (the whole command), iteration 2.
    for (const name of STEADY) expect(j.runs(name)).toBe(4)
    const [first, second] = report.run!.iterations
    expect(first.gate!.failingOnBase).toEqual(['certificate still valid'])
    expect(first.gate!.failures.map((f) => f.id)).toEqual(['add adds'])
    expect(first.evidence.join('\n')).toMatch(/failing on the base too, not your task[^\n]*certificate still valid/)
    expect(first.evidence.filter((l) => l.startsWith('failing:')).join('\n')).not.toMatch(/certificate/)
    expect(first.gate!.rerun?.how).toMatch(/on the baseline's tree alone[^]*failing there too: certificate still valid/)
    expect(second.gate!.failingOnBase).toEqual(['certificate still valid'])
    const issue = readFileSync(path.join(report.runDir, 'escalation-issue.md'), 'utf8')
    expect(issue).toMatch(/\*\*Decision:\*\* the tests left failing fail on the base too \(`[^`]*certificate still valid[^`]*`; they passed at the baseline\)/)
    expect(issue).toMatch(/### Failing on the base[\s\S]*certificate still valid/)
    expect(issue).not.toContain('### Flaky tests')
  })

  test('an opaque gate command (make test) is rerun whole, like any other', async () => {
    const j = journal()
    const repo = nodeProject(
      j.file,
      { 'coin lands heads': "assert.ok(run !== 2, 'tails on run ' + run)" },
      { Makefile: '.PHONY: test\ntest:\n\tnode --test\n' }
    )
    const report = await runIn(repo, inputs(FIX, 'make test'))
    expect(report.stopReason).toBe('verified')
    // Every test ran on the rerun: loopgate could not tell make which one to run.
    expect(j.runs('coin lands heads')).toBe(3)
    for (const name of STEADY) expect(j.runs(name)).toBe(3)
    const gate = report.run!.iterations[0].gate!
    expect(gate.flaky).toEqual(['coin lands heads'])
    const log = readFileSync(report.logFile, 'utf8')
    expect(log).toContain('the whole gate command again, the same selection and order (`make test`)')
  })
})

/** A pytest project: `add` broken (the task), four steady tests, a class of `extra` tests, each noting its runs. */
function pytestProject(file: string, extra: Record<string, string>, more: Record<string, string> = {}): string {
  const ran = `def ran(name):\n    with open(${JSON.stringify(file)}, 'a') as f:\n        f.write(name + '\\n')\n    with open(${JSON.stringify(file)}) as f:\n        return [l for l in f.read().split('\\n') if l == name].__len__()\n`
  const steady = [1, 2, 3, 4].map((n) => `def test_steady_${n}():\n    assert ran('steady ${n}') > 0\n`).join('\n')
  const cls = `class TestExtra:\n${Object.entries(extra)
    .map(([name, body]) => `    def ${name}(self):\n        run = ran(${JSON.stringify(name)})\n        ${body}\n`)
    .join('\n')}`
  return makeRepo({
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'tests/__init__.py': '',
    'tests/journal.py': ran,
    'tests/test_calc.py': `from calc import add\nfrom tests.journal import ran\n\ndef test_add():\n    ran('add')\n    assert add(2, 3) == 5\n\n${steady}`,
    'tests/test_extra.py': `from tests.journal import ran\n\n${cls}`,
    ...more
  })
}

const PY_FIX = "sed -i 's/a - b/a + b/' calc.py"

needs('pytest').describe('pytest: the rerun names the failing tests by node id', () => {
  const gate = `${TEST_PYTHON} -m pytest -q -p no:cacheprovider`

  test('a flaky test in a class among many passes when the whole command runs again', async () => {
    const j = journal()
    const repo = pytestProject(j.file, { test_coin: "assert run != 2, 'tails on run %d' % run" })
    const report = await runIn(repo, inputs(PY_FIX, gate))
    expect(report.stopReason).toBe('verified')
    expect(j.runs('test_coin')).toBe(3)
    for (const name of ['steady 1', 'steady 2', 'steady 3', 'steady 4', 'add']) expect(j.runs(name)).toBe(3)
    const verdict = report.run!.iterations[0].gate!
    expect(verdict.flaky).toEqual(['tests.test_extra.TestExtra › test_coin'])
    expect(verdict.rerun?.ran).toContain('tests.test_extra.TestExtra › test_coin')
    expect(verdict.rerun?.ran).toHaveLength(6)
  })

  test('a failing test in a file the change touched is not rerun: it stays the agent’s', async () => {
    const j = journal()
    const repo = pytestProject(j.file, { test_coin: 'assert run > 0' })
    // The agent fixes add and rewrites the (unprotected) extra tests with a coin that fails on its second run.
    const coin = `from tests.journal import ran\\n\\nclass TestExtra:\\n    def test_coin(self):\\n        assert ran('test_coin') != 2\\n`
    const report = await runIn(repo, {
      ...inputs(`${PY_FIX} && printf "${coin}" > tests/test_extra.py`, gate),
      'max-iterations': '1',
      'protected-paths': '!tests/test_extra.py'
    })
    expect(report.stopReason).toBe('max-iterations')
    // The baseline and the agent's commit: no rerun, though a rerun would have passed.
    expect(j.runs('test_coin')).toBe(2)
    const verdict = report.run!.iterations[0].gate!
    expect(verdict.failures.map((f) => f.id)).toEqual(['tests.test_extra.TestExtra › test_coin'])
    expect(verdict.flaky).toBeUndefined()
    expect(verdict.rerun).toBeUndefined()
    expect(readFileSync(report.logFile, 'utf8')).not.toContain('rerun on the same commit')
  })
})
