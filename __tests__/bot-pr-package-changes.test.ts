/**
 * What a dependency bot's pull request bumped, read from the diff of every ecosystem's dependency
 * files against its base: lockfiles written by npm, pnpm, Yarn classic and Poetry themselves, uv's
 * as uv writes it, requirements pins and pyproject.toml's tables.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { manifestBumps } from '../src/bot-pr/manifest-bumps.js'
import { lockfileChanges } from '../src/ecosystems/package-changes.js'
import { lockEntries } from '../src/ecosystems/registry.js'
import { GitRepository } from '../src/git/repository.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { hasTool, needs } from './helpers/needs-tools.js'
import { startPackageIndex, type PackageIndex } from './helpers/pypi-index.js'
import { makeRepo, sh } from './helpers/repo.js'
import { yarnClassicBin } from './helpers/yarn-bins.js'

const LONG = 240_000
const BIN = path.resolve('node_modules/.bin')
// node_modules/.bin/yarn may be Yarn Berry: these lockfiles are Yarn classic's.
const CLASSIC_YARN = path.join(yarnClassicBin(), 'yarn')

/** A repository with `before`, then one commit that writes `after`: what manifestBumps reads from their diff. */
async function bumpOf(before: Record<string, string>, after: Record<string, string>) {
  const repo = makeRepo(before)
  const baseCommit = sh(repo, ['rev-parse', 'HEAD']).trim()
  for (const [file, text] of Object.entries(after)) writeFileSync(path.join(repo, file), text)
  sh(repo, ['commit', '-q', '-am', 'bump'])
  const headCommit = sh(repo, ['rev-parse', 'HEAD']).trim()
  const files = sh(repo, ['diff', '--name-only', baseCommit, headCommit]).trim().split('\n')
  return manifestBumps(GitRepository.plain(repo), { baseCommit, headCommit }, files)
}

describe('a Node project: lockfile-only bumps of a transitive dependency, as each manager writes them', () => {
  let registry: LocalRegistry
  let env: NodeJS.ProcessEnv
  beforeAll(async () => {
    registry = await startRegistry()
    env = { ...process.env, ...registry.env, PATH: `${BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`, YARN_IGNORE_PATH: '1' }
    registry.publish('mathcore', '1.0.0', { 'index.js': 'module.exports = 1\n' })
    registry.publish('mathlib', '1.0.0', { 'index.js': 'module.exports = 1\n' }, { dependencies: { mathcore: '^1.0.0' } })
  }, LONG)
  afterAll(async () => {
    await registry?.stop()
  })

  it(
    'package-lock.json, pnpm-lock.yaml and yarn.lock each name mathcore 1.0.0 → 1.0.1, and nothing else',
    async () => {
      const run = (dir: string, cmd: string[]): void => void execFileSync(cmd[0], cmd.slice(1), { cwd: dir, env, stdio: 'pipe' })
      const written: { before: string; lockfile: string; install: string[]; update: (dir: string) => void }[] = [
        {
          lockfile: 'package-lock.json',
          install: ['npm', 'install', '--ignore-scripts', '--no-audit', '--no-fund'],
          before: '',
          update: (d) => run(d, ['npm', 'update', 'mathcore', '--ignore-scripts', '--no-audit', '--no-fund'])
        },
        {
          lockfile: 'pnpm-lock.yaml',
          install: [path.join(BIN, 'pnpm'), 'install', '--ignore-scripts'],
          before: '',
          update: (d) => run(d, [path.join(BIN, 'pnpm'), 'update', 'mathcore', '--lockfile-only', '--ignore-scripts'])
        },
        {
          lockfile: 'yarn.lock',
          before: '',
          install: [CLASSIC_YARN, 'install', '--ignore-scripts', '--non-interactive'],
          // Dependabot's way with a transitive dependency: its entry dropped, yarn resolving it again.
          update: (d) => {
            const lock = readFileSync(path.join(d, 'yarn.lock'), 'utf8').replace(/^mathcore@\^1\.0\.0:\n(?: {2}.*\n)+\n?/m, '')
            writeFileSync(path.join(d, 'yarn.lock'), lock)
            run(d, [CLASSIC_YARN, 'install', '--ignore-scripts', '--non-interactive'])
          }
        }
      ]
      // Locked before mathcore 1.0.1 exists, updated after.
      const dirs = written.map((p) => {
        const dir = makeRepo({ 'package.json': JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { mathlib: '1.0.0' } }, null, 2) + '\n' })
        run(dir, p.install)
        p.before = readFileSync(path.join(dir, p.lockfile), 'utf8')
        return dir
      })
      registry.publish('mathcore', '1.0.1', { 'index.js': 'module.exports = 1\n' })
      for (const [i, p] of written.entries()) {
        p.update(dirs[i])
        const after = readFileSync(path.join(dirs[i], p.lockfile), 'utf8')
        expect([p.lockfile, after]).not.toEqual([p.lockfile, p.before])
        expect([p.lockfile, lockfileChanges(p.lockfile, p.before, after)]).toEqual([p.lockfile, [{ name: 'mathcore', from: '1.0.0', to: '1.0.1' }]])
        const manifest = readFileSync(path.join(dirs[i], 'package.json'), 'utf8')
        expect(await bumpOf({ 'package.json': manifest, [p.lockfile]: p.before }, { [p.lockfile]: after })).toEqual([
          { name: 'mathcore', from: '1.0.0', to: '1.0.1' }
        ])
      }
    },
    LONG
  )
})

