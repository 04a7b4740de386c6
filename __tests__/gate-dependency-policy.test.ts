import { lockfileRefusals, manifestRefusals, runnerTest, type DependencyPolicy } from '../src/gate/dependencies/dependency-policy.js'
import { dependencyPathKind } from '../src/gate/dependencies/dependency-reference.js'
import { isNpmRegistrySpec, manifestDependencies, parseRequirement } from '../src/gate/dependencies/dependency-specs.js'
import { isLockfile, lockEntries } from '../src/gate/dependencies/lockfile-entries.js'
import { readSettings } from '../src/inputs/read-settings.js'

const HOSTS = ['https://registry.npmjs.org/']
const policy = (mode: DependencyPolicy['mode'], pinned: string[] = []): DependencyPolicy => ({
  mode,
  pinned,
  registryHosts: HOSTS,
  isRunner: runnerTest(['chai', 'my-matchers', 'padding'], ['npm test', "import 'my-matchers'"])
})
const pkg = (devDependencies: Record<string, string>): string => JSON.stringify({ name: 'p', devDependencies }, null, 2)

describe('dependency specs', () => {
  test.each(['1.2.3', '^4.3.0', '~1', '>=1 <2', '1.x || 2', 'latest', '*'])('%s is a registry spec', (spec) => {
    expect(isNpmRegistrySpec(spec)).toBe(true)
  })
  test.each(['file:vendor/chai', 'link:../x', 'npm:evil@1', 'git+https://x/y.git', 'github:a/b', 'a/b', './x.tgz', 'https://x/y.tgz', 'workspace:*', '$chai'])(
    '%s is not',
    (spec) => {
      expect(isNpmRegistrySpec(spec)).toBe(false)
    }
  )
  test('PEP 508: a direct reference or a wheel path is not the index', () => {
    expect(parseRequirement('pytest-cov>=4; python_version > "3.8"')).toEqual({ name: 'pytest-cov', registry: true })
    expect(parseRequirement('noop @ file:///tmp/noop-1.0-py3-none-any.whl')?.registry).toBe(false)
    expect(parseRequirement('Noop_Plugin[x] @ https://example.com/n.whl')).toEqual({ name: 'noop-plugin', registry: false })
  })
  test('pyproject tables, poetry path dependencies included', () => {
    const doc =
      '[project]\nname = "p"\n[project.optional-dependencies]\ndev = ["noop @ file:///tmp/n.whl"]\n[tool.poetry.dependencies]\nlib = { path = "vendor/lib" }\nok = "^1"\n'
    const entries = manifestDependencies('pyproject', doc) ?? []
    expect(entries.map((e) => [e.table, e.name, e.registry])).toEqual([
      ['project.optional-dependencies.dev', 'noop', false],
      ['tool.poetry.dependencies', 'lib', false],
      ['tool.poetry.dependencies', 'ok', true]
    ])
  })
})

describe('manifest changes', () => {
  const base = pkg({ chai: '4.3.10', mocha: '10.2.0', padding: '1.0.0' })
  test('refuse: any change, naming the package and how to allow it', () => {
    const [r] = manifestRefusals(
      'package-json',
      { before: base, after: pkg({ chai: 'file:vendor/chai', mocha: '10.2.0', padding: '1.0.0' }) },
      policy('refuse')
    )
    expect(r).toContain('devDependencies.chai changed from 4.3.10 to file:vendor/chai')
    expect(r).toContain('dependency-changes: registry')
  })
  test('refuse: reordering or reformatting is no change', () => {
    expect(manifestRefusals('package-json', { before: base, after: JSON.stringify(JSON.parse(base)) }, policy('refuse'))).toEqual([])
  })
  test('registry: a registry version of a package the gate does not load is allowed; added and removed too', () => {
    expect(
      manifestRefusals('package-json', { before: base, after: pkg({ chai: '4.3.10', mocha: '10.2.0', padding: '1.1.0', other: '^2' }) }, policy('registry'))
    ).toEqual([])
    expect(manifestRefusals('package-json', { before: base, after: pkg({ chai: '4.3.10', mocha: '10.2.0' }) }, policy('registry'))).toEqual([])
  })
  test('registry: a path, tarball or alias is refused, and so is any change to the runner or what the tests name', () => {
    const p = policy('registry')
    expect(manifestRefusals('package-json', { before: base, after: pkg({ chai: '4.3.10', mocha: '10.2.0', padding: 'npm:evil@1' }) }, p)[0]).toContain(
      'not a registry version'
    )
    expect(manifestRefusals('package-json', { before: base, after: pkg({ chai: '4.3.10', mocha: '10.3.0', padding: '1.0.0' }) }, p)[0]).toContain(
      'mocha is loaded by the gate itself'
    )
    expect(manifestRefusals('package-json', { before: base, after: pkg({ chai: '4.4.0', mocha: '10.2.0', padding: '1.0.0' }) }, p)[0]).toContain(
      'chai is loaded by the gate itself'
    )
    expect(
      manifestRefusals('package-json', { before: base, after: pkg({ chai: '4.3.10', mocha: '10.2.0', padding: '1.0.0', 'my-matchers': '1' }) }, p)[0]
    ).toContain('my-matchers')
    expect(manifestRefusals('package-json', { before: base, after: pkg({ chai: '4.3.10', padding: '1.0.0' }) }, p)[0]).toContain('mocha removed')
  })
  test("loopgate's own bump is the agent's to keep, in either mode", () => {
    const bumped = pkg({ chai: '4.3.10', mocha: '10.2.0', padding: '1.1.0' })
    const [r] = manifestRefusals('package-json', { before: bumped, after: base }, policy('registry', ['padding']))
    expect(r).toContain("padding is loopgate's own bump")
  })
})

