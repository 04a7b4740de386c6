import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ConfigError } from '../src/errors.js'
import { prepareUpgrade, type UpgradeSettings } from '../src/upgrade/prepare.js'
import { packageManagerEnv } from '../src/upgrade/environment.js'
import { upgradeLoop, type UpgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { GitRepository } from '../src/git/repository.js'

const LONG = 300_000
/** The pinned dev dependency: pnpm 10.34.9, the only pnpm the machine has. */
const PNPM_VERSION = '10.34.9'
const BIN = path.resolve('node_modules/.bin')

let registry: LocalRegistry
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  registry = await startRegistry()
  env = { ...process.env, ...registry.env, PATH: `${BIN}:${process.env.PATH ?? '/usr/bin:/bin'}` }
  const meta = { type: 'module', main: 'index.js', repository: { type: 'git', url: 'git+https://github.com/example/mathlib.git' } }
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish('mathlib', '2.0.0', { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n' }, meta)
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

const CALC = "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n"
const CALC_TEST =
  "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"

/**
 * A pnpm project on mathlib@1.0.0 declaring `packageManager`, its lockfile written by the pnpm the
 * machine has, committed without node_modules.
 */
function project(packageManager: string, files: Record<string, string> = {}): { ws: string; start: string } {
  const manifest = (pm: string): string => JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module', packageManager: pm }, null, 2) + '\n'
  const ws = makeRepo({
    'package.json': manifest(`pnpm@${PNPM_VERSION}`),
    '.gitignore': 'node_modules\n',
    'src/calc.js': CALC,
    'test/calc.test.js': CALC_TEST,
    ...files
  })
  execFileSync(
    path.join(BIN, 'pnpm'),
    ['add', 'mathlib@1.0.0', '--save-exact', '--ignore-scripts', ...(files['pnpm-workspace.yaml'] ? ['--workspace-root'] : [])],
    { cwd: ws, env, stdio: 'pipe' }
  )
  const pnpmJson = JSON.parse(readFileSync(path.join(ws, 'package.json'), 'utf8')) as Record<string, unknown>
  writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ ...pnpmJson, packageManager }, null, 2) + '\n')
  rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim() }
}

function loop(ws: string): UpgradeLoop {
  return upgradeLoop(ws, env, {
    'loop-id': 'deps',
    'gate-command': 'node --test',
    'gate-setup': 'pnpm install --frozen-lockfile --ignore-scripts',
    'agent-env': 'npm_config_registry'
  })
}

const changedIn = (ws: string, commit: string): string[] =>
  sh(ws, ['diff', '--name-only', `${commit}^`, commit])
    .trim()
    .split('\n')
    .filter(Boolean)