describe("each Node lockfile's entries as the reading takes them", () => {
  it("pnpm-lock.yaml: an importer's dependency is that package's entry (a link is no registry version); the importer's own fields mirror its manifest", () => {
    const lock = (v: string) =>
      `lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      mathlib:\n        specifier: ^${v}\n        version: ${v}\n\n  packages/b:\n    dependencies:\n      a:\n        specifier: workspace:*\n        version: link:../a\n    publishDirectory: dist\n\npackages:\n\n  mathlib@${v}:\n    resolution: {integrity: sha512-x}\n\nsnapshots:\n\n  mathlib@${v}: {}\n`
    expect(lockEntries('pnpm-lock.yaml', lock('1.0.0'), [])?.map((e) => [e.key, e.name, e.version ?? null, e.mirror ?? false, e.registry])).toEqual([
      ['lockfileVersion', '(lockfileVersion)', null, false, true],
      ['importers/./dependencies/mathlib', 'mathlib', '1.0.0', false, true],
      ['importers/.', '(importer .)', null, true, true],
      ['importers/packages/b/dependencies/a', 'a', null, false, false],
      ['importers/packages/b', '(importer packages/b)', null, true, true],
      ['packages/mathlib@1.0.0', 'mathlib', '1.0.0', false, true],
      ['snapshots/mathlib@1.0.0', 'mathlib', '1.0.0', false, true]
    ])
    expect(lockfileChanges('pnpm-lock.yaml', lock('1.0.0'), lock('1.2.0'))).toEqual([{ name: 'mathlib', from: '1.0.0', to: '1.2.0' }])
  })

  it("yarn.lock (Berry): each package's version; a workspace's entry mirrors its package.json and names nothing", () => {
    const lock = (v: string) =>
      `__metadata:\n  version: 8\n  cacheKey: 10c0\n\n"mathlib@npm:^1.0.0":\n  version: ${v}\n  resolution: "mathlib@npm:${v}"\n  checksum: 10c0/${'ab12'.repeat(32)}\n\n"proj@workspace:.":\n  version: 0.0.0-use.local\n  resolution: "proj@workspace:."\n  dependencies:\n    mathlib: "npm:^${v}"\n`
    expect(lockfileChanges('yarn.lock', lock('1.0.0'), lock('1.0.1'))).toEqual([{ name: 'mathlib', from: '1.0.0', to: '1.0.1' }])
  })
})

