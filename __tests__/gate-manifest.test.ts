import fc from 'fast-check'
import picomatch from 'picomatch'
import { parse as parseToml } from 'smol-toml'
import {
  hasDuplicateJsonKey,
  manifestChange,
  manifestKind as manifestKindOf,
  MANIFEST_ALLOWED_KEYS,
  protectedPart,
  restoreManifest
} from '../src/gate/dependencies/manifest-keys.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { gateCommandPatterns, packageScriptPatterns } from '../src/gate/protection/gate-command-files.js'
import { DEFAULT_PROTECTED_PATHS, resolveProtectedPatterns } from '../src/gate/protection/protection-defaults.js'
import { readSettings } from '../src/inputs/read-settings.js'

const PYPROJECT = `[project]
name = "p"
version = "1.0.0"
requires-python = ">=3.9"
description = """
[tool.pytest.ini_options]
not a header, inside a string
"""
dependencies = ["requests==2.0.0"]

[project.optional-dependencies]
dev = ["black"]

[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[dependency-groups]
test = ["pytest"]

[tool.poetry.group.dev.dependencies]
ruff = "*"

[tool.poetry.group.dev]
optional = true

[tool.uv]
dev-dependencies = ["mypy"]

[tool.pytest.ini_options]
addopts = "-q"
testpaths = ["tests"]

[[tool.coverage.report.exclude_also]]
x = 1

[tool.setuptools]
packages = ["p"]
`

const projection = (text: string | null): string => protectedPart('pyproject', text)
const change = (text: string): string | null => manifestChange('pyproject', projection(PYPROJECT), text)

describe('pyproject.toml: an allow-list of dependency keys, parsed as TOML', () => {
  test.each([
    ['project.dependencies', 'requests==2.0.0', 'requests==2.32.0'],
    ['project.version', 'version = "1.0.0"', 'version = "1.1.0"'],
    ['project.requires-python', '>=3.9', '>=3.10'],
    ['project.optional-dependencies', 'dev = ["black"]', 'dev = ["black", "isort"]'],
    ['build-system.requires', 'setuptools>=61', 'setuptools>=70'],
    ['dependency-groups', 'test = ["pytest"]', 'test = ["pytest", "hypothesis"]'],
    ['tool.poetry.group.*.dependencies', 'ruff = "*"', 'ruff = "^0.5"'],
    ['tool.uv.dev-dependencies', 'dev-dependencies = ["mypy"]', 'dev-dependencies = ["mypy", "pyright"]']
  ])('%s may change', (_key, from, to) => {
    expect(change(PYPROJECT.replace(from, to))).toBeNull()
  })

  test('reordering tables and reformatting is no change', () => {
    const reordered = PYPROJECT.replace('[tool.setuptools]\npackages = ["p"]\n', '').replace('[project]', '[tool.setuptools]\npackages = [ "p" ]\n\n[project]')
    expect(change(reordered)).toBeNull()
  })

  test.each([
    ['[tool.pytest.ini_options]', 'addopts = "-q"', 'addopts = "-k nothing"'],
    ['a pytest table spelled another way', '[tool.pytest.ini_options]\naddopts = "-q"', '[tool . "pytest" . ini_options]\naddopts = "-k nothing"'],
    ['[tool.coverage…]', 'x = 1', 'x = 2'],
    ['[tool.setuptools]', 'packages = ["p"]', 'packages = ["q"]'],
    ['build-system.build-backend', 'setuptools.build_meta', 'evil_backend'],
    ['project.name', 'name = "p"', 'name = "q"'],
    ['tool.poetry.group.dev.optional', 'optional = true', 'optional = false'],
    ['an added dotted key under [tool]', '[tool.uv]', '[tool]\nmypy.strict = false\n\n[tool.uv]']
  ])('%s is protected', (_key, from, to) => {
    const edited = PYPROJECT.replace(from, to)
    expect(edited).not.toBe(PYPROJECT)
    expect(change(edited)).toBe('test-relevant keys changed')
  })

  test('an added table anywhere else is protected', () => {
    expect(change(`${PYPROJECT}\n[tool.hatch.envs.default.scripts]\ntest = "true"\n`)).toBe('test-relevant keys changed')
  })

  test('a pyproject.toml that no longer parses is tampering; a duplicate key does not parse', () => {
    expect(change(`${PYPROJECT}\n[broken`)).toBe('does not parse')
    expect(change(PYPROJECT.replace('addopts = "-q"', 'addopts = "-q"\naddopts = "-x"'))).toBe('does not parse')
  })

  test('restore puts back the protected keys and keeps the dependency edit', () => {
    const edited = PYPROJECT.replace('requests==2.0.0', 'requests==2.32.0').replace('addopts = "-q"', 'addopts = "-k nothing"')
    const restored = restoreManifest('pyproject', edited, PYPROJECT) ?? ''
    expect(projection(restored)).toBe(projection(PYPROJECT))
    const doc = parseToml(restored) as { project: { dependencies: string[] } }
    expect(doc.project.dependencies).toEqual(['requests==2.32.0'])
  })

  test('restore keeps the edited text verbatim, comments and layout, when nothing protected differs', () => {
    const commented = PYPROJECT.replace('dependencies = ["requests==2.0.0"]', 'dependencies = ["requests==2.0.0"]  # pinned for the API')
    const reference = commented.replace('requests==2.0.0', 'requests==2.32.0')
    expect(restoreManifest('pyproject', reference, commented)).toBe(reference)
  })

  test('restore keeps the base text verbatim when no allowed key changed', () => {
    expect(restoreManifest('pyproject', PYPROJECT.replace('addopts = "-q"', 'addopts = "-x"'), PYPROJECT)).toBe(PYPROJECT)
    expect(restoreManifest('pyproject', '[broken', PYPROJECT)).toBe(PYPROJECT)
  })
})

