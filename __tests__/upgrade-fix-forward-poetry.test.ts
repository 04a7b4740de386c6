import { execFileSync } from 'node:child_process'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { hasTool, needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { startPackageIndex, type PackageIndex } from './helpers/pypi-index.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { bumpAfter, promptOf, scriptedAgent } from './helpers/scripted-agent.js'

const LONG = 300_000
const POETRY_ENV = { POETRY_VIRTUALENVS_CREATE: 'false', PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring' }

let index: PackageIndex

beforeAll(async () => {
  if (!hasTool('python3')) return
  index = await startPackageIndex()
  index.publish('lg-mathlib', '1.0.0', { 'lg_mathlib/__init__.py': 'def add(a, b):\n    return a + b\n' })
  index.publish('lg-mathlib', '2.0.0', { 'lg_mathlib/__init__.py': 'def plus(a, b):\n    return a + b\n' })
  index.publish('lg-helper', '1.0.0', { 'lg_helper/__init__.py': 'HELP = 1\n' })
}, LONG)

afterAll(async () => {
  await index?.stop()
})

const pyproject = (deps: string[]): string =>
  [
    '[tool.poetry]',
    'name = "calc"',
    'version = "1.0.0"',
    'description = ""',
    'authors = []',
    'packages = [{ include = "calc.py" }]',
    '',
    '[tool.poetry.dependencies]',
    'python = "^3.8"',
    ...deps,
    '',
    '[[tool.poetry.source]]',
    `name = "${index.sourceName}"`,
    `url = "${index.url}"`,
    'default = true',
    '',
    '[build-system]',
    'requires = ["poetry-core"]',
    'build-backend = "poetry.core.masonry.api"',
    ''
  ].join('\n')

const lock = (dir: string, args: string[]): void =>
  void execFileSync('poetry', ['lock', '--no-interaction', ...args], { cwd: dir, env: { ...process.env, ...POETRY_ENV }, stdio: 'pipe' })

/**
 * A Poetry project on lg-mathlib ^1.0, locked by the real Poetry; `shared` holds the base's
 * poetry.lock and the pyproject.toml and poetry.lock Poetry writes for ^2.0 with lg-helper beside it.
 */
function project(): { ws: string; start: string; shared: string } {
  const dir = tempDir('loopgate-poetry-lock-')
  writeFileSync(path.join(dir, 'pyproject.toml'), pyproject(['lg-mathlib = "^1.0"  # the math']))
  lock(dir, [])
  const ws = makeRepo({
    'pyproject.toml': readFileSync(path.join(dir, 'pyproject.toml'), 'utf8'),
    'poetry.lock': readFileSync(path.join(dir, 'poetry.lock'), 'utf8'),
    '.gitignore': '.venv/\n__pycache__/\n',
    'calc.py': 'from lg_mathlib import add\n\n\ndef total(xs):\n    result = 0\n    for x in xs:\n        result = add(result, x)\n    return result\n',
    'tests/test_calc.py': 'from calc import total\n\n\ndef test_total_adds_the_numbers():\n    assert total([1, 2, 3]) == 6\n'
  })
  const shared = sharedTempDir()
  cpSync(path.join(dir, 'poetry.lock'), path.join(shared, 'old-poetry.lock'))
  writeFileSync(path.join(dir, 'pyproject.toml'), pyproject(['lg-mathlib = "^2.0"  # the math', 'lg-helper = "1.0.0"']))
  lock(dir, ['--no-update'])
  for (const f of ['pyproject.toml', 'poetry.lock']) cpSync(path.join(dir, f), path.join(shared, `with-helper-${f}`))
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim(), shared }
}

const FIX = "sed -i 's/\\badd\\b/plus/g' calc.py"
const DOWNGRADE = `sed -i 's/lg-mathlib = "^2.0"/lg-mathlib = "^1.0"/' pyproject.toml`
const FIXED = /lg-mathlib is loopgate's own bump to 2\.0\.0 in this run and is fixed: fix the code forward/

function run(ws: string, inputs: Record<string, string>) {
  const poetryEnv = 'POETRY_VIRTUALENVS_IN_PROJECT=true PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring'
  return upgradeLoop(
    ws,
    { ...process.env },
    {
      'loop-id': 'poetrydeps',
      'gate-setup': `${TEST_PYTHON} -m venv --system-site-packages .venv && ${poetryEnv} poetry install --no-root --no-interaction --no-ansi`,
      'gate-command': '.venv/bin/python -m pytest -q -p no:cacheprovider',
      // The project's own package source: the gate reaches it only when named.
      'gate-allowed-hosts': new URL(index.url).host,
      'allow-major': 'true',
      'max-iterations': '3'
    }
  ).run(inputs)
}

needs('python3', 'pip', 'venv', 'pytest', 'poetry').describe('task: dependency-upgrade (Poetry): the bump is loopgate’s, the agent fixes forward', () => {
  it(
    'a downgrade in pyproject.toml is rejected and undone, the next prompt says why; the code fix is verified',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': scriptedAgent(shared, [DOWNGRADE, FIX]) })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, false])
      expect(promptOf(shared, 2)).toMatch(FIXED)
      expect(promptOf(shared, 2)).toContain('pyproject.toml')
      expect(sh(ws, ['show', 'HEAD:pyproject.toml'])).toContain('lg-mathlib = "^2.0"  # the math\n')
      expect(sh(ws, ['diff', '--name-only', bumpAfter(ws, start), 'HEAD']).trim()).toBe('calc.py')
    },
    LONG
  )

  it(
    'poetry.lock alone put back to the old version: rejected, undone, twice is protected-tampering',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': scriptedAgent(shared, ['cp @SHARED/old-poetry.lock poetry.lock']) })
      expect(report.stopReason).toBe('protected-tampering')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, true])
      expect(promptOf(shared, 2)).toMatch(FIXED)
      expect(report.run?.iterations[0].rejected.join('\n')).toMatch(/poetry\.lock \(.*package\/lg-mathlib changed/)
      expect(sh(ws, ['diff', '--name-only', bumpAfter(ws, start), 'HEAD']).trim()).toBe('')
    },
    LONG
  )

  it(
    "under dependency-changes: registry another dependency from the index may come with the fix (the lock's content hash moves): verified, the bump untouched",
    async () => {
      const { ws, start, shared } = project()
      const addHelper = `cp @SHARED/with-helper-pyproject.toml pyproject.toml; cp @SHARED/with-helper-poetry.lock poetry.lock; ${FIX}`
      const { report } = await run(ws, { 'dependency-changes': 'registry', 'agent-command': scriptedAgent(shared, [addHelper]) })
      if (report.stopReason !== 'verified') console.log(JSON.stringify(report.run?.iterations, null, 1).slice(0, 4000))
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([false])
      expect(sh(ws, ['show', 'HEAD:pyproject.toml'])).toContain('lg-helper = "1.0.0"')
      expect(sh(ws, ['diff', bumpAfter(ws, start), 'HEAD', '--', 'poetry.lock'])).not.toMatch(/^[-+](name|version) = .*(lg-mathlib|2\.0\.0)/m)
    },
    LONG
  )
})
