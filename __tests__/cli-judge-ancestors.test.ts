/**
 * The local CLI's default temp folder is under the system's temp folder, which every user may
 * write. An agent that writes nothing in the repository but a pytest configuration and a conftest
 * in that folder (above the gate's checkout, where pytest looks) does not get its bug verified:
 * the gate judges where no run's user can write above the checkout. Through `dist/cli.js`.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './helpers/action-runner.js'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { makeRepo, sharedTempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')

const CONFTEST = [
  'import _pytest.python',
  '_pytest.python.Function.runtest = lambda self: None',
  'def pytest_collection_modifyitems(items):',
  '    for item in items:',
  "        item._nodeid = item._nodeid.split('/checkout/', 1)[-1]",
  ''
].join('\n')

function project(): Record<string, string> {
  return {
    '.gitignore': '__pycache__/\n',
    'arith.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_ops.py': 'from arith import add\n\n\ndef test_adds_two():\n    assert add(2, 3) == 5\n'
  }
}

function run(shared: string, agent: string): { status: number | null; stdout: string; stderr: string } {
  const script = path.join(shared, `agent-${Math.random().toString(36).slice(2)}.sh`)
  writeFileSync(script, agent, { mode: 0o755 })
  const args = ['run', '--agent', 'command', '--agent-command', `bash ${script}`, '--prompt', 'fix add', '--max-iterations', '1']
  const gate = ['--gate-command', `${TEST_PYTHON} -m pytest -q -p no:cacheprovider tests`]
  const r = spawnSync(process.execPath, [CLI, ...args, ...gate], {
    cwd: makeRepo(project()),
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: shared }
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

needs('pytest', 'second-user').describe('the CLI under a shared temp folder', () => {
  test('a pytest.ini and conftest.py the agent wrote above the checkout are not loaded', () => {
    const shared = sharedTempDir('loopgate-cli-shared-')
    const plant = `cat > '${shared}/conftest.py' <<'EOF'\n${CONFTEST}EOF\nprintf '[pytest]\\n' > '${shared}/pytest.ini'\nchmod 644 '${shared}/conftest.py' '${shared}/pytest.ini'\n`
    const r = run(shared, `echo '# tidied' >> arith.py\n${plant}`)
    expect(r.stdout).not.toContain('stop-reason: verified')
    expect(r.stdout).toContain('stop-reason: max-iterations')
    expect(`${r.stdout}\n${r.stderr}`).toContain('the gate judges in /var/lib/loopgate/gate')
  }, 180_000)

  test('control: the fix is verified', () => {
    const r = run(sharedTempDir('loopgate-cli-shared-'), "sed -i 's/a - b/a + b/' arith.py\n")
    expect(r.stdout).toContain('stop-reason: verified')
    expect(r.status).toBe(0)
  }, 180_000)
})
