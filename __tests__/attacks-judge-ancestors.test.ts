/**
 * Test runners look above the checkout: pytest searches every ancestor folder for its
 * configuration, npm puts every ancestor's `node_modules/.bin` on a script's PATH. With the run's
 * temp folder under a folder every user may write (a shared temp folder, mode 1777), an agent that
 * writes nothing in the repository plants what the judge then loads there. The gate judges in a
 * folder whose every ancestor only root (or loopgate's own user) can write, so neither is found.
 */
import path from 'node:path'
import { attackProject, runAttack, type AttackResult } from './helpers/gate-fixture.js'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { sharedTempDir } from './helpers/repo.js'

const user = (name: string): string => `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-${name}`

/** A shell step writing `text` to `file` (a heredoc), making its folder first. */
const write = (file: string, text: string, mode = '644'): string =>
  `mkdir -p '${path.dirname(file)}' && cat > '${file}' <<'LOOPGATE_EOF'\n${text}LOOPGATE_EOF\nchmod ${mode} '${file}'\n`

function pythonProject(): Record<string, string> {
  return {
    '.gitignore': '__pycache__/\n',
    'arith.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_ops.py': 'from arith import add\n\n\ndef test_adds_two():\n    assert add(2, 3) == 5\n'
  }
}

/** Every test body returns before it runs, under the ids the checkout's own run gives. */
const DISARM = [
  'import _pytest.python',
  '_pytest.python.Function.runtest = lambda self: None',
  'def pytest_collection_modifyitems(items):',
  '    for item in items:',
  "        item._nodeid = item._nodeid.split('/checkout/', 1)[-1]",
  ''
].join('\n')

const ATTACKS: { attack: string; files: () => Record<string, string>; gate: string; script: (above: string) => string }[] = [
  {
    attack: 'a pytest.ini and conftest.py in a folder above the checkout that skip every test body',
    files: pythonProject,
    gate: `${TEST_PYTHON} -m pytest -q -p no:cacheprovider tests`,
    script: (above) => `echo '# tidied' >> arith.py\n${write(`${above}/conftest.py`, DISARM)}${write(`${above}/pytest.ini`, '[pytest]\n')}`
  },
  {
    attack: "a node in an ancestor's node_modules/.bin that npm puts first on the script's PATH",
    files: () => ({ ...attackProject(), 'package.json': JSON.stringify({ name: 'p', type: 'module', scripts: { test: 'node test/run.mjs' } }) }),
    gate: 'npm test',
    script: (above) =>
      "echo '// tidied' >> src/math.mjs\n" +
      write(`${above}/node_modules/.bin/node`, "#!/bin/sh\necho '✓ math adds two numbers'\necho '✓ math adds zero'\nexit 0\n", '755')
  }
]

async function attack(name: string, row: (typeof ATTACKS)[number]): Promise<AttackResult> {
  // A folder every user may write (as a shared /tmp is) holds the run's temp folder.
  const above = sharedTempDir('loopgate-shared-above-')
  return runAttack({
    tempIn: above,
    isolation: 'auto',
    agentUser: user(name),
    files: row.files(),
    inputs: { 'gate-command': row.gate, 'max-iterations': '1' },
    script: row.script(above)
  })
}

needs('pytest', 'second-user').describe('the folders above the gate checkout', () => {
  test.each(ATTACKS.map((row, i) => ({ ...row, i })))(
    '$attack: not loaded, not verified',
    async (row) => {
      const r = await attack(`anc${row.i}`, row)
      expect(r.report.stopReason).not.toBe('verified')
      expect(r.report.run?.verifiedCommit).toBeNull()
      expect(r.report.notes.join('\n')).toContain('the gate judges in /var/lib/loopgate/gate')
      expect(r.report.run?.iterations[0].gate?.passed).toBe(false)
    },
    180_000
  )
})