describe('package.json: an allow-list of dependency keys', () => {
  const baseDoc = {
    name: 'p',
    version: '1.0.0',
    type: 'module',
    scripts: { test: 'jest' },
    jest: { testMatch: ['**/*.test.js'] },
    exports: { '.': './index.js' },
    dependencies: { a: '1.0.0' },
    pnpm: { overrides: { b: '1.0.0' }, patchedDependencies: {} }
  }
  const base = JSON.stringify(baseDoc, null, 2)
  const pkgChange = (doc: Record<string, unknown>): string | null =>
    manifestChange('package-json', protectedPart('package-json', base), JSON.stringify(doc, null, 2))

  test.each(MANIFEST_ALLOWED_KEYS['package-json'].map((k) => [k]))('%s may change', (key) => {
    const doc = structuredClone(baseDoc) as Record<string, unknown>
    if (key === 'pnpm.overrides') (doc.pnpm as Record<string, unknown>).overrides = { b: '2.0.0', c: '1.0.0' }
    else doc[key] = key === 'version' || key === 'packageManager' ? 'npm@11.0.0' : { changed: '2.0.0' }
    expect(pkgChange(doc)).toBeNull()
  })

  test.each(['scripts', 'jest', 'babel', 'mocha', 'ava', 'c8', 'nyc', 'vitest', 'type', 'imports', 'exports', 'main', 'name', 'workspaces', 'anythingElse'])(
    '%s is protected (changed or added)',
    (key) => {
      expect(pkgChange({ ...baseDoc, [key]: { presets: ['./strip-expect.cjs'] } })).toBe('test-relevant keys changed')
    }
  )

  test('pnpm keys other than overrides are protected; removing a protected key is a change', () => {
    expect(pkgChange({ ...baseDoc, pnpm: { overrides: {}, patchedDependencies: { x: 'patches/x.patch' } } })).toBe('test-relevant keys changed')
    const { type: _type, ...withoutType } = baseDoc
    expect(pkgChange(withoutType)).toBe('test-relevant keys changed')
  })

  test('a package.json that does not parse, is not an object, or repeats a key is tampering', () => {
    const before = protectedPart('package-json', base)
    expect(manifestChange('package-json', before, '{ broken')).toBe('does not parse')
    expect(manifestChange('package-json', before, '[]')).toBe('does not parse')
    const repeated = base.replace('"scripts": {', '"scripts": { "test": "true" },\n  "scripts": {')
    expect(JSON.parse(repeated)).toEqual(baseDoc)
    expect(manifestChange('package-json', before, repeated)).toBe('does not parse')
  })

  test('duplicate keys are found per object, strings and escapes skipped', () => {
    expect(hasDuplicateJsonKey('{"a": {"x": 1}, "b": {"x": 2}, "c": ["a", "a"], "d": "\\"a\\""}')).toBe(false)
    expect(hasDuplicateJsonKey('{"a": 1, "b": {"x": 1, "x": 2}}')).toBe(true)
    expect(hasDuplicateJsonKey('{"a\\u0062": 1, "ab": 2}')).toBe(true)
  })

  test('restore keeps dependency edits, puts back protected keys, removes added ones', () => {
    const edited = JSON.stringify({ ...baseDoc, scripts: { test: 'true' }, babel: { plugins: ['x'] }, dependencies: { a: '2.0.0' } }, null, 2)
    const restored = JSON.parse(restoreManifest('package-json', edited, base) ?? '{}')
    expect(restored).toEqual({ ...baseDoc, dependencies: { a: '2.0.0' } })
    expect(Object.keys(restored)).toEqual(Object.keys(baseDoc))
  })

  test('an added package.json keeps only its allowed keys', () => {
    const added = JSON.stringify({ type: 'commonjs', dependencies: { a: '1' } })
    expect(JSON.parse(restoreManifest('package-json', added, null) ?? '')).toEqual({ dependencies: { a: '1' } })
    expect(restoreManifest('package-json', '{ broken', null)).toBeNull()
  })

  test('a __proto__ key is a key like any other', () => {
    const evil = base.replace('"scripts"', '"__proto__": { "test": "true" },\n  "scripts"')
    expect(manifestChange('package-json', protectedPart('package-json', base), evil)).toBe('test-relevant keys changed')
  })
})

