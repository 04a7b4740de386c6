import { protectedPart, restoreManifest } from '../src/gate/manifest-keys.js'
import { ProtectedPaths } from '../src/gate/protected-paths.js'
import { pyprojectProtectedPart, splitTomlTables } from '../src/gate/toml-tables.js'
import { DEFAULT_PROTECTED_PATHS } from '../src/inputs.js'

const PYPROJECT = `[project]
name = "p"
description = """
[tool.pytest.ini_options]
not a header, inside a string
"""
dependencies = ["requests==2.0.0"]

[tool.pytest.ini_options]
addopts = "-q"
testpaths = ["tests"]

[[tool.coverage.report.exclude_also]]
x = 1

[tool.black]
line-length = 100
`

describe('TOML tables', () => {
  test('splits by headers, not inside multi-line strings; arrays of tables count', () => {
    const names = splitTomlTables(PYPROJECT).map((t) => t.name)
    expect(names).toEqual(['', 'project', 'tool.pytest.ini_options', 'tool.coverage.report.exclude_also', 'tool.black'])
  })

  test('the protected part is the pytest and coverage tables only', () => {
    const part = pyprojectProtectedPart(PYPROJECT)
    expect(part).toContain('addopts = "-q"')
    expect(part).toContain('[[tool.coverage.report.exclude_also]]')
    expect(part).not.toContain('requests')
    expect(part).not.toContain('line-length')
    expect(pyprojectProtectedPart(PYPROJECT.replace('requests==2.0.0', 'requests==2.32.0').replace('100', '88'))).toBe(part)
    expect(pyprojectProtectedPart(PYPROJECT.replace('-q"', '-k nothing"'))).not.toBe(part)
  })

  test('dotted pytest keys in [tool] are protected too', () => {
    expect(pyprojectProtectedPart('[tool]\npytest.ini_options = { addopts = "-q" }\nblack = {}\n')).toContain('pytest.ini_options')
  })

  test('restore puts back the base tables and keeps the dependency edit', () => {
    const edited = PYPROJECT.replace('requests==2.0.0', 'requests==2.32.0').replace('addopts = "-q"', 'addopts = "-k nothing"')
    const restored = restoreManifest('pyproject', edited, PYPROJECT) ?? ''
    expect(restored).toContain('requests==2.32.0')
    expect(pyprojectProtectedPart(restored)).toBe(pyprojectProtectedPart(PYPROJECT))
  })
})

describe('package.json', () => {
  const base = JSON.stringify({ name: 'p', scripts: { test: 'jest' }, jest: { testMatch: ['**/*.test.js'] }, dependencies: { a: '1.0.0' } }, null, 2)

  test('scripts and test-runner keys are protected; dependencies are not', () => {
    const deps = JSON.stringify({ ...JSON.parse(base), dependencies: { a: '2.0.0', b: '1.0.0' }, devDependencies: { c: '1' } })
    expect(protectedPart('package-json', deps)).toBe(protectedPart('package-json', base))
    for (const key of ['scripts', 'jest', 'mocha', 'ava', 'c8', 'nyc', 'vitest']) {
      const changed = JSON.stringify({ ...JSON.parse(base), [key]: { x: 1 } })
      expect(protectedPart('package-json', changed)).not.toBe(protectedPart('package-json', base))
    }
  })

  test('restore keeps dependency edits, puts back scripts, removes added runner keys', () => {
    const edited = JSON.stringify({ ...JSON.parse(base), scripts: { test: 'true' }, mocha: { spec: 'none' }, dependencies: { a: '2.0.0' } }, null, 2)
    const restored = JSON.parse(restoreManifest('package-json', edited, base) ?? '{}')
    expect(restored).toEqual({ name: 'p', scripts: { test: 'jest' }, jest: { testMatch: ['**/*.test.js'] }, dependencies: { a: '2.0.0' } })
  })

  test('a package.json that is not JSON is not accepted as unchanged', () => {
    expect(protectedPart('package-json', '{ broken')).not.toBe(protectedPart('package-json', base))
  })
})

describe('protected-paths', () => {
  const paths = new ProtectedPaths(DEFAULT_PROTECTED_PATHS)

  test.each([
    ['tests/unit/a.test.ts', 'file'],
    ['test/run.mjs', 'file'],
    ['__tests__/x.test.ts', 'file'],
    ['spec/a_spec.rb', 'file'],
    ['jest.config.ts', 'file'],
    ['packages/a/vitest.config.mts', 'file'],
    ['tsconfig.build.json', 'file'],
    ['pytest.ini', 'file'],
    ['pkg/sub/conftest.py', 'file'],
    ['setup.cfg', 'file'],
    ['tox.ini', 'file'],
    ['package.json', 'package-json'],
    ['packages/a/package.json', 'package-json'],
    ['pyproject.toml', 'pyproject'],
    ['src/index.ts', null],
    ['node_modules/x/tsconfig.json', null],
    ['README.md', null]
  ])('%s → %s', (file, kind) => {
    expect(paths.kind(file)).toBe(kind)
  })

  test('a newline or comma list with !exclusions', () => {
    const custom = new ProtectedPaths(['tests/**', '!tests/fixtures/**', 'e2e/**'])
    expect(custom.matches('tests/a.js')).toBe(true)
    expect(custom.matches('tests/fixtures/data.json')).toBe(false)
    expect(custom.matches('e2e/x.spec.ts')).toBe(true)
    expect(custom.matches('package.json')).toBe(false)
  })
})
