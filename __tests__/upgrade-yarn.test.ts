import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ConfigError } from '../src/errors.js'
import { prepareUpgrade, type UpgradeSettings } from '../src/upgrade/prepare.js'
import { packageManagerEnv } from '../src/upgrade/environment.js'
import { upgradeLoop, type UpgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir } from './helpers/repo.js'
import { pathWithout, yarnClassicBin } from './helpers/yarn-bins.js'
import { GitRepository } from '../src/git/repository.js'

const LONG = 300_000
/** The pinned dev dependency: Yarn classic 1.22.22, the only yarn the machine has. */
const YARN_VERSION = '1.22.22'
const BIN = path.resolve('node_modules/.bin')
/** Yarn classic alone: node_modules/.bin/yarn may be Yarn Berry's (the Berry tests' dev dependency). */
const CLASSIC = yarnClassicBin()

let registry: LocalRegistry
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  registry = await startRegistry()
  env = { ...process.env, ...registry.env, PATH: `${CLASSIC}:${BIN}:${process.env.PATH ?? '/usr/bin:/bin'}` }
  const meta = { type: 'module', main: 'index.js', repository: { type: 'git', url: 'git+https://github.com/example/mathlib.git' } }
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish(
    'mathlib',
    '2.0.0',
    { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n', 'CHANGELOG.md': '# 2.0.0\n\n`add` is now `sum`.\n' },
    meta
  )
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

const CALC = "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n"
const CALC_TEST =
  "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"

/** A Yarn classic project on mathlib (its yarn.lock written by yarn itself), committed without node_modules. */
function project(extra: Record<string, unknown>, files: Record<string, string> = {}): { ws: string; start: string } {
  const manifest = { name: 'proj', version: '1.0.0', private: true, type: 'module', ...extra }
  const ws = makeRepo({
    'package.json': JSON.stringify(manifest, null, 2) + '\n',
    '.gitignore': 'node_modules\n',
    'src/calc.js': CALC,
    'test/calc.test.js': CALC_TEST,
    ...files
  })
  execFileSync(path.join(CLASSIC, 'yarn'), ['install', '--ignore-scripts', '--non-interactive'], {
    cwd: ws,
    env: { ...env, YARN_IGNORE_PATH: '1' },
    stdio: 'pipe'
  })
  rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim() }
}

function loop(ws: string): UpgradeLoop {
  return upgradeLoop(ws, env, {
    'loop-id': 'deps',
    'gate-command': 'node --test',
    'gate-setup': 'yarn install --frozen-lockfile --ignore-scripts --non-interactive',
    'agent-env': 'npm_config_registry'
  })
}

const changedIn = (ws: string, commit: string): string[] =>
  sh(ws, ['diff', '--name-only', `${commit}^`, commit])
    .trim()
    .split('\n')
    .filter(Boolean)

const settings = (ws: string): UpgradeSettings =>
  ({ task: 'dependency-upgrade', workspace: ws, ignore: [], allowMajor: true, protectedPaths: ['test/**'] }) as unknown as UpgradeSettings

