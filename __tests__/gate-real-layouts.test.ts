/** The gate on real project layouts: correct work verifies, work that lives only in the workspace does not. */
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { attackProject, runAttack } from './helpers/gate-fixture.js'
import { installFromOwnNodeModules } from './helpers/node-packages.js'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { sh, tempDir } from './helpers/repo.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

test('a test that spawns an executable fixture (100755) passes the baseline and verifies a correct change', async () => {
  const files = {
    ...attackProject(),
    'tests/fixtures/run.sh': '#!/bin/sh\necho fixture-ran\n',
    'test/run.mjs': [
      "import { execFileSync, spawnSync } from 'node:child_process'",
      "import { check, done } from 'minicheck'",
      "import { add } from '../src/math.mjs'",
      "check('the fixture runs', execFileSync('tests/fixtures/run.sh', { encoding: 'utf8' }).trim(), 'fixture-ran')",
      "check('math adds two numbers', add(2, 3), 5)",
      'done()',
      ''
    ].join('\n')
  }
  const r = await runAttack({
    isolation: 'auto',
    files,
    prepare: (ws) => {
      chmodSync(path.join(ws, 'tests/fixtures/run.sh'), 0o755)
      sh(ws, ['update-index', '--chmod=+x', 'tests/fixtures/run.sh'])
      sh(ws, ['commit', '-qm', 'the fixture is executable'])
    },
    script: FIX
  })
  const baseline = r.report.notes.find((n) => n.startsWith('protected gate:'))
  expect(baseline).toContain('baseline 2 test(s)')
  expect(r.report.run?.iterations[0].gate?.outputTail).toContain('✓ the fixture runs')
  expect(r.report.stopReason).toBe('verified')
})

/** A pytest package installed in its virtualenv with `pip install -e .`: a `.pth` naming `<workspace>/src`. */
function editableProject(): Record<string, string> {
  return {
    '.gitignore': '.venv/\n__pycache__/\nnode_modules/\n',
    'pyproject.toml': '[project]\nname = "calc"\nversion = "1.0"\n',
    'src/calc.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_calc.py': 'from calc import add\n\n\ndef test_adds_two():\n    assert add(2, 3) == 5\n\n\ndef test_adds_zero():\n    assert add(0, 0) == 0\n',
    'CHANGES.md': '# Changes\n'
  }
}