describe('lockfile changes', () => {
  const lock = (chai: Record<string, unknown>): string =>
    JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'p' }, 'node_modules/chai': { version: '4.3.10', ...chai } } })
  const registryChai = { resolved: 'https://registry.npmjs.org/chai/-/chai-4.3.10.tgz', integrity: 'sha512-abc' }
  test('refuse: a changed entry is named', () => {
    const [r] = lockfileRefusals(
      'package-lock.json',
      { before: lock(registryChai), after: lock({ resolved: 'file:vendor/chai-4.3.10.tgz', integrity: 'sha512-x' }) },
      policy('refuse')
    )
    expect(r).toContain('node_modules/chai changed')
  })
  test('registry: entries from elsewhere than the registry, or without integrity, are refused', () => {
    const p = policy('registry')
    const padding = (entry: Record<string, unknown>): string =>
      JSON.stringify({ lockfileVersion: 3, packages: { '': {}, 'node_modules/padding': { version: '1.1.0', ...entry } } })
    expect(
      lockfileRefusals(
        'package-lock.json',
        { before: '{"packages":{}}', after: padding({ resolved: 'https://registry.npmjs.org/padding/-/padding-1.1.0.tgz', integrity: 'sha512-q' }) },
        p
      )
    ).toEqual([])
    expect(
      lockfileRefusals('package-lock.json', { before: '{"packages":{}}', after: padding({ resolved: 'file:vendor/p.tgz', integrity: 'sha512-q' }) }, p)[0]
    ).toContain('not a registry version')
    expect(
      lockfileRefusals(
        'package-lock.json',
        { before: '{"packages":{}}', after: padding({ resolved: 'https://registry.npmjs.org/padding/-/padding-1.1.0.tgz' }) },
        p
      )[0]
    ).toContain('no integrity')
    expect(lockfileRefusals('package-lock.json', { before: '{"packages":{}}', after: padding({ link: true, resolved: 'vendor/p' }) }, p)[0]).toContain('a link')
    expect(
      lockfileRefusals('package-lock.json', { before: '{"packages":{}}', after: JSON.stringify({ packages: { 'vendor/chai': { version: '1' } } }) }, p)[0]
    ).toContain('a folder of the tree')
  })
  test('requirements files: options, paths and URLs are not the index', () => {
    const entries = lockEntries('requirements-dev.txt', 'pytest==8.0.0\n-e .\n./vendor/noop-1.0-py3-none-any.whl\n--extra-index-url https://x\n', HOSTS) ?? []
    expect(entries.map((e) => e.registry)).toEqual([true, false, false, false])
  })
  test('a lockfile loopgate does not read entry by entry is refused whatever the mode', () => {
    expect(lockfileRefusals('bun.lock', { before: 'a', after: 'b' }, policy('registry'))[0]).toContain('refused')
    expect(lockfileRefusals('bun.lock', { before: 'a', after: 'a' }, policy('registry'))).toEqual([])
  })
})

describe('which paths are dependency paths', () => {
  test.each([
    ['src/node_modules/chai/index.js', 'folder'],
    ['test/node_modules/x/package.json', 'folder'],
    ['lib/python3.11/site-packages/x.py', 'folder'],
    ['.venv/bin/python', 'folder'],
    ['package-lock.json', 'lockfile'],
    ['web/yarn.lock', 'lockfile'],
    ['requirements-dev.txt', 'lockfile'],
    ['uv.lock', 'lockfile'],
    ['package.json', 'package-json'],
    ['py/pyproject.toml', 'pyproject'],
    ['src/app.js', null]
  ])('%s: %s', (file, kind) => {
    expect(dependencyPathKind(file)).toBe(kind)
    if (kind === 'lockfile') expect(isLockfile(file)).toBe(true)
  })
})

test('dependency-changes: refuse by default, registry accepted, anything else refused naming the input', () => {
  const read = (extra: Record<string, string>) => (name: string) => ({ prompt: 'x', 'gate-command': 'npm test', ...extra })[name] ?? ''
  expect(readSettings(read({})).dependencyChanges).toBe('refuse')
  expect(readSettings(read({ 'dependency-changes': 'registry' })).dependencyChanges).toBe('registry')
  expect(() => readSettings(read({ 'dependency-changes': 'anything' }))).toThrow(/dependency-changes/)
})