describe('protected paths: the defaults', () => {
  const paths = new ProtectedPaths(DEFAULT_PROTECTED_PATHS)

  test.each([
    ['tests/unit/a.test.ts', 'file'],
    ['test/run.mjs', 'file'],
    ['__tests__/x.test.ts', 'file'],
    ['spec/a_spec.rb', 'file'],
    ['packages/a/test/run.js', 'file'],
    ['src/sum.test.js', 'file'],
    ['src/deep/sum.spec.tsx', 'file'],
    ['pkg/test_sum.py', 'file'],
    ['pkg/sum_test.py', 'file'],
    ['internal/sum_test.go', 'file'],
    ['src/__snapshots__/a.test.js.snap', 'file'],
    ['src/__mocks__/fs.js', 'file'],
    ['.npmrc', 'file'],
    ['packages/a/.npmrc', 'file'],
    ['.yarnrc.yml', 'file'],
    ['.yarnrc', 'file'],
    ['bunfig.toml', 'file'],
    ['.pytest.ini', 'file'],
    ['pytest.ini', 'file'],
    ['tox.ini', 'file'],
    ['setup.cfg', 'file'],
    ['noxfile.py', 'file'],
    ['pkg/sub/conftest.py', 'file'],
    ['sitecustomize.py', 'file'],
    ['src/usercustomize.py', 'file'],
    ['src/evil.pth', 'file'],
    ['babel.config.cjs', 'file'],
    ['.babelrc', 'file'],
    ['.babelrc.json', 'file'],
    ['.swcrc', 'file'],
    ['jest.config.ts', 'file'],
    ['jest.config.e2e.js', 'file'],
    ['jest.setup.js', 'file'],
    ['packages/a/vitest.config.mts', 'file'],
    ['vitest.workspace.ts', 'file'],
    ['vite.config.js', 'file'],
    ['.mocharc.yml', 'file'],
    ['karma.conf.js', 'file'],
    ['.c8rc.json', 'file'],
    ['.nycrc', 'file'],
    ['playwright.config.ts', 'file'],
    ['ava.config.mjs', 'file'],
    ['.taprc', 'file'],
    ['tsconfig.build.json', 'file'],
    ['.github/workflows/ci.yml', 'file'],
    ['.github/actions/setup/action.yml', 'file'],
    ['package.json', 'package-json'],
    ['packages/a/package.json', 'package-json'],
    ['test/fixtures/package.json', 'file'],
    ['pyproject.toml', 'pyproject'],
    ['src/index.ts', null],
    ['src/testing.ts', null],
    ['src/contest.py', null],
    ['node_modules/x/tsconfig.json', null],
    ['.venv/lib/python3.11/site-packages/x.pth', null],
    ['README.md', null],
    ['.github/CODEOWNERS', null]
  ])('%s → %s', (file, kind) => {
    expect(paths.kind(file)).toBe(kind)
  })

  test.each(['a\nb/conftest.py', 'src/x\ty.js', 'src/\u007f', 'docs/\u0085.md', 'src/\u0001', 'node_modules/a\nb', 'src/\ufffd.js'])(
    'a path with a control character (%j) is protected, whatever the list says',
    (file) => {
      expect(paths.kind(file)).toBe('file')
      expect(new ProtectedPaths([]).kind(file)).toBe('file')
      expect(new ProtectedPaths(['**', '!**']).kind(file)).toBe('file')
    }
  )

  test('matches exactly what picomatch matches, pattern by pattern', () => {
    const all = picomatch([...DEFAULT_PROTECTED_PATHS, 'src/**/*.golden.ts', 'Makefile'], { dot: true })
    const custom = new ProtectedPaths([...DEFAULT_PROTECTED_PATHS, 'src/**/*.golden.ts', 'Makefile'])
    const segments = [
      'tests',
      'test',
      'a',
      '.github',
      'workflows',
      'src',
      'spec',
      'x.test.js',
      'conftest.py',
      '.npmrc',
      'jest.config.ts',
      'testsx',
      'a.golden.ts',
      'Makefile',
      '.babelrc',
      'p.pth',
      'x_test.go'
    ]
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...segments), { minLength: 1, maxLength: 5 }), (parts) => {
        const file = parts.join('/')
        if (manifestKindOf(file)) return
        expect(custom.kind(file) === 'file').toBe(all(file))
      }),
      { numRuns: 2000 }
    )
  })

  test('50,000 source paths against the whole list: none is protected (its speed is a figure of npm run bench)', () => {
    const files = Array.from({ length: 50_000 }, (_, i) => `src/module${i % 97}/deep/path/file${i}.ts`)
    expect(files.filter((f) => paths.kind(f) !== null)).toEqual([])
  })
})

