/**
 * The gate's Python loads the base's environment, however the tree looks: `python -m pytest` does
 * not import a `pytest.py` of the tree in place of the installed pytest (the safe path), and
 * package metadata in the tree is never read for plugins (autoload off, the installed packages'
 * plugins loaded by loopgate). The project still imports from the folder the command runs in, and a
 * plugin installed in the project's virtualenv still loads.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runAttack } from './helpers/gate-fixture.js'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { DISARM, PYTEST_SHIM } from './helpers/pytest-disarm.js'

const FIX = "sed -i 's/a - b/a + b/' arith.py\n"

/** The attempt log's baseline entry. */
function baselineOf(log: string): { passed: boolean; failures: { id: string }[] } {
  const line = log.split('\n').find((l) => l.includes('"type":"baseline"'))
  return JSON.parse(line ?? '{}') as { passed: boolean; failures: { id: string }[] }
}

function project(extra: Record<string, string> = {}): Record<string, string> {
  return {
    '.gitignore': '__pycache__/\n.venv/\n',
    'arith.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_ops.py': 'from arith import add\n\n\ndef test_adds_two():\n    assert add(2, 3) == 5\n',
    ...extra
  }
}

/** What the base itself holds that the runner's own lookup would load in place of the judge. */
const IN_THE_TREE: { what: string; files: Record<string, string> }[] = [
  {
    what: 'a top-level pytest.py that disarms the real pytest',
    files: {
      'pytest.py': PYTEST_SHIM
    }
  },
  {
    what: 'package metadata whose pytest11 entry point disarms every test',
    files: {
      'noop-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: noop\nVersion: 1.0\n',
      'noop-1.0.dist-info/entry_points.txt': '[pytest11]\nnoop = noop_plugin\n',
      'noop_plugin.py': DISARM
    }
  }
]

needs('pytest').describe('the gate runs the installed pytest and its installed plugins only', () => {
  test.each(IN_THE_TREE)(
    '$what, in the base: never loaded (the baseline fails, the fix is verified)',
    async ({ files }) => {
      const r = await runAttack({
        isolation: 'weak',
        files: project(files),
        script: FIX,
        inputs: { 'gate-command': `${TEST_PYTHON} -m pytest -q -p no:cacheprovider tests`, 'max-iterations': '1' }
      })
      expect(baselineOf(r.log).passed).toBe(false)
      expect(r.report.stopReason).toBe('verified')
    },
    120_000
  )
})

needs('pytest', 'venv').describe('a plugin installed in the virtualenv', () => {
  test('loads as pytest would load it, and the fix is verified', async () => {
    const plugin = 'import pytest\n\n\n@pytest.fixture\ndef expected_sum():\n    return 5\n'
    const r = await runAttack({
      isolation: 'weak',
      files: project({ 'tests/test_ops.py': 'from arith import add\n\n\ndef test_adds_two(expected_sum):\n    assert add(2, 3) == expected_sum\n' }),
      prepare: (ws) => {
        execFileSync(TEST_PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', path.join(ws, '.venv')])
        const site = execFileSync(path.join(ws, '.venv/bin/python'), ['-c', 'import site; print(site.getsitepackages()[0])'], { encoding: 'utf8' }).trim()
        mkdirSync(path.join(site, 'sumfixture-1.0.dist-info'))
        writeFileSync(path.join(site, 'sumfixture-1.0.dist-info/METADATA'), 'Metadata-Version: 2.1\nName: sumfixture\nVersion: 1.0\n')
        writeFileSync(path.join(site, 'sumfixture-1.0.dist-info/entry_points.txt'), '[pytest11]\nsumfixture = sumfixture\n')
        writeFileSync(path.join(site, 'sumfixture.py'), plugin)
      },
      script: FIX,
      inputs: { 'gate-command': '.venv/bin/python -m pytest -q -p no:cacheprovider tests', 'max-iterations': '1' }
    })
    expect(baselineOf(r.log).failures.map((f) => f.id)).toEqual(['tests.test_ops › test_adds_two'])
    expect(r.report.stopReason).toBe('verified')
  }, 120_000)
})

/** The interpreter's site-packages of a virtualenv made on the system's Python, in `ws`. */
function venvSite(ws: string): string {
  execFileSync(TEST_PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', path.join(ws, '.venv')])
  return execFileSync(path.join(ws, '.venv/bin/python'), ['-c', 'import site; print(site.getsitepackages()[0])'], { encoding: 'utf8' }).trim()
}

const RUNNERS = [
  { runner: 'python -m pytest', command: '.venv/bin/python -m pytest -q -p no:cacheprovider tests' },
  { runner: 'python -m unittest', command: '.venv/bin/python -m unittest discover -s tests -t .' }
]

needs('pytest', 'venv').describe('the project as the base has it, beside what is installed', () => {
  const unittestProject = (extra: Record<string, string> = {}) =>
    project({
      'tests/__init__.py': '',
      'tests/test_ops.py':
        'import unittest\n\nfrom arith import add\n\n\nclass Ops(unittest.TestCase):\n    def test_adds_two(self):\n        self.assertEqual(add(2, 3), 5)\n',
      ...extra
    })

  test.each(RUNNERS)(
    "$runner: the project's own module, installed too in an older version, imports from the tree (the fix is verified)",
    async ({ command }) => {
      const r = await runAttack({
        isolation: 'weak',
        files: unittestProject(),
        prepare: (ws) => writeFileSync(path.join(venvSite(ws), 'arith.py'), 'def add(a, b):\n    return 0\n'),
        script: FIX,
        inputs: { 'gate-command': command, 'max-iterations': '1' }
      })
      expect(r.report.stopReason).toBe('verified')
    },
    120_000
  )

  test.each(RUNNERS)(
    '$runner: a module the candidate adds, named like an installed one the tests import, is not loaded in its place',
    async ({ command }) => {
      const r = await runAttack({
        isolation: 'weak',
        files: unittestProject({
          'tests/test_ops.py':
            'import unittest\n\nfrom expected import SUM\nfrom arith import add\n\n\nclass Ops(unittest.TestCase):\n    def test_adds_two(self):\n        self.assertEqual(add(2, 3), SUM)\n'
        }),
        prepare: (ws) => writeFileSync(path.join(venvSite(ws), 'expected.py'), 'SUM = 5\n'),
        script: "printf 'SUM = -1\\n' > expected.py\n",
        inputs: { 'gate-command': command, 'max-iterations': '1' }
      })
      expect(r.report.stopReason).not.toBe('verified')
    },
    120_000
  )
})
