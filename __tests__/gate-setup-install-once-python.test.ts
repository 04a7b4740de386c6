/**
 * gate-setup's Python install of pinned requirements (`python -m venv .venv && .venv/bin/pip
 * install -r requirements.txt`) runs once per run, on the baseline: every later gate run on the
 * reference's requirements gets that virtualenv read-only (root's, hard-linked into the same
 * checkout path its scripts and pyvenv.cfg name) and skips the install. A candidate that changes
 * the requirements (as `dependency-changes: registry` allows) runs the whole setup, wheels only,
 * into a copy that is never kept. Real pip against a local PEP 503 index.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { editableBackend } from './helpers/editable-backend.js'
import { runAttack } from './helpers/gate-fixture.js'
import { hasTool, needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { startPackageIndex, type PackageIndex } from './helpers/pypi-index.js'
import { sharedTempDir } from './helpers/repo.js'

const LONG = 300_000
let index: PackageIndex
let sdistBuilt: string

/** A source distribution whose setup.py records that it ran: its build is code the install runs. */
function publishSdist(name: string, version: string): void {
  const dir = path.join(index.root, 'simple', name)
  mkdirSync(dir, { recursive: true })
  const file = `${name.replace(/-/g, '_')}-${version}.tar.gz`
  const setupPy = `open(${JSON.stringify(sdistBuilt)}, "a").write("built\\n")\nfrom setuptools import setup\nsetup(name=${JSON.stringify(name)}, version=${JSON.stringify(version)})\n`
  const build = [
    'import io, sys, tarfile',
    'out, root, text = sys.argv[1], sys.argv[2], sys.argv[3]',
    'with tarfile.open(out, "w:gz") as t:',
    '    data = text.encode()',
    '    info = tarfile.TarInfo(root + "/setup.py"); info.size = len(data)',
    '    t.addfile(info, io.BytesIO(data))'
  ].join('\n')
  execFileSync(TEST_PYTHON, ['-c', build, path.join(dir, file), file.replace(/\.tar\.gz$/, ''), setupPy])
  writeFileSync(path.join(dir, 'index.html'), `<!DOCTYPE html>\n<html><body>\n<a href="${file}">${file}</a><br/>\n</body></html>\n`)
}

beforeAll(async () => {
  if (!hasTool('python3')) return
  index = await startPackageIndex()
  index.publish('lg-lib', '1.0.0', { 'lg_lib/__init__.py': 'VERSION = "1.0.0"\n' })
  index.publish('lg-lib', '1.1.0', { 'lg_lib/__init__.py': 'VERSION = "1.1.0"\n' })
  const shared = sharedTempDir('loopgate-sdist-')
  sdistBuilt = path.join(shared, 'built')
  writeFileSync(sdistBuilt, '')
  publishSdist('lg-sdist', '1.0')
}, LONG)

afterAll(async () => {
  await index?.stop()
})

const PROJECT: Record<string, string> = {
  '.gitignore': '.venv/\n__pycache__/\n',
  'requirements.txt': 'lg-lib==1.0.0\n',
  'answer.py': 'import lg_lib\n\n\ndef add(a, b):\n    return a - b\n',
  'tests/test_answer.py': 'from answer import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n'
}

/** An agent command that runs `steps[n - 1]` on its n-th call (the last one from then on), counting calls in `state`. */
const byIteration = (state: string, steps: readonly string[]): string =>
  [
    `n=$(cat ${state} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${state}`,
    'case $n in',
    ...steps.map((step, i) => `  ${i === steps.length - 1 ? '*' : i + 1}) ${step} ;;`),
    'esac',
    ''
  ].join('\n')

/** The agent, by iteration: a change beside the requirements; an sdist added; a registry version; the reference's requirements back and the fix. */
const agentScript = (state: string): string =>
  byIteration(state, [
    "echo '# notes' > NOTES.md",
    "printf 'lg-lib==1.0.0\\nlg-sdist==1.0\\n' > requirements.txt",
    "printf 'lg-lib==1.1.0\\n' > requirements.txt",
    "printf 'lg-lib==1.0.0\\n' > requirements.txt; sed -i 's/a - b/a + b/' answer.py"
  ])