describe('protected paths: the gate command names its own files', () => {
  test.each([
    ['make test', ['**/Makefile', '**/makefile', '**/GNUmakefile']],
    ['tox -e py311', ['**/tox.ini']],
    ['python3 -m nox -s tests', ['**/noxfile.py']],
    ['uv run tox', ['**/tox.ini']],
    ['just test', ['**/justfile', '**/Justfile']],
    ['task test', ['**/Taskfile.yml']],
    ['./scripts/test.sh', ['scripts/test.sh']],
    ['bash ci/run.sh --fast', ['ci/run.sh']],
    ['bash -c "make check"', ['**/Makefile']],
    ['cd packages/a && ./run-tests.sh', ['packages/a/run-tests.sh']],
    ['npm ci && FOO=1 node tools/gate.mjs', ['tools/gate.mjs']],
    ['node -r ./preload.cjs --import=./hooks.mjs test/all.js', ['preload.cjs', 'hooks.mjs', 'test/all.js']],
    ['npx jest --config=ci/jest.json', ['ci/jest.json']],
    ['python3 -m pytest -c ci.ini', ['ci.ini']],
    ['timeout 600 bash ci/gate.sh', ['ci/gate.sh']],
    ['bun run scripts/check.ts', ['scripts/check.ts']]
  ])('%s', (command, expected) => {
    expect(gateCommandPatterns([command]).sort()).toEqual(expect.arrayContaining(expected))
  })

  test.each([
    'npm test',
    'pytest -q',
    'go test ./...',
    'node --test src/',
    '/usr/bin/run.sh',
    'bash ../up.sh',
    'bash $DIR/x.sh',
    'npx esbuild src/index.ts --bundle --outfile=dist/x.js',
    'python -c "import src.app"',
    'node -e "require(1)"'
  ])('no file from %s (plain runners, absolute or outside paths, operands that are not the program)', (command) => {
    expect(gateCommandPatterns([command, undefined])).toEqual([])
  })

  test('a dependency file a setup names is left to the dependency policy, not protected whole', () => {
    const patterns = gateCommandPatterns(['python -m venv .venv && .venv/bin/pip install -r requirements.txt -r reqs/dev.txt && bash ci/setup.sh'])
    expect(patterns).toEqual(expect.arrayContaining(['reqs/dev.txt', 'ci/setup.sh']))
    expect(patterns).not.toContain('requirements.txt')
  })

  test('gate-setup counts as well, and a derived script path matches as a literal', () => {
    const patterns = resolveProtectedPatterns([], ['npm test', 'make deps && bash ci/[setup].sh'])
    const paths = new ProtectedPaths(patterns)
    expect(paths.kind('Makefile')).toBe('file')
    expect(paths.kind('ci/[setup].sh')).toBe('file')
    expect(paths.kind('ci/s.sh')).toBeNull()
  })

  test('package.json scripts the gate runs, their pre/post scripts and the scripts they run', () => {
    const pkg = JSON.stringify({
      scripts: {
        pretest: 'npm run build',
        test: 'bash scripts/test.sh && yarn lint',
        posttest: 'node tools/report.mjs',
        build: 'esbuild src/index.ts --outfile=dist/x.js && node scripts/copy.mjs',
        lint: 'eslint -c ci/eslint.json .',
        start: 'node src/server.js',
        check: 'make check'
      }
    })
    const found = packageScriptPatterns(['npm test'], pkg)
    expect(found.sort()).toEqual(['ci/eslint.json', 'scripts/copy.mjs', 'scripts/test.sh', 'tools/report.mjs'])
    expect(packageScriptPatterns(['pnpm run check'], pkg)).toContain('**/Makefile')
    expect(packageScriptPatterns(['pytest'], pkg)).toEqual([])
    expect(packageScriptPatterns(['npm test'], '{ broken')).toEqual([])
  })
})

