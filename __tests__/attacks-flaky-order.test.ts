/**
 * Flaky means the same gate command, with the same selection and order, passes on the same tree.
 * The agent fixes `add()` and breaks `mul()` whenever `add()` ran before it in the same process:
 * the whole suite fails `test_mul` every time, `test_mul` alone passes. Such a failure is the
 * agent's (its test imports the changed module), and a rerun of the whole command fails it again.
 * A test that really is flaky (failing once, in a file that imports nothing the change touched)
 * still passes the gate on the rerun.
 */
import { runAttack } from './helpers/gate-fixture.js'
import { journal } from './helpers/flaky-project.js'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'

const FIX_ADD = "sed -i 's/a - b/a + b/' arith.py\n"
/** add() fixed; mul() off by one once add() ran in the same process. */
const ORDER_DEPENDENT = `cat > arith.py <<'PY'
_ran = {"add": False}


def add(a, b):
    _ran["add"] = True
    return a + b


def mul(a, b):
    return a * b + (1 if _ran["add"] else 0)
PY
`

function project(extra: Record<string, string> = {}): Record<string, string> {
  return {
    '.gitignore': '__pycache__/\n',
    'arith.py': 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n',
    'tests/test_ops.py': 'from arith import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
    ...extra
  }
}

const run = (files: Record<string, string>, script: string) =>
  runAttack({ isolation: 'weak', files, script, inputs: { 'gate-command': `${TEST_PYTHON} -m pytest -q -p no:cacheprovider`, 'max-iterations': '1' } })

/** Where `test_mul` lives: beside `test_add`, or in a file that loads the module by a name no import line shows. */
const LAYOUTS: { layout: string; files: Record<string, string> }[] = [
  { layout: 'its test file imports the changed module', files: {} },
  {
    layout: 'its test file loads the module dynamically (the change does not touch it by path)',
    files: {
      'tests/test_ops.py': 'from arith import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
      'tests/test_ops_mul.py': 'import importlib\n\nmul = importlib.import_module("ar" + "ith").mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n'
    }
  }
]

needs('pytest').describe('the flaky rule', () => {
  test.each(LAYOUTS)(
    'a test failing only after another ran in the same process is not flaky ($layout): the run is not verified',
    async ({ files }) => {
      const r = await run(project(files), ORDER_DEPENDENT)
      const gate = r.report.run?.iterations[0].gate
      expect(gate?.failures.map((f) => f.id).join('\n')).toContain('test_mul')
      expect(gate?.flaky ?? []).toEqual([])
      expect(r.report.stopReason).not.toBe('verified')
      expect(r.report.run?.verifiedCommit).toBeNull()
    },
    120_000
  )
  test('control: a test failing once in a file the change does not touch is flaky, and the fix is verified', async () => {
    const j = journal()
    const clock = `import pathlib\n\n\ndef test_clock():\n    p = pathlib.Path(${JSON.stringify(j.file)})\n    p.write_text(p.read_text() + "clock\\n")\n    assert p.read_text().count("clock") != 2\n`
    const r = await run(project({ 'tests/test_clock.py': clock }), FIX_ADD)
    expect(r.report.stopReason).toBe('verified')
    expect(r.report.run?.iterations[0].gate?.flaky?.join(' ')).toContain('test_clock')
  }, 120_000)
})