describe('task: dependency-upgrade (pnpm, against a local registry)', () => {
  it(
    "bumps a breaking major with the project's own pnpm: package.json and pnpm-lock.yaml only, the agent fixes the call site",
    async () => {
      const { ws, start } = project(`pnpm@${PNPM_VERSION}`)
      const shared = sharedTempDir()
      const fix = `echo call >> ${shared}/calls; cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt.txt; sed -i 's/\\badd\\b/sum/g' src/calc.js`
      const { report } = await loop(ws).run({ 'allow-major': 'true', 'agent-command': fix })
      expect(report.stopReason).toBe('verified')
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)

      const bump = sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
        .trim()
        .split('\n')[0]
      expect(sh(ws, ['log', '-1', '--format=%s', bump]).trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 2.0.0')
      expect(changedIn(ws, bump).sort()).toEqual(['package.json', 'pnpm-lock.yaml'])
      expect(JSON.parse(sh(ws, ['show', `${bump}:package.json`])).dependencies).toEqual({ mathlib: '2.0.0' })
      const lock = sh(ws, ['show', `${bump}:pnpm-lock.yaml`])
      expect(lock).toMatch(/^ {2}mathlib@2\.0\.0:$/m)
      expect(lock).not.toMatch(/mathlib@1\.0\.0/)
      // Never an npm lockfile in a pnpm project, at any commit of the run.
      expect(sh(ws, ['ls-tree', '-r', '--name-only', 'HEAD'])).not.toContain('package-lock.json')
      expect(existsSync(path.join(ws, 'package-lock.json'))).toBe(false)

      const prompt = readFileSync(path.join(shared, 'prompt.txt'), 'utf8')
      expect(prompt).toContain('Dependency upgrade: mathlib from 1.0.0 to 2.0.0 (a major upgrade, in dependencies)')
      expect(prompt).toMatch(/does not provide an export named 'add'/)
      expect(prompt).toContain('release notes: https://github.com/example/mathlib/releases')
      expect(readFileSync(report.published.files[1], 'utf8').trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 2.0.0 (major)')
    },
    LONG
  )

  it(
    'a project declaring a pnpm version the runner cannot have stops as a config error before any agent call, naming it',
    async () => {
      const { ws, start } = project('pnpm@9.99.1')
      const shared = sharedTempDir()
      await expect(loop(ws).run({ 'allow-major': 'true', 'agent-command': `touch ${shared}/called` })).rejects.toThrow(ConfigError)
      await expect(loop(ws).run({ 'allow-major': 'true', 'agent-command': `touch ${shared}/called` })).rejects.toThrow(
        /declares pnpm@9\.99\.1, but the pnpm on PATH is 10\.34\.9, and corepack does not have it offline \(loopgate never falls back to npm/
      )
      expect(existsSync(path.join(shared, 'called'))).toBe(false)
      expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(start)
      expect(sh(ws, ['status', '--porcelain'])).toBe('')
    },
    LONG
  )

  it(
    "without pnpm on PATH, the declared version comes from corepack's cache, offline",
    async () => {
      // Corepack's cache filled the way a runner's is (one download), from the local registry; the bump then runs offline.
      const pnpmCopy = path.join(tempDir('loopgate-pnpm-pkg-'), 'pnpm')
      cpSync(path.resolve('node_modules/pnpm'), pnpmCopy, { recursive: true })
      execFileSync('npm', ['publish', '--ignore-scripts'], { cwd: pnpmCopy, env, stdio: 'pipe' })
      const corepackHome = tempDir('loopgate-corepack-')
      const noPnpm = (process.env.PATH ?? '/usr/bin:/bin')
        .split(':')
        .filter((d) => !d.includes('node_modules'))
        .join(':')
      const fill = { ...env, PATH: noPnpm, COREPACK_HOME: corepackHome, COREPACK_NPM_REGISTRY: registry.url.replace(/\/$/, ''), COREPACK_INTEGRITY_KEYS: '0' }
      execFileSync('corepack', [`pnpm@${PNPM_VERSION}`, '--version'], { cwd: '/', env: { ...fill, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0' }, stdio: 'pipe' })

      const { ws, start } = project(`pnpm@${PNPM_VERSION}`)
      const runner = { ...env, PATH: noPnpm, COREPACK_HOME: corepackHome }
      const settings = { task: 'dependency-upgrade', workspace: ws, ignore: [], allowMajor: true, protectedPaths: ['test/**'] } as unknown as UpgradeSettings
      const ready = await prepareUpgrade(settings, {
        repository: GitRepository.plain(settings.workspace),
        attempts: [],
        env: packageManagerEnv(runner),
        runId: 'deps-1-1'
      })
      expect(ready.kind).toBe('ready')
      expect(sh(ws, ['rev-list', '--count', `${start}..HEAD`]).trim()).toBe('1')
      expect(changedIn(ws, 'HEAD').sort()).toEqual(['package.json', 'pnpm-lock.yaml'])
      expect(sh(ws, ['show', 'HEAD:pnpm-lock.yaml'])).toMatch(/^ {2}mathlib@2\.0\.0:$/m)

      // The same project with an empty corepack cache: the declared pnpm cannot be had.
      sh(ws, ['reset', '-q', '--hard', start])
      const empty = { ...runner, COREPACK_HOME: tempDir('loopgate-corepack-empty-') }
      await expect(
        prepareUpgrade(settings, { repository: GitRepository.plain(settings.workspace), attempts: [], env: packageManagerEnv(empty), runId: 'deps-1-2' })
      ).rejects.toThrow(/declares pnpm@10\.34\.9, but no pnpm on PATH, and corepack does not have it offline/)
    },
    LONG
  )

  it(
    "the bump runs none of the project's own install scripts, nor its pnpmfile",
    async () => {
      const shared = sharedTempDir()
      const marker = path.join(shared, 'script-ran')
      const { ws } = project(`pnpm@${PNPM_VERSION}`)
      const own = JSON.parse(readFileSync(path.join(ws, 'package.json'), 'utf8')) as Record<string, unknown>
      const scripts = { preinstall: `touch ${marker}`, install: `touch ${marker}`, postinstall: `touch ${marker}`, 'pnpm:devPreinstall': `touch ${marker}` }
      writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ ...own, scripts }, null, 2) + '\n')
      // A pnpmfile is code pnpm runs while it resolves: a hook, not a script, and just as much the project's.
      writeFileSync(
        path.join(ws, '.pnpmfile.cjs'),
        `require('fs').writeFileSync(${JSON.stringify(marker)}, 'pnpmfile')\nmodule.exports = { hooks: { readPackage: (p) => p } }\n`
      )
      sh(ws, ['add', '.pnpmfile.cjs'])
      sh(ws, ['commit', '-q', '-am', 'own install scripts and a pnpmfile'])
      const settings = { task: 'dependency-upgrade', workspace: ws, ignore: [], allowMajor: true, protectedPaths: ['test/**'] } as unknown as UpgradeSettings
      const ready = await prepareUpgrade(settings, {
        repository: GitRepository.plain(settings.workspace),
        attempts: [],
        env: packageManagerEnv(env),
        runId: 'deps-1-1'
      })
      expect(ready.kind).toBe('ready')
      expect(sh(ws, ['log', '-1', '--format=%s']).trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 2.0.0')
      expect(existsSync(marker)).toBe(false)
    },
    LONG
  )

  it(
    'in a workspace, a dependency several packages share is bumped in all of them in one commit; a pin stays a pin',
    async () => {
      const pkg = (name: string): string => JSON.stringify({ name, version: '1.0.0', type: 'module' }, null, 2) + '\n'
      const { ws, start } = project(`pnpm@${PNPM_VERSION}`, {
        'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
        'packages/a/package.json': pkg('a'),
        'packages/b/package.json': pkg('b')
      })
      execFileSync(path.join(BIN, 'pnpm'), ['add', 'mathlib@1.0.0', '--save-exact', '--filter', 'a'], { cwd: ws, env, stdio: 'pipe' })
      execFileSync(path.join(BIN, 'pnpm'), ['add', 'mathlib@^1.0.0', '--filter', 'b', '--save-dev'], { cwd: ws, env, stdio: 'pipe' })
      rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
      sh(ws, ['add', '-A'])
      sh(ws, ['commit', '-q', '-m', 'workspace packages'])
      const base = sh(ws, ['rev-parse', 'HEAD']).trim()
      expect(base).not.toBe(start)

      // Through the whole run: the gate installs the workspace with pnpm, the agent fixes the root's call site.
      const { report } = await loop(ws).run({ 'allow-major': 'true', 'agent-command': "sed -i 's/\\badd\\b/sum/g' src/calc.js" })
      expect(report.stopReason).toBe('verified')
      const bump = sh(ws, ['rev-list', '--reverse', `${base}..HEAD`])
        .trim()
        .split('\n')[0]
      expect(
        sh(ws, ['log', '--format=%s', `${base}..HEAD`])
          .trim()
          .split('\n')
          .reverse()
      ).toEqual(['chore(deps): bump mathlib from 1.0.0 to 2.0.0', 'loopgate: iteration 1'])
      expect(changedIn(ws, bump).sort()).toEqual(['package.json', 'packages/a/package.json', 'packages/b/package.json', 'pnpm-lock.yaml'])
      expect(JSON.parse(sh(ws, ['show', `${bump}:package.json`])).dependencies).toEqual({ mathlib: '2.0.0' })
      expect(JSON.parse(sh(ws, ['show', `${bump}:packages/a/package.json`])).dependencies).toEqual({ mathlib: '2.0.0' })
      expect(JSON.parse(sh(ws, ['show', `${bump}:packages/b/package.json`])).devDependencies).toEqual({ mathlib: '^2.0.0' })
      const lock = sh(ws, ['show', `${bump}:pnpm-lock.yaml`])
      expect(lock).not.toMatch(/mathlib@1\.0\.0/)
      expect(lock.match(/^ {8}version: 2\.0\.0$/gm)).toHaveLength(3)
    },
    LONG
  )
})