needs('python3', 'pip', 'venv', 'pytest', 'second-user').test(
  'the virtualenv is installed once; later runs get it read-only; changed requirements install wheels only, into a copy not kept',
  async () => {
    const state = path.join(sharedTempDir('loopgate-agent-state-'), 'n')
    const markers = [
      `.venv/bin/python -c "import lg_lib; print('LIB', lg_lib.VERSION)"`,
      'test -e .venv/planted && echo VENV-PLANTED-BEFORE',
      '{ touch .venv/planted 2>/dev/null && echo VENV-WRITTEN; } || echo VENV-REFUSED'
    ].join('; ')
    const r = await runAttack({
      isolation: 'auto',
      files: PROJECT,
      env: { ...index.env },
      inputs: {
        'agent-env': 'PIP_INDEX_URL',
        'dependency-changes': 'registry',
        'max-iterations': '4',
        'gate-setup': `${TEST_PYTHON} -m venv --system-site-packages .venv && .venv/bin/pip install --no-compile --requirement requirements.txt`,
        'gate-command': `${markers}; .venv/bin/python -m pytest -q -p no:cacheprovider --junitxml=reports/junit.xml`,
        'gate-report': 'reports/junit.xml'
      },
      script: agentScript(state)
    })
    const gates = (r.report.run?.iterations ?? []).map((it) => it.gate?.outputTail ?? '')
    if (r.report.stopReason !== 'verified') console.log(r.report.stopReason, r.report.notes.join('\n'), gates.join('\n-----\n'))
    expect(r.report.stopReason).toBe('verified')
    expect(gates).toHaveLength(4)
    // On the reference's requirements: the kept virtualenv, read-only, no install, the verdict still the tests'.
    for (const i of [0, 3]) {
      expect(gates[i]).not.toContain('Successfully installed')
      expect(gates[i]).toContain('LIB 1.0.0')
      expect(gates[i]).toContain('VENV-REFUSED')
      expect(gates[i]).not.toContain('VENV-PLANTED-BEFORE')
    }
    expect(r.report.run?.iterations[0].gate?.passed).toBe(false)
    expect(r.report.run?.iterations[3].gate?.passed).toBe(true)
    // An sdist the candidate added is never built: pip installs wheels only.
    expect(gates[1]).toMatch(/from versions: none/)
    expect(execFileSync('cat', [sdistBuilt], { encoding: 'utf8' })).toBe('')
    // A registry version: the whole setup, into a writable copy of the kept virtualenv.
    expect(gates[2]).toContain('Successfully installed lg-lib-1.1.0')
    expect(gates[2]).toContain('LIB 1.1.0')
    expect(gates[2]).toContain('VENV-WRITTEN')
  },
  LONG
)

const EDITABLE_PROJECT: Record<string, string> = {
  '.gitignore': '.venv/\n__pycache__/\nsrc/answer_pkg/_version.py\n',
  'requirements.txt': 'lg-lib==1.0.0\n',
  'pyproject.toml': '[build-system]\nrequires = []\nbuild-backend = "lg_backend"\nbackend-path = ["."]\n\n[project]\nname = "answer_pkg"\nversion = "1.0"\n',
  // Its build writes the version file into the tree, as hatch-vcs does, and makes a console script.
  'lg_backend.py': editableBackend('answer_pkg', '1.0', { script: 'answer-cli = answer_pkg:main', versionFile: 'src/answer_pkg/_version.py' }),
  'src/answer_pkg/__init__.py':
    'import lg_lib\nfrom ._version import VERSION\n\n\ndef add(a, b):\n    return a - b\n\n\ndef main():\n    print("CLI", add(2, 3), VERSION)\n',
  'tests/test_answer.py': 'from answer_pkg import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n'
}