describe('task: dependency-upgrade (Yarn classic, against a local registry)', () => {
  it(
    'bumps a breaking major with yarn: package.json and yarn.lock only, the agent fixes the call site',
    async () => {
      const { ws, start } = project({ packageManager: `yarn@${YARN_VERSION}`, dependencies: { mathlib: '^1.0.0' } })
      const shared = sharedTempDir()
      const fix = `echo call >> ${shared}/calls; cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt.txt; sed -i 's/\\badd\\b/sum/g' src/calc.js`
      const { report } = await loop(ws).run({ 'allow-major': 'true', 'agent-command': fix })
      expect(report.stopReason).toBe('verified')
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)

      const bump = sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
        .trim()
        .split('\n')[0]
      expect(sh(ws, ['log', '-1', '--format=%s', bump]).trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 2.0.0')
      expect(changedIn(ws, bump).sort()).toEqual(['package.json', 'yarn.lock'])
      expect(JSON.parse(sh(ws, ['show', `${bump}:package.json`])).dependencies).toEqual({ mathlib: '^2.0.0' })
      const lock = sh(ws, ['show', `${bump}:yarn.lock`])
      expect(lock).toMatch(/^mathlib@\^2\.0\.0:\n {2}version "2\.0\.0"$/m)
      expect(lock).not.toContain('1.0.0')
      expect(sh(ws, ['ls-tree', '-r', '--name-only', 'HEAD'])).not.toContain('package-lock.json')
      expect(existsSync(path.join(ws, 'package-lock.json'))).toBe(false)

      const prompt = readFileSync(path.join(shared, 'prompt.txt'), 'utf8')
      expect(prompt).toContain('Dependency upgrade: mathlib from 1.0.0 to 2.0.0 (a major upgrade, in dependencies)')
      expect(prompt).toMatch(/does not provide an export named 'add'/)
      expect(prompt).toContain('release notes: https://github.com/example/mathlib/releases')
      expect(prompt).toContain('changelog of the installed version: node_modules/mathlib/CHANGELOG.md')
    },
    LONG
  )

  it(
    'in a workspace, a dependency several packages share is bumped in all of them in one commit',
    async () => {
      const pkg = (name: string, deps: Record<string, string>): string => JSON.stringify({ name, version: '1.0.0', dependencies: deps }, null, 2) + '\n'
      const { ws, start } = project(
        { workspaces: ['packages/*'] },
        { 'packages/a/package.json': pkg('a', { mathlib: '1.0.0' }), 'packages/b/package.json': pkg('b', { mathlib: '^1.0.0' }) }
      )
      const ready = await prepareUpgrade(settings(ws), { repository: GitRepository.plain(ws), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      expect(ready.kind).toBe('ready')
      expect(sh(ws, ['rev-list', '--count', `${start}..HEAD`]).trim()).toBe('1')
      expect(changedIn(ws, 'HEAD').sort()).toEqual(['packages/a/package.json', 'packages/b/package.json', 'yarn.lock'])
      expect(JSON.parse(sh(ws, ['show', 'HEAD:packages/a/package.json'])).dependencies).toEqual({ mathlib: '2.0.0' })
      expect(JSON.parse(sh(ws, ['show', 'HEAD:packages/b/package.json'])).dependencies).toEqual({ mathlib: '^2.0.0' })
      expect(sh(ws, ['show', 'HEAD:yarn.lock'])).toMatch(/^mathlib@2\.0\.0, mathlib@\^2\.0\.0:\n {2}version "2\.0\.0"$/m)
    },
    LONG
  )

  it(
    "the bump runs no install script, neither the new version's nor the project's own",
    async () => {
      const shared = sharedTempDir()
      const marker = path.join(shared, 'script-ran')
      const hook = { scripts: { preinstall: `touch ${marker}`, install: `touch ${marker}`, postinstall: `touch ${marker}` } }
      registry.publish('hooked', '1.0.0', { 'index.js': 'module.exports = 1\n' })
      registry.publish('hooked', '1.0.1', { 'index.js': 'module.exports = 1\n' }, hook)
      const { ws } = project({ dependencies: { hooked: '1.0.0' } })
      const own = JSON.parse(readFileSync(path.join(ws, 'package.json'), 'utf8')) as Record<string, unknown>
      writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ ...own, ...hook }, null, 2) + '\n')
      sh(ws, ['commit', '-q', '-am', 'own install scripts'])
      const ready = await prepareUpgrade(settings(ws), { repository: GitRepository.plain(ws), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      expect(ready.kind).toBe('ready')
      expect(sh(ws, ['log', '-1', '--format=%s']).trim()).toBe('chore(deps): bump hooked from 1.0.0 to 1.0.1')
      expect(existsSync(path.join(ws, 'node_modules/hooked/index.js'))).toBe(true)
      expect(existsSync(marker)).toBe(false)
    },
    LONG
  )

  it(
    'Yarn Berry without nodeLinker: node-modules, and a yarn the runner cannot have, stop as config errors before anything runs, never with npm',
    async () => {
      const berry = makeRepo({ 'package.json': JSON.stringify({ name: 'p', packageManager: 'yarn@4.5.0', dependencies: { mathlib: '1.0.0' } }) })
      await expect(
        prepareUpgrade(settings(berry), { repository: GitRepository.plain(berry), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      ).rejects.toThrow(
        /\.yarnrc\.yml sets no nodeLinker \(Plug'n'Play, Yarn Berry's default\): loopgate upgrades Yarn Berry projects with nodeLinker: node-modules only; set `nodeLinker: node-modules` in \.yarnrc\.yml; it never falls back to npm/
      )
      const berryLock = makeRepo({
        'package.json': JSON.stringify({ name: 'p', dependencies: { mathlib: '1.0.0' } }),
        'yarn.lock': '__metadata:\n  version: 8\n  cacheKey: 10c0\n'
      })
      await expect(
        prepareUpgrade(settings(berryLock), { repository: GitRepository.plain(berryLock), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      ).rejects.toThrow(/loopgate upgrades Yarn Berry projects with nodeLinker: node-modules only/)
      const yarnrc = makeRepo({
        'package.json': JSON.stringify({ name: 'p', dependencies: { mathlib: '1.0.0' } }),
        '.yarnrc.yml': 'nodeLinker: node-modules\n'
      })
      await expect(
        prepareUpgrade(settings(yarnrc), { repository: GitRepository.plain(yarnrc), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      ).rejects.toThrow(/the project has \.yarnrc\.yml \(Yarn Berry\) and no npm lockfile; it never falls back to npm/)
      const { ws, start } = project({ packageManager: 'yarn@1.22.19', dependencies: { mathlib: '1.0.0' } })
      const run = prepareUpgrade(settings(ws), { repository: GitRepository.plain(ws), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      await expect(run).rejects.toThrow(ConfigError)
      await expect(run).rejects.toThrow(/declares yarn@1\.22\.19, but the yarn on PATH is 1\.22\.22, and corepack does not have it offline/)
      expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(start)
      for (const dir of [berry, berryLock, yarnrc]) expect(existsSync(path.join(dir, 'package-lock.json'))).toBe(false)
    },
    LONG
  )
  it(
    'a yarn the runner cannot have stops the whole run before any agent call, naming it: never npm, nothing committed',
    async () => {
      const shared = sharedTempDir()
      const declared = project({ packageManager: 'yarn@1.22.19', dependencies: { mathlib: '1.0.0' } })
      const run = loop(declared.ws).run({ 'allow-major': 'true', 'agent-command': `touch ${shared}/called` })
      await expect(run).rejects.toThrow(ConfigError)
      await expect(run).rejects.toThrow(
        /declares yarn@1\.22\.19, but the yarn on PATH is 1\.22\.22, and corepack does not have it offline \(loopgate never falls back to npm/
      )

      // A yarn.lock and no packageManager field: Yarn classic's project, and no yarn on PATH.
      const undeclared = project({ dependencies: { mathlib: '1.0.0' } })
      const noYarn = pathWithout(CLASSIC)
      const withoutYarn = upgradeLoop(undeclared.ws, { ...env, PATH: noYarn }, { 'loop-id': 'deps', 'gate-command': 'node --test' })
      await expect(withoutYarn.run({ 'allow-major': 'true', 'agent-command': `touch ${shared}/called` })).rejects.toThrow(
        /it is a yarn project, but no yarn on PATH \(loopgate never falls back to npm; install yarn on the runner/
      )
      expect(existsSync(path.join(shared, 'called'))).toBe(false)
      for (const { ws, start } of [declared, undeclared]) {
        expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(start)
        expect(sh(ws, ['status', '--porcelain'])).toBe('')
      }
    },
    LONG
  )
})