function editableInstall(ws: string): void {
  execFileSync(TEST_PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', '.venv'], { cwd: ws })
  const lib = path.join(ws, '.venv', 'lib')
  const site = path.join(
    lib,
    readdirSync(lib).find((n) => n.startsWith('python'))!,
    'site-packages'
  )
  writeFileSync(path.join(site, '__editable__.calc-1.0.pth'), `${ws}/src\n`)
}

/** The agent's "fix" only in a gitignored bytecode file that Python prefers while the source's mtime and size match. */
const BYTECODE_ONLY_FIX = `cat > "$LOOPGATE_WORK/fix.py" <<'PY'
import os, py_compile, importlib.util, tempfile
src = os.path.abspath('src/calc.py')
st = os.stat(src)
tmp = os.path.join(tempfile.mkdtemp(), 'calc.py')
open(tmp, 'w').write(open(src).read().replace('a - b', 'a + b'))
os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
py_compile.compile(tmp, cfile=importlib.util.cache_from_source(src), dfile=src, doraise=True)
PY
`

needs('python3', 'pytest').test('an editable install (.pth naming the workspace) cannot make the gate test the workspace instead of the commit', async () => {
  const script = [
    'export LOOPGATE_WORK=$(mktemp -d)',
    'if [ "$LOOPGATE_ITERATION" = 1 ]; then',
    BYTECODE_ONLY_FIX,
    `${TEST_PYTHON} "$LOOPGATE_WORK/fix.py"`,
    'echo "- fixed add" >> CHANGES.md',
    'else',
    "sed -i 's/a - b/a + b/' src/calc.py",
    'fi',
    ''
  ].join('\n')
  const r = await runAttack({
    isolation: 'auto',
    files: editableProject(),
    prepare: editableInstall,
    inputs: { 'gate-command': '.venv/bin/python -m pytest -q tests', 'max-iterations': '3' },
    script
  })
  const [first, second] = r.report.run?.iterations ?? []
  expect(existsSync(path.join(r.ws, 'src/__pycache__'))).toBe(true)
  expect(first.changedFiles).toEqual(['CHANGES.md'])
  expect(first.gate?.passed).toBe(false)
  expect(first.gate?.outputTail).toMatch(/assert -1 == 5/)
  expect(second.gate?.passed).toBe(true)
  expect(r.report.stopReason).toBe('verified')
  expect(r.report.notes.some((n) => n.startsWith('dependency paths that named the workspace') && n.includes('.venv/lib/python3'))).toBe(true)
})

/** A vitest library: a config file (vite bundles it into node_modules/.vite-temp) and tests next to the source. */
function vitestProject(): Record<string, string> {
  return {
    '.gitignore': 'node_modules/\n',
    'package.json': JSON.stringify({ name: 'lib', type: 'module', scripts: { test: 'vitest run' }, devDependencies: { vitest: '*' } }, null, 2) + '\n',
    'vitest.config.ts': "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({ test: { include: ['src/**/*.test.ts'] } })\n",
    'src/math.ts': 'export function add(a: number, b: number): number {\n  return a - b\n}\n',
    'src/math.test.ts':
      "import { expect, test } from 'vitest'\nimport { add } from './math'\n\ntest('adds two numbers', () => {\n  expect(add(2, 3)).toBe(5)\n})\n\ntest('adds zero', () => {\n  expect(add(0, 0)).toBe(0)\n})\n"
  }
}

test('the real vitest, with its config file, verifies a correct change with default settings', async () => {
  const r = await runAttack({
    isolation: 'auto',
    files: vitestProject(),
    prepare: (ws) => {
      installFromOwnNodeModules(ws, ['vitest'])
      // The workflow ran the tests before loopgate: vite left node_modules/.vite-temp and .vite behind.
      spawnSync('node_modules/.bin/vitest', ['run'], { cwd: ws, stdio: 'ignore', env: { ...process.env, CI: 'true' } })
      expect(existsSync(path.join(ws, 'node_modules/.vite-temp'))).toBe(true)
    },
    inputs: { 'gate-command': 'npm test', 'max-iterations': '3' },
    script: 'if [ "$LOOPGATE_ITERATION" = 2 ]; then sed -i "s/a - b/a + b/" src/math.ts; else echo "// $LOOPGATE_ITERATION" >> src/math.ts; fi\n'
  })
  const [first, second] = r.report.run?.iterations ?? []
  expect(first.gate?.outputTail).not.toContain('EACCES')
  expect(first.gate?.testsRun).toBe(2)
  expect(first.gate?.passed).toBe(false)
  expect(second.gate?.passed).toBe(true)
  expect(r.report.stopReason).toBe('verified')
}, 120_000)

/**
 * A runner whose npm cache (in its own HOME, closed to other users like /root) holds the one
 * package a project's lockfile names, as after `npm ci` in an earlier step.
 */
function runnerWithNpmCache(): { home: string; files: Record<string, string> } {
  const work = tempDir('loopgate-npm-')
  const pkg = path.join(work, 'lg-mini')
  mkdirSync(pkg)
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'lg-mini', version: '1.0.0', main: 'index.js' }))
  writeFileSync(path.join(pkg, 'index.js'), 'module.exports = { answer: 42 }\n')
  execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: pkg, stdio: 'pipe' })
  const tarball = path.join(work, 'lg-mini-1.0.0.tgz')
  const home = path.join(work, 'runner-home')
  mkdirSync(home, { mode: 0o700 })
  execFileSync('npm', ['cache', 'add', tarball, '--cache', path.join(home, '.npm')], { stdio: 'pipe' })
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`
  const manifest = { name: 'app', version: '1.0.0', type: 'module', dependencies: { 'lg-mini': '1.0.0' } }
  const lock = {
    name: 'app',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'app', version: '1.0.0', dependencies: { 'lg-mini': '1.0.0' } },
      'node_modules/lg-mini': { version: '1.0.0', resolved: 'https://registry.npmjs.org/lg-mini/-/lg-mini-1.0.0.tgz', integrity }
    }
  }
  const files = {
    '.gitignore': 'node_modules/\n',
    'package.json': JSON.stringify(manifest, null, 2) + '\n',
    'package-lock.json': JSON.stringify(lock, null, 2) + '\n',
    'src/answer.mjs': "import mini from 'lg-mini'\n\nexport const answer = () => mini.answer + 1\n",
    'test/run.mjs': [
      "import { answer } from '../src/answer.mjs'",
      'const ok = answer() === 42',
      "console.log((ok ? '✓' : '✕') + ' the answer comes from lg-mini')",
      'process.exit(ok ? 0 : 1)',
      ''
    ].join('\n')
  }
  return { home, files }
}

test("gate-setup `npm ci --offline` installs from the runner's npm cache, as the gate user", async () => {
  const runner = runnerWithNpmCache()
  const r = await runAttack({
    isolation: 'auto',
    files: runner.files,
    env: { HOME: runner.home },
    inputs: { 'gate-setup': 'npm ci --offline --no-audit --no-fund', 'gate-command': 'node test/run.mjs' },
    script: "sed -i 's/ + 1$//' src/answer.mjs\n"
  })
  expect(r.report.notes.find((n) => n.startsWith('protected gate:'))).toContain('baseline 1 test(s)')
  expect(r.report.notes).toContain("gate-setup reads the runner's package caches (npm) read-only, in a fresh HOME each gate run")
  expect(r.report.run?.iterations[0].gate?.outputTail).not.toContain('ENOTCACHED')
  expect(r.report.stopReason).toBe('verified')
})

test("gate-setup that writes npm's cache index gets a cache of its own, never the runner's", async () => {
  const runner = runnerWithNpmCache()
  const index = path.join(runner.home, '.npm', '_cacache', 'index-v5')
  const before = execFileSync('find', [index, '-type', 'f', '-exec', 'sha256sum', '{}', '+'], { encoding: 'utf8' })
  const r = await runAttack({
    isolation: 'auto',
    files: runner.files,
    env: { HOME: runner.home, npm_config_cache: path.join(runner.home, '.npm') },
    inputs: {
      'agent-env': 'npm_config_cache',
      'gate-setup': 'npm cache verify && npm ci --offline --no-audit --no-fund',
      'gate-command': 'node test/run.mjs'
    },
    script: "sed -i 's/ + 1$//' src/answer.mjs\n"
  })
  expect(r.report.run?.iterations[0].gate?.outputTail ?? r.report.notes.join('\n')).not.toContain('EACCES')
  expect(r.report.stopReason).toBe('verified')
  expect(execFileSync('find', [index, '-type', 'f', '-exec', 'sha256sum', '{}', '+'], { encoding: 'utf8' })).toBe(before)
})

test('a gate program on PATH that only the runner can reach stops the run before any spend, naming where it is', async () => {
  const runnerHome = tempDir('loopgate-toolchain-')
  chmodSync(runnerHome, 0o700)
  const shims = path.join(runnerHome, '.pyenv', 'shims')
  mkdirSync(shims, { recursive: true })
  writeFileSync(path.join(shims, 'runtests'), '#!/bin/sh\necho "✓ all"\n', { mode: 0o755 })
  const r = await runAttack({
    isolation: 'auto',
    env: { PATH: `${shims}:${process.env.PATH}` },
    inputs: { 'gate-command': 'runtests', 'max-iterations': '1' },
    script: FIX
  })
  // Preflight finds it before the gate opens: the program is there, only not for the gate's user.
  expect(r.report.stopReason).toBe('gate-broken')
  expect(r.report.run).toBeNull()
  expect(r.report.notes.join('\n')).toMatch(/its program `runtests` is installed only where other users cannot reach it \(.*\.pyenv\/shims.*\)/)
})

needs('python3').test('an editable install into a virtualenv outside the workspace, on PATH, is refused', async () => {
  const outside = tempDir('loopgate-venv-')
  chmodSync(outside, 0o755)
  const venv = path.join(outside, 'venv')
  const r = await runAttack({
    isolation: 'auto',
    files: editableProject(),
    prepare: (ws) => {
      execFileSync(TEST_PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', venv])
      const lib = path.join(venv, 'lib')
      const site = path.join(
        lib,
        readdirSync(lib).find((n) => n.startsWith('python'))!,
        'site-packages'
      )
      writeFileSync(path.join(site, '__editable__.calc-1.0.pth'), `${ws}/src\n`)
    },
    env: { PATH: `${venv}/bin:${process.env.PATH}` },
    inputs: { 'gate-command': 'python -m pytest -q tests', 'max-iterations': '1' },
    script: `export LOOPGATE_WORK=$(mktemp -d)\n${BYTECODE_ONLY_FIX}\n${TEST_PYTHON} "$LOOPGATE_WORK/fix.py"\necho "- fixed add" >> CHANGES.md\n`
  })
  const gate = r.report.run?.iterations[0].gate
  expect(gate?.passed).toBe(false)
  expect(gate?.reason).toContain("refused: a virtualenv on the gate's PATH names the workspace")
  expect(r.report.stopReason).not.toBe('verified')
})