/** The agent, by iteration: a note; a change to the build backend; a registry version of a requirement; the reference's files back and the fix. */
const editableAgent = (state: string): string =>
  byIteration(state, [
    "echo '# notes' > NOTES.md",
    "echo '# the backend, edited' >> lg_backend.py",
    "sed -i '/# the backend, edited/d' lg_backend.py; printf 'lg-lib==1.1.0\\n' > requirements.txt",
    "printf 'lg-lib==1.0.0\\n' > requirements.txt; sed -i 's/a - b/a + b/' src/answer_pkg/__init__.py"
  ])

needs('python3', 'pip', 'venv', 'pytest', 'second-user').test(
  "the project's editable install is kept with the requirements: a later run imports the commit's code through it, and installs again only when the project's files or the requirements change",
  async () => {
    const state = path.join(sharedTempDir('loopgate-agent-state-'), 'n')
    const markers = [
      `.venv/bin/python -c "import lg_lib, answer_pkg; print('LIB', lg_lib.VERSION, 'FROM', answer_pkg.__file__)"`,
      '.venv/bin/answer-cli',
      // The version file the kept build wrote is the run's to write: nothing of that reaches the next run.
      'grep -q PLANTED src/answer_pkg/_version.py && echo VERSION-PLANTED-BEFORE',
      "echo 'PLANTED = 1' >> src/answer_pkg/_version.py && echo VERSION-WRITTEN",
      'test -e .venv/planted && echo VENV-PLANTED-BEFORE',
      '{ touch .venv/planted 2>/dev/null && echo VENV-WRITTEN; } || echo VENV-REFUSED'
    ].join('; ')
    const r = await runAttack({
      isolation: 'auto',
      files: EDITABLE_PROJECT,
      env: { ...index.env },
      inputs: {
        'agent-env': 'PIP_INDEX_URL',
        'dependency-changes': 'registry',
        'max-iterations': '4',
        'same-failure-limit': '9',
        'gate-setup': `${TEST_PYTHON} -m venv --system-site-packages .venv && .venv/bin/pip install --no-compile --requirement requirements.txt && .venv/bin/pip install --no-compile --no-deps -e '.[test]'`,
        'gate-command': `${markers}; .venv/bin/python -m pytest -q -p no:cacheprovider --junitxml=reports/junit.xml`,
        'gate-report': 'reports/junit.xml'
      },
      script: editableAgent(state)
    })
    const gates = (r.report.run?.iterations ?? []).map((it) => it.gate?.outputTail ?? '')
    if (r.report.stopReason !== 'verified') console.log(r.report.stopReason, r.report.notes.join('\n'), gates.join('\n-----\n'))
    expect(r.report.stopReason).toBe('verified')
    expect(gates).toHaveLength(4)
    expect(r.report.run?.iterations.map((it) => it.gate?.passed)).toEqual([false, false, false, true])
    for (const gate of gates) {
      // The commit's own code, through the editable install, its console script and the version file its build wrote.
      expect(gate).toMatch(/FROM \S+\/src\/answer_pkg\/__init__\.py/)
      expect(gate).not.toContain('VENV-PLANTED-BEFORE')
      expect(gate).toContain('VERSION-WRITTEN')
      expect(gate).not.toContain('VERSION-PLANTED-BEFORE')
    }
    // On the reference's files: nothing installed, the kept virtualenv read-only; the base's code fails, the fix passes.
    for (const i of [0, 3]) {
      expect(gates[i]).not.toContain('Successfully installed')
      expect(gates[i]).toContain('LIB 1.0.0')
      expect(gates[i]).toContain('VENV-REFUSED')
    }
    expect(gates[0]).toContain('CLI -1 1.0')
    expect(gates[3]).toContain('CLI 5 1.0')
    // The build backend changed: the project is installed again, into a writable copy of the kept virtualenv.
    expect(gates[1]).toMatch(/Successfully installed answer[-_]pkg-1\.0/)
    expect(gates[1]).not.toContain('lg-lib-1.0.0')
    expect(gates[1]).toContain('VENV-WRITTEN')
    // A requirement changed: the whole setup runs again.
    expect(gates[2]).toContain('Successfully installed lg-lib-1.1.0')
    expect(gates[2]).toContain('LIB 1.1.0')
  },
  LONG
)
