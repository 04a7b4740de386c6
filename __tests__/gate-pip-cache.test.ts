/** The runner's pip cache, given to gate-setup read-only: pip installs from it as the gate user, the runner's files untouched. */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { runAttack } from './helpers/gate-fixture.js'
import { hasTool, needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { startPackageIndex, type PackageIndex } from './helpers/pypi-index.js'
import { tempDir } from './helpers/repo.js'

const LONG = 240_000
let index: PackageIndex

beforeAll(async () => {
  if (!hasTool('python3')) return
  index = await startPackageIndex()
  index.publish('lg-cached', '1.0.0', { 'lg_cached/__init__.py': 'ANSWER = 41\n' })
}, LONG)

afterAll(async () => {
  await index?.stop()
})

/** Every file of a folder with its mode and hash, to compare before and after. */
const snapshot = (dir: string): string =>
  execFileSync('find', [dir, '-type', 'f', '-printf', '%m %u %p\\n', '-exec', 'sha256sum', '{}', ';'], { encoding: 'utf8' })

needs('python3', 'pip', 'venv', 'pytest', 'second-user').test(
  "gate-setup `pip install` gets a package from the runner's warm pip cache (files only its owner may read), as the gate user",
  async () => {
    // The runner's HOME, closed to other users like /root, its pip cache warmed by an earlier step.
    const home = path.join(tempDir('loopgate-pip-runner-'), 'home')
    mkdirSync(home, { mode: 0o700 })
    const cache = path.join(home, '.cache', 'pip')
    execFileSync(TEST_PYTHON, ['-m', 'pip', 'download', '-q', '--no-deps', '-d', tempDir('loopgate-pip-dl-'), '--cache-dir', cache, 'lg-cached==1.0.0'], {
      // pip caches only from HTTPS and trusted hosts.
      env: { ...process.env, ...index.env, PIP_TRUSTED_HOST: '127.0.0.1' },
      stdio: 'pipe'
    })
    const files = execFileSync('find', [cache, '-type', 'f', '-path', '*/http*'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean)
    expect(files.length).toBeGreaterThan(0)
    // pip writes its cache files 0600: the gate user cannot read the runner's own.
    expect(execFileSync('stat', ['-c', '%a', files[0]], { encoding: 'utf8' }).trim()).toBe('600')
    chmodSync(home, 0o700)
    const before = snapshot(cache)
    // The index still lists the wheel, but only the cache holds it now.
    const project = path.join(index.root, 'simple', 'lg-cached')
    for (const f of readdirSync(project).filter((f) => f.endsWith('.whl'))) rmSync(path.join(project, f))

    const r = await runAttack({
      isolation: 'auto',
      files: {
        '.gitignore': '.venv/\n__pycache__/\n',
        'answer.py': 'from lg_cached import ANSWER\n\n\ndef answer():\n    return ANSWER\n',
        'tests/test_answer.py': 'from answer import answer\n\n\ndef test_the_answer():\n    assert answer() == 42\n'
      },
      env: { HOME: home, ...index.env },
      inputs: {
        'agent-env': 'PIP_INDEX_URL',
        'gate-setup': `${TEST_PYTHON} -m venv --system-site-packages .venv && .venv/bin/python -m pip install -q --trusted-host 127.0.0.1 lg-cached==1.0.0`,
        'gate-command': '.venv/bin/python -m pytest -q -p no:cacheprovider'
      },
      script: "sed -i 's/return ANSWER$/return ANSWER + 1/' answer.py\n"
    })
    const gate = r.report.run?.iterations[0]?.gate?.outputTail ?? r.report.notes.join('\n')
    // A status 404 as pip prints it; not the digits inside the report folder's random name.
    expect(gate).not.toMatch(/\b404\b|No matching distribution|Permission denied/)
    expect(r.report.notes).toContain("gate-setup reads the runner's package caches (pip) read-only, in a fresh HOME each gate run")
    expect(r.report.stopReason).toBe('verified')
    expect(snapshot(cache)).toBe(before)
  },
  LONG
)
