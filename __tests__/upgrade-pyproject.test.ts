import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PEP440 } from '../src/ecosystems/pip/pep440.js'
import { PyprojectPackageManager } from '../src/ecosystems/pyproject/manager.js'
import { admits, parseRequirement, widenSpecifier } from '../src/ecosystems/pyproject/specifiers.js'
import { tomlStrings } from '../src/ecosystems/pyproject/toml-strings.js'
import type { UpgradeCandidate } from '../src/ecosystems/types.js'
import { packageManagerEnv } from '../src/upgrade/environment.js'
import { upgradeCandidates } from '../src/upgrade/select.js'
import { hasTool, needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { startPackageIndex, type PackageIndex } from './helpers/pypi-index.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { upgradeLoop } from './helpers/upgrade-loop.js'

const LONG = 180_000
const manager = new PyprojectPackageManager()

describe('PEP 440 specifiers', () => {
  it('admits versions as pip does: ranges, compatible releases, wildcards, exclusions', () => {
    const ok = (spec: string, v: string): boolean => admits(parseRequirement(`x ${spec}`)!.clauses!, v)
    expect(ok('>=1.0,<2', '1.9.9')).toBe(true)
    expect(ok('>=1.0,<2', '2.0.0')).toBe(false)
    expect(ok('~=1.4', '1.9')).toBe(true)
    expect(ok('~=1.4', '2.0')).toBe(false)
    expect(ok('~=1.4.2', '1.5.0')).toBe(false)
    expect(ok('==1.*', '1.7.3')).toBe(true)
    expect(ok('!=1.5', '1.5.0')).toBe(false)
    expect(ok('==1.0', '1.0.0')).toBe(true)
    expect(parseRequirement('Foo_Bar [x] (>=1 , <2) ; python_version < "3.9"')).toMatchObject({ key: 'foo-bar', specifier: '>=1 , <2' })
    expect(parseRequirement('foo @ https://example.com/foo.whl')?.clauses).toBeNull()
  })

  it("widens only the clause that excludes the new version, in the user's style; leaves an admitting range and refuses an exclusion", () => {
    expect(widenSpecifier('==1.0.0', '2.0.0')).toBe('==2.0.0')
    expect(widenSpecifier('>=1.0, <2', '2.1.0')).toBe('>=1.0, <3')
    expect(widenSpecifier('>=1.0,<2.0', '2.1.0')).toBe('>=1.0,<3.0')
    expect(widenSpecifier('<1.5', '1.7.0')).toBe('<1.8')
    expect(widenSpecifier('<0.21', '0.28.2')).toBe('<0.29')
    expect(widenSpecifier('~=1.4', '2.1.0')).toBe('~=2.1')
    expect(widenSpecifier('==1.*', '2.0.1')).toBe('==2.*')
    expect(widenSpecifier('<=1.4', '2.0')).toBe('<=2.0')
    expect(widenSpecifier('>=1', '2.0')).toBe('>=1')
    expect(widenSpecifier('>=1,!=2.0', '2.0')).toBeNull()
  })

  it('counts a 0.x minor and a 0.0.x patch as majors, as the caret and compatible-release ranges do', () => {
    expect(PEP440.kind('0.20.0', '0.28.2')).toBe('major')
    expect(PEP440.kind('0.0.3', '0.0.4')).toBe('major')
    expect(PEP440.kind('0.20.0', '0.20.1')).toBe('patch')
    expect(PEP440.kind('1.2.0', '1.3.0')).toBe('minor')
    const outdated = [{ name: 'lg-zero', current: '0.20.0', wanted: '0.20.0', latest: '0.28.2', type: 'dependencies' as const }]
    expect(upgradeCandidates(outdated, { ignore: [], allowMajor: false, versions: PEP440 }).skipped).toEqual([
      'lg-zero 0.20.0 → 0.28.2: a major upgrade, held (allow-major is false)'
    ])
  })

  it('finds the TOML strings outside comments, escapes decoded', () => {
    const text = `# "not" this\nx = "a\\"b" # 'nor' this\ny = 'c'\nz = """d\n"e"""\n`
    expect(tomlStrings(text).map((t) => t.value)).toEqual(['a"b', 'c', 'd\n"e'])
  })
})

const PYPROJECT = [
  '[build-system]',
  'requires = ["hatchling"]',
  'build-backend = "hatchling.build"',
  '',
  '[project]',
  'name = "app"',
  'version = "1.0"',
  'dependencies = [',
  "  'lg-mathlib >=1.0, <2',  # the math",
  '  "lg_other==1.0.0 ; python_version >= \\"3\\"",',
  '  "lg-free>=1",',
  ']',
  '',
  '[project.optional-dependencies]',
  'fast = ["lg-mathlib[speed]>=1.0,<2"]',
  '',
  '[dependency-groups]',
  'test = [{ include-group = "lint" }, "lg-other==1.0.0"]',
  'lint = []',
  '',
  '[tool.notes]',
  'seen = "lg-mathlib >=1.0, <2 in a comment-like string is not a requirement table"',
  ''
].join('\r\n')

describe('the pyproject bump', () => {
  const candidate = (name: string, from: string, to: string): UpgradeCandidate => ({ name, from, to, kind: 'major', type: 'dependencies' })

  it('rewrites every declaration that excludes the new version in place, every other byte unchanged', async () => {
    const ws = tempDir('loopgate-pyproject-ws-')
    writeFileSync(path.join(ws, 'pyproject.toml'), PYPROJECT.replace(/\[tool\.notes\][^]*$/, ''))
    expect(manager.detect(ws)).toBe(true)
    expect(await manager.bump({ workspace: ws, candidate: candidate('lg-mathlib', '1.9.0', '2.0.0') })).toEqual({ ok: true })
    expect(readFileSync(path.join(ws, 'pyproject.toml'), 'utf8')).toBe(
      PYPROJECT.replace(/\[tool\.notes\][^]*$/, '')
        .replace("'lg-mathlib >=1.0, <2'", "'lg-mathlib >=1.0, <3'")
        .replace('"lg-mathlib[speed]>=1.0,<2"', '"lg-mathlib[speed]>=1.0,<3"')
    )
    expect(await manager.bump({ workspace: ws, candidate: candidate('lg_other', '1.0.0', '1.1.0') })).toEqual({ ok: true })
    expect(readFileSync(path.join(ws, 'pyproject.toml'), 'utf8')).toContain('"lg_other==1.1.0 ; python_version >= \\"3\\"",')
    expect(readFileSync(path.join(ws, 'pyproject.toml'), 'utf8')).toContain('"lg-other==1.1.0"]')
    // A range that admits the new version is left alone.
    expect(await manager.bump({ workspace: ws, candidate: candidate('lg-free', '1.0', '9.0') })).toMatchObject({ ok: false })
  })

  it('refuses a rewrite that would change another table (the same text outside the requirement lists)', async () => {
    const ws = tempDir('loopgate-pyproject-ws-')
    writeFileSync(
      path.join(ws, 'pyproject.toml'),
      PYPROJECT.replace('seen = "lg-mathlib >=1.0, <2 in a comment-like string is not a requirement table"', "seen = 'lg-mathlib >=1.0, <2'")
    )
    const before = readFileSync(path.join(ws, 'pyproject.toml'), 'utf8')
    expect(await manager.bump({ workspace: ws, candidate: candidate('lg-mathlib', '1.9.0', '2.0.0') })).toMatchObject({
      ok: false,
      message: expect.stringContaining('cannot be rewritten in place')
    })
    expect(readFileSync(path.join(ws, 'pyproject.toml'), 'utf8')).toBe(before)
  })

  it('is no pyproject project without a requirement that has a version specifier', () => {
    const ws = tempDir('loopgate-pyproject-ws-')
    writeFileSync(path.join(ws, 'pyproject.toml'), '[project]\nname = "a"\ndependencies = ["attrs", "x @ https://example.com/x.whl"]\n')
    expect(manager.detect(ws)).toBe(false)
  })
})

let index: PackageIndex

beforeAll(async () => {
  if (!hasTool('python3')) return
  index = await startPackageIndex()
  const v1 = { 'lg_mathlib/__init__.py': 'def add(a, b):\n    return a + b\n' }
  index.publish('lg-mathlib', '1.0.0', v1)
  index.publish('lg-mathlib', '1.4.0', v1)
  index.publish(
    'lg-mathlib',
    '2.0.0',
    { 'lg_mathlib/__init__.py': 'def plus(a, b):\n    return a + b\n' },
    { Changelog: 'https://example.com/lg-mathlib/changes' }
  )
  index.publish('lg-other', '1.0.0', { 'lg_other/__init__.py': '' })
  index.publish('lg-other', '1.1.0', { 'lg_other/__init__.py': '' })
  index.publish('lg-free', '3.0.0', { 'lg_free/__init__.py': '' })
}, LONG)

afterAll(async () => {
  await index?.stop()
})

needs('python3', 'pip').describe('pyproject outdated against a local index', () => {
  it(
    "lists an old pin and a range the newest version is outside of, from the index pip's own config file names (no PIP_INDEX_URL)",
    async () => {
      const ws = tempDir('loopgate-pyproject-ws-')
      writeFileSync(path.join(ws, 'pyproject.toml'), PYPROJECT.replace(/\[tool\.notes\][^]*$/, '') + '[dependency-groups.x]\n')
      const conf = path.join(tempDir('loopgate-pipconf-'), 'pip.conf')
      writeFileSync(conf, `[global]\nindex-url = ${index.url}\n`)
      const env = packageManagerEnv({ ...process.env, PIP_INDEX_URL: '', PIP_CONFIG_FILE: conf })
      delete env.PIP_INDEX_URL
      const { dependencies, notes } = await manager.outdated(ws, env)
      expect(dependencies).toEqual([
        { name: 'lg-mathlib', current: '1.4.0', wanted: '1.4.0', latest: '2.0.0', type: 'dependencies' },
        { name: 'lg_other', current: '1.0.0', wanted: '1.0.0', latest: '1.1.0', type: 'dependencies' }
      ])
      expect(notes).toEqual([])
    },
    LONG
  )
})

describe('task: dependency-upgrade (pyproject.toml with pip, against a local package index)', () => {
  needs('python3', 'pip', 'venv', 'pytest').it(
    'widens the range in pyproject.toml as its own commit, the agent fixes the call site, verified',
    async () => {
      const ws = makeRepo({
        'pyproject.toml': '[project]\nname = "calc"\nversion = "1.0"\ndependencies = ["lg-mathlib>=1.0,<2"]\n\n[dependency-groups]\ntest = ["pytest"]\n',
        '.gitignore': '.venv/\n__pycache__/\n',
        'calc.py': 'from lg_mathlib import add\n\n\ndef total(xs):\n    result = 0\n    for x in xs:\n        result = add(result, x)\n    return result\n',
        'tests/test_calc.py': 'from calc import total\n\n\ndef test_total_adds_the_numbers():\n    assert total([1, 2, 3]) == 6\n'
      })
      const start = sh(ws, ['rev-parse', 'HEAD']).trim()
      const shared = sharedTempDir()
      const fix = `echo call >> ${shared}/calls; cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt.txt; sed -i 's/\\badd\\b/plus/g' calc.py`
      const deps = upgradeLoop(
        ws,
        { ...process.env, ...index.env },
        {
          'loop-id': 'pyproj',
          // The project's own requirements, read from pyproject.toml (pip before 25.1 has no --group).
          'gate-setup': `${TEST_PYTHON} -m venv --system-site-packages .venv && .venv/bin/python -m pip install -q $(.venv/bin/python -c "import tomllib; print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))")`,
          'gate-command': '.venv/bin/python -m pytest -q -p no:cacheprovider',
          'agent-env': 'PIP_INDEX_URL'
        }
      )
      const { report } = await deps.run({ 'allow-major': 'true', 'agent-command': fix })
      expect(report.stopReason).toBe('verified')
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)
      const commits = sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
        .trim()
        .split('\n')
      expect(sh(ws, ['log', '--format=%s', '-1', commits[0]]).trim()).toBe('chore(deps): bump lg-mathlib from 1.4.0 to 2.0.0')
      expect(sh(ws, ['diff', '--name-only', `${commits[0]}^`, commits[0]]).trim()).toBe('pyproject.toml')
      expect(sh(ws, ['show', `${commits[0]}:pyproject.toml`])).toContain('dependencies = ["lg-mathlib>=1.0,<3"]')
      expect(readFileSync(path.join(ws, 'calc.py'), 'utf8')).toContain('from lg_mathlib import plus')
      const prompt = readFileSync(path.join(shared, 'prompt.txt'), 'utf8')
      expect(prompt).toContain('Dependency upgrade: lg-mathlib from 1.4.0 to 2.0.0 (a major upgrade, in dependencies)')
      expect(prompt).toMatch(/cannot import name 'add' from 'lg_mathlib'/)
      expect(prompt).toContain('- Changelog: https://example.com/lg-mathlib/changes')
      rmSync(shared, { recursive: true, force: true })
    },
    LONG
  )
})