describe('the protected-paths input adds to the defaults', () => {
  const read = (inputs: Record<string, string>) => (name: string) =>
    ({ agent: 'command', 'agent-command': 'true', prompt: 'p', 'gate-command': 'make check', ...inputs })[name] ?? ''

  test('an entry adds; the defaults and the gate command files stay', () => {
    const s = readSettings(read({ 'protected-paths': 'src/**/*.golden.ts\ne2e/**' }), { GITHUB_WORKSPACE: '/tmp/ws' })
    for (const p of [...DEFAULT_PROTECTED_PATHS, '**/Makefile', 'src/**/*.golden.ts', 'e2e/**']) expect(s.protectedPaths).toContain(p)
    const paths = new ProtectedPaths(s.protectedPaths)
    expect(paths.kind('src/a/b.golden.ts')).toBe('file')
    expect(paths.kind('.npmrc')).toBe('file')
    expect(paths.kind('package.json')).toBe('package-json')
  })

  test('!pattern equal to a default removes it; any other !pattern excludes the paths it matches', () => {
    const s = readSettings(read({ 'protected-paths': '!**/spec/**, !**/Makefile, !tests/fixtures/**' }), { GITHUB_WORKSPACE: '/tmp/ws' })
    expect(s.protectedPaths).not.toContain('**/spec/**')
    expect(s.protectedPaths).not.toContain('**/Makefile')
    expect(s.protectedPaths).toContain('!tests/fixtures/**')
    const paths = new ProtectedPaths(s.protectedPaths)
    expect(paths.kind('spec/a_spec.rb')).toBeNull()
    expect(paths.kind('Makefile')).toBeNull()
    expect(paths.kind('makefile')).toBe('file')
    expect(paths.kind('tests/fixtures/data.json')).toBeNull()
    expect(paths.kind('tests/a.py')).toBe('file')
  })

  test('unset: the defaults and the gate command files, nothing else', () => {
    const s = readSettings(read({}), { GITHUB_WORKSPACE: '/tmp/ws' })
    expect(s.protectedPaths).toEqual(resolveProtectedPatterns([], ['make check']))
  })
})