describe('a Python project: requirements pins, pyproject.toml tables, lockfiles', () => {
  it('a Dependabot group bump of requirements pins names each pin moved, from its diff (a comment or a range left alone)', async () => {
    const before = '# runtime\nlg-mathlib==1.0.0  # math\nSix==1.16.0\nrequests>=2.0\n-r base.txt\n'
    const after = '# runtime, pinned\nlg-mathlib==2.0.0  # math\nsix==1.17.0\nrequests>=2.0\n-r base.txt\n'
    expect(await bumpOf({ 'requirements.txt': before, 'requirements-dev.txt': 'pytest==8.0.0\n' }, { 'requirements.txt': after })).toEqual([
      { name: 'lg-mathlib', from: '1.0.0', to: '2.0.0' },
      { name: 'six', from: '1.16.0', to: '1.17.0' }
    ])
  })

  it("pyproject.toml: PEP 621 dependencies and optional dependencies, PEP 735 groups, Poetry's tables; a lockfile beside it changes too", async () => {
    const doc = (v: { core: string; extra: string; group: string; poetry: string }) =>
      [
        '[project]',
        'name = "calc"',
        'version = "1.0"',
        `dependencies = ["lg-mathlib${v.core}", "six==1.16.0"]`,
        '',
        '[project.optional-dependencies]',
        `plot = ["lg-plot[svg]${v.extra}"]`,
        '',
        '[dependency-groups]',
        `test = ["lg-check${v.group}"]`,
        '',
        '[tool.poetry.group.dev.dependencies]',
        `lg-lint = ${v.poetry}`,
        ''
      ].join('\n')
    const before = doc({ core: '>=1.0,<2', extra: '==1.0.0', group: '~=1.0', poetry: '"^1.0"' })
    const after = doc({ core: '>=2.0,<3', extra: '==1.1.0', group: '~=1.2', poetry: '{ version = "^2.0", optional = true }' })
    const lock = (v: string) => `version = 1\n\n[[package]]\nname = "lg-mathlib"\nversion = "${v}"\nsource = { registry = "https://pypi.org/simple" }\n`
    expect(await bumpOf({ 'pyproject.toml': before, 'uv.lock': lock('1.4.0') }, { 'pyproject.toml': after, 'uv.lock': lock('2.0.0') })).toEqual([
      { name: 'lg-mathlib', from: '>=1.0,<2', to: '>=2.0,<3' },
      { name: 'lg-plot', from: '==1.0.0', to: '==1.1.0' },
      { name: 'lg-check', from: '~=1.0', to: '~=1.2' },
      { name: 'lg-lint', from: '^1.0', to: '{"version":"^2.0","optional":true}' }
    ])
  })

  it("uv.lock alone (as uv writes it): the packages whose locked version moved, the project's own entry left out", () => {
    const lock = (core: string, root: string) =>
      `version = 1\nrequires-python = ">=3.9"\n\n[[package]]\nname = "calc"\nversion = "${root}"\nsource = { editable = "." }\ndependencies = [\n    { name = "lg-core" },\n]\n\n[[package]]\nname = "lg-core"\nversion = "${core}"\nsource = { registry = "https://pypi.org/simple" }\nsdist = { url = "https://files.pythonhosted.org/packages/aa/lg_core-${core}.tar.gz", hash = "sha256:1ef671ca907a336fd03299c7050f6fad0ea27a8ed021cdf2498282989bcf9f4c", size = 2048 }\n`
    expect(lockfileChanges('uv.lock', lock('1.0.0', '1.0'), lock('1.0.1', '1.1'))).toEqual([{ name: 'lg-core', from: '1.0.0', to: '1.0.1' }])
    expect(lockfileChanges('Gemfile.lock', 'a', 'b')).toBeNull()
  })

  let index: PackageIndex
  beforeAll(async () => {
    if (!hasTool('python3')) return
    index = await startPackageIndex()
    index.publish('lg-other', '1.0.0', { 'lg_other/__init__.py': 'VALUE = 1\n' })
  }, LONG)
  afterAll(async () => {
    await index?.stop()
  })

  needs('python3', 'pip', 'poetry').it(
    "poetry.lock alone, relocked by Poetry once a version the constraint admits is out: that package, not the lock's metadata",
    async () => {
      const pyproject = `[tool.poetry]\nname = "calc"\nversion = "1.0.0"\ndescription = ""\nauthors = []\n\n[tool.poetry.dependencies]\npython = "^3.8"\nlg-other = "^1.0"\n\n[[tool.poetry.source]]\nname = "${index.sourceName}"\nurl = "${index.url}"\ndefault = true\n`
      const dir = makeRepo({ 'pyproject.toml': pyproject })
      const poetry = (args: string[]): void =>
        void execFileSync('poetry', args, {
          cwd: dir,
          env: { ...process.env, POETRY_VIRTUALENVS_CREATE: 'false', PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring' },
          stdio: 'pipe'
        })
      poetry(['lock', '--no-interaction'])
      const before = readFileSync(path.join(dir, 'poetry.lock'), 'utf8')
      index.publish('lg-other', '1.0.1', { 'lg_other/__init__.py': 'VALUE = 1\n' })
      poetry(['update', '--lock', '--no-interaction', 'lg-other'])
      const after = readFileSync(path.join(dir, 'poetry.lock'), 'utf8')
      expect(after).not.toBe(before)
      expect(await bumpOf({ 'pyproject.toml': pyproject, 'poetry.lock': before }, { 'poetry.lock': after })).toEqual([
        { name: 'lg-other', from: '1.0.0', to: '1.0.1' }
      ])
    },
    LONG
  )
})
