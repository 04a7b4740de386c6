import { existsSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { uvLockEntries, uvLockedVersions } from '../src/ecosystems/uv/lockfile.js'
import { UvPackageManager, uvIndexEnv } from '../src/ecosystems/uv/manager.js'
import { parseToml } from '../src/ecosystems/pyproject/toml-strings.js'
import { lockfileRefusals, type DependencyPolicy } from '../src/gate/dependencies/dependency-policy.js'
import { prepareUpgrade, type UpgradeSettings } from '../src/upgrade/prepare.js'
import { TEST_PYTHON } from './helpers/needs-tools.js'
import { makeRepo, sh, sharedTempDir } from './helpers/repo.js'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { GitRepository } from '../src/git/repository.js'

/** A uv.lock as uv writes it: the project itself, a registry package with its sdist and wheel, a git one. */
const LOCK = `version = 1
requires-python = ">=3.9"

[[package]]
name = "calc"
version = "1.0"
source = { editable = "." }
dependencies = [
    { name = "lg-mathlib" },
    { name = "lg-vendored" },
]

[package.metadata]
requires-dist = [
    { name = "lg-mathlib", specifier = ">=1.0,<2" },
    { name = "lg-vendored", git = "https://example.com/lg-vendored.git" },
]

[[package]]
name = "lg-mathlib"
version = "1.4.0"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "https://files.pythonhosted.org/packages/aa/lg_mathlib-1.4.0.tar.gz", hash = "sha256:1ef671ca907a336fd03299c7050f6fad0ea27a8ed021cdf2498282989bcf9f4c", size = 2048 }
wheels = [
    { url = "https://files.pythonhosted.org/packages/bb/lg_mathlib-1.4.0-py3-none-any.whl", hash = "sha256:3882e874747ab0cae1c07f7b488a7906abda4283e6de7064684350c723dcb727", size = 959 },
]

[[package]]
name = "lg-vendored"
version = "0.1.0"
source = { git = "https://example.com/lg-vendored.git#0123456789abcdef0123456789abcdef01234567" }
`

const policy = (mode: 'refuse' | 'registry', pinned: string[] = []): DependencyPolicy => ({
  mode,
  isRunner: (n) => /^pytest/.test(n),
  pinned,
  registryHosts: []
})

describe('uv.lock entry by entry', () => {
  it('reads the project as the root, a registry package with hashes as the registry, a git source as not', () => {
    expect(uvLockEntries(LOCK)!.map((e) => [e.key, e.registry, e.why])).toEqual([
      ['version', true, undefined],
      ['requires-python', true, undefined],
      ['', true, undefined],
      ['package/lg-mathlib', true, undefined],
      ['package/lg-vendored', false, 'a git source']
    ])
    expect(uvLockedVersions(LOCK)).toEqual(
      new Map([
        ['lg-mathlib', '1.4.0'],
        ['lg-vendored', '0.1.0']
      ])
    )
    expect(uvLockEntries(LOCK.replace(/, hash = "sha256:[0-9a-f]+"/g, ''))![3]).toMatchObject({ registry: false, why: 'no file hashes' })
    expect(uvLockEntries('version = [')).toBeNull()
  })

  it('the gate refuses a package moved to a wheel in the tree, a version change when changes are refused, and a change to the bump', () => {
    const local = LOCK.replace(
      /source = \{ registry = "https:\/\/pypi.org\/simple" \}\nsdist = [^\n]*\nwheels = \[\n[^\n]*\n\]/,
      'source = { path = "vendor/lg_mathlib-1.4.0-py3-none-any.whl" }'
    )
    expect(local).not.toBe(LOCK)
    expect(lockfileRefusals('uv.lock', { before: LOCK, after: local }, policy('registry'))).toEqual([
      expect.stringContaining('not a registry version (a path source)')
    ])
    const newer = LOCK.replace('version = "1.4.0"', 'version = "1.5.0"').replaceAll('1.4.0', '1.5.0')
    expect(lockfileRefusals('uv.lock', { before: LOCK, after: newer }, policy('registry'))).toEqual([])
    expect(lockfileRefusals('uv.lock', { before: LOCK, after: newer }, policy('refuse'))).toEqual([expect.stringContaining('dependency changes are refused')])
    expect(lockfileRefusals('uv.lock', { before: LOCK, after: newer }, policy('registry', ['lg-mathlib']))).toEqual([
      expect.stringContaining("loopgate's own bump")
    ])
  })
})

describe('a uv project', () => {
  const PYPROJECT = '[project]\nname = "calc"\nversion = "1.0"\ndependencies = ["lg-mathlib>=1.0,<2"]\n'

  it('is detected by its uv.lock or its [tool.uv] table; the index is the one uv resolves from', () => {
    const uv = new UvPackageManager()
    const ws = makeRepo({ 'pyproject.toml': PYPROJECT, 'uv.lock': LOCK })
    expect(uv.detect(ws)).toBe(true)
    const declared = makeRepo({ 'pyproject.toml': `${PYPROJECT}\n[tool.uv]\npackage = false\n` })
    expect(uv.detect(declared)).toBe(true)
    expect(uv.detect(makeRepo({ 'pyproject.toml': PYPROJECT }))).toBe(false)
    const doc = parseToml(`${PYPROJECT}\n[[tool.uv.index]]\nname = "corp"\nurl = "https://corp.example/simple"\ndefault = true\n`)!
    expect(uvIndexEnv(doc, {})).toMatchObject({ PIP_INDEX_URL: 'https://corp.example/simple' })
    expect(uvIndexEnv(parseToml(PYPROJECT)!, { UV_DEFAULT_INDEX: 'https://mirror.example/simple' })).toMatchObject({
      PIP_INDEX_URL: 'https://mirror.example/simple'
    })
  })

  /** The runner's PATH without any folder that holds a uv binary. */
  const pathWithoutUv = (): string =>
    (process.env.PATH ?? '')
      .split(':')
      .filter((dir) => dir && !existsSync(path.join(dir, 'uv')))
      .join(':')

  it('without a uv binary stops before anything runs, naming uv; pip is never used instead', async () => {
    const ws = makeRepo({ 'pyproject.toml': PYPROJECT, 'uv.lock': LOCK })
    const settings = { task: 'dependency-upgrade', workspace: ws, ignore: [], allowMajor: true, protectedPaths: [] } as unknown as UpgradeSettings
    await expect(
      prepareUpgrade(settings, { repository: GitRepository.plain(settings.workspace), attempts: [], env: { PATH: pathWithoutUv() }, runId: '1-1' })
    ).rejects.toThrow(/it is a uv project \(it has a uv\.lock\), but no uv on PATH \(loopgate never falls back to pip; install uv on the runner\)/)
    expect(sh(ws, ['status', '--porcelain'])).toBe('')
    rmSync(ws, { recursive: true, force: true })
  })

  it('a dependency-upgrade run on it without uv is a config error: no agent call, no bump commit, the lockfile untouched', async () => {
    const ws = makeRepo({
      'pyproject.toml': PYPROJECT,
      'uv.lock': LOCK,
      'tests/test_calc.py': 'def test_one():\n    assert True\n'
    })
    const start = sh(ws, ['rev-parse', 'HEAD']).trim()
    const shared = sharedTempDir()
    const deps = upgradeLoop(
      ws,
      { ...process.env, PATH: pathWithoutUv() },
      { 'loop-id': 'uvdeps', 'gate-command': `${TEST_PYTHON} -m pytest -q -p no:cacheprovider`, 'agent-command': `echo call >> ${shared}/calls` }
    )
    // A config error: the action ends the run `config-error`, before the gate or any agent call.
    await expect(deps.run({ 'allow-major': 'true' })).rejects.toThrow(/no uv on PATH \(loopgate never falls back to pip/)
    expect(existsSync(path.join(shared, 'calls'))).toBe(false)
    expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(start)
    expect(readFileSync(path.join(ws, 'uv.lock'), 'utf8')).toBe(LOCK)
    rmSync(shared, { recursive: true, force: true })
  })
})
