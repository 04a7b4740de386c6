import { GitRepository } from '../src/git/repository.js'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ConfigError } from '../src/errors.js'
import { prepareUpgrade, type UpgradeSettings } from '../src/upgrade/prepare.js'
import { packageManagerEnv } from '../src/upgrade/environment.js'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { corepackYarnShim, pathWithout } from './helpers/yarn-bins.js'

const LONG = 300_000
/** The pinned dev dependency `@yarnpkg/cli-dist`: the Yarn Berry release corepack fetches from the local registry. */
const BERRY = JSON.parse(readFileSync(path.resolve('node_modules/@yarnpkg/cli-dist/package.json'), 'utf8')) as { version: string }

let registry: LocalRegistry
/** The runner: corepack's `yarn` shim on PATH (no other yarn), corepack's cache filled with Berry from the local registry. */
let env: NodeJS.ProcessEnv

/** Publishes the installed `@yarnpkg/cli-dist` to the local registry as its own tarball (npm pack, then npm publish). */
function publishBerry(): void {
  const out = tempDir('loopgate-berry-pack-')
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', out, path.resolve('node_modules/@yarnpkg/cli-dist')], {
    env: { ...process.env, ...registry.env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  })
  execFileSync('npm', ['publish', '--ignore-scripts', path.join(out, packed.trim().split('\n').pop()!)], {
    env: { ...process.env, ...registry.env },
    stdio: 'pipe'
  })
}

beforeAll(async () => {
  registry = await startRegistry()
  const meta = { type: 'module', main: 'index.js', repository: { type: 'git', url: 'git+https://github.com/example/mathlib.git' } }
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish(
    'mathlib',
    '2.0.0',
    { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n', 'CHANGELOG.md': '# 2.0.0\n\n`add` is now `sum`.\n' },
    meta
  )
  publishBerry()
  const corepack = {
    COREPACK_HOME: tempDir('loopgate-corepack-'),
    COREPACK_NPM_REGISTRY: registry.url.replace(/\/$/, ''),
    // The local registry signs nothing: corepack's check of npm's signing keys is off for it.
    COREPACK_INTEGRITY_KEYS: '0'
  }
  const shim = corepackYarnShim()
  env = { ...process.env, ...registry.env, ...corepack, PATH: `${shim}:${pathWithout()}`, YARN_GLOBAL_FOLDER: tempDir('loopgate-yarn-global-') }
  // The runner's one download, as a workflow's first `yarn` does: the run itself is offline for corepack.
  execFileSync('corepack', [`yarn@${BERRY.version}`, '--version'], { cwd: '/', env, stdio: 'pipe' })
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

const CALC = "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n"
const CALC_TEST =
  "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"
const GITIGNORE = 'node_modules\n.yarn/*\n!.yarn/releases\n!.yarn/plugins\n.pnp.*\n'

const yarnrc = (linker: string | null): string =>
  [
    ...(linker ? [`nodeLinker: ${linker}`] : []),
    `npmRegistryServer: "${registry.url.replace(/\/$/, '')}"`,
    'unsafeHttpWhitelist:\n  - 127.0.0.1',
    // Yarn 4's age gate holds back what was published in the last day: these were published seconds ago.
    'npmMinimalAgeGate: 0',
    ''
  ].join('\n')

/** A Yarn Berry project on mathlib@^1.0.0, its yarn.lock written by Berry itself, committed without node_modules. */
interface ProjectOptions {
  packageManager?: string
  linker?: string | null
  /** Written into package.json after the lockfile. */
  extra?: Record<string, unknown>
  /** Workspace packages: the root declares `packages/*`. */
  packages?: Record<string, Record<string, string>>
  /** Zero-installs: the archives in the project's `.yarn/cache`, committed (`enableGlobalCache: false`). */
  zeroInstall?: boolean
}

const ZERO_INSTALL_GITIGNORE = 'node_modules\n.yarn/install-state.gz\n.yarn/unplugged\n.pnp.*\n'

function project(opts: ProjectOptions = {}): { ws: string; start: string; shared: string } {
  const workspaces = opts.packages ? { workspaces: ['packages/*'] } : {}
  const manifest = {
    name: 'proj',
    version: '1.0.0',
    private: true,
    type: 'module',
    packageManager: `yarn@${BERRY.version}`,
    ...workspaces,
    dependencies: { mathlib: '^1.0.0' }
  }
  const packages = Object.entries(opts.packages ?? {}).map(([name, dependencies]) => [
    `packages/${name}/package.json`,
    JSON.stringify({ name, version: '1.0.0', dependencies }, null, 2) + '\n'
  ])
  const ws = makeRepo({
    'package.json': JSON.stringify(manifest, null, 2) + '\n',
    '.yarnrc.yml': yarnrc(opts.linker === undefined ? 'node-modules' : opts.linker) + (opts.zeroInstall ? 'enableGlobalCache: false\n' : ''),
    '.gitignore': opts.zeroInstall ? ZERO_INSTALL_GITIGNORE : GITIGNORE,
    'src/calc.js': CALC,
    'test/calc.test.js': CALC_TEST,
    ...Object.fromEntries(packages)
  })
  const install = opts.zeroInstall ? ['install', '--mode=skip-build'] : ['install', '--mode=update-lockfile']
  execFileSync('yarn', install, { cwd: ws, env: { ...env, YARN_ENABLE_IMMUTABLE_INSTALLS: '0' }, stdio: 'pipe' })
  if (!opts.zeroInstall) rmSync(path.join(ws, '.yarn'), { recursive: true, force: true })
  const shared = sharedTempDir()
  writeFileSync(path.join(shared, 'old-yarn.lock'), readFileSync(path.join(ws, 'yarn.lock')))
  const declared = { ...manifest, packageManager: opts.packageManager ?? manifest.packageManager, ...opts.extra }
  writeFileSync(path.join(ws, 'package.json'), JSON.stringify(declared, null, 2) + '\n')
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim(), shared }
}

function loop(ws: string, runner: NodeJS.ProcessEnv = env) {
  return upgradeLoop(ws, runner, {
    'loop-id': 'deps',
    'gate-command': 'node --test',
    'gate-setup': 'yarn install --immutable',
    'agent-env': 'npm_config_registry',
    'allow-major': 'true'
  })
}

const changedIn = (ws: string, commit: string): string[] =>
  sh(ws, ['diff', '--name-only', `${commit}^`, commit])
    .trim()
    .split('\n')
    .filter(Boolean)
const bumpOf = (ws: string, start: string): string =>
  sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
    .trim()
    .split('\n')[0]
const settings = (ws: string): UpgradeSettings =>
  ({ task: 'dependency-upgrade', workspace: ws, ignore: [], allowMajor: true, protectedPaths: ['test/**'] }) as unknown as UpgradeSettings

/** A scripted agent: call n copies its prompt to prompt-n.txt and runs `steps[n-1]` (the last step for every later call). */
function agent(shared: string, steps: string[]): string {
  const script = [
    'set -e',
    `n=$(( $(cat ${shared}/calls 2>/dev/null | wc -l) + 1 ))`,
    `echo call >> ${shared}/calls`,
    `cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt-$n.txt`,
    'case $n in',
    ...steps.map((s, i) => `  ${i === steps.length - 1 ? '*' : i + 1}) ${s.replaceAll('@SHARED', shared)} ;;`),
    'esac',
    ''
  ].join('\n')
  writeFileSync(path.join(shared, 'agent.sh'), script, { mode: 0o755 })
  return `sh ${shared}/agent.sh`
}
const FIX = "sed -i 's/\\badd\\b/sum/g' src/calc.js"
const prompt = (shared: string, n: number): string => readFileSync(path.join(shared, `prompt-${n}.txt`), 'utf8')

describe('task: dependency-upgrade (Yarn Berry through corepack, against a local registry)', () => {
  it(
    "bumps a breaking major with the project's Berry: package.json and the Berry yarn.lock together, the gate's `yarn install --immutable` runs, the agent fixes the call site",
    async () => {
      const { ws, start, shared } = project()
      const { report } = await loop(ws).run({ 'agent-command': agent(shared, [FIX]) })
      expect(report.stopReason).toBe('verified')
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)

      const bump = bumpOf(ws, start)
      expect(sh(ws, ['log', '-1', '--format=%s', bump]).trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 2.0.0')
      expect(changedIn(ws, bump).sort()).toEqual(['package.json', 'yarn.lock'])
      expect(JSON.parse(sh(ws, ['show', `${bump}:package.json`])).dependencies).toEqual({ mathlib: '^2.0.0' })
      const lock = sh(ws, ['show', `${bump}:yarn.lock`])
      expect(lock).toMatch(/^__metadata:$/m)
      expect(lock).toMatch(/^"mathlib@npm:\^2\.0\.0":\n {2}version: 2\.0\.0\n {2}resolution: "mathlib@npm:2\.0\.0"\n {2}checksum: 10c0\/[0-9a-f]{128}$/m)
      expect(lock).not.toContain('1.0.0')
      expect(sh(ws, ['ls-tree', '-r', '--name-only', 'HEAD'])).not.toContain('package-lock.json')
      expect(existsSync(path.join(ws, 'package-lock.json'))).toBe(false)
      expect(existsSync(path.join(ws, '.pnp.cjs'))).toBe(false)

      const text = prompt(shared, 1)
      expect(text).toContain('Dependency upgrade: mathlib from 1.0.0 to 2.0.0 (a major upgrade, in dependencies)')
      expect(text).toMatch(/does not provide an export named 'add'/)
      expect(text).toContain('release notes: https://github.com/example/mathlib/releases')
      expect(text).toContain('changelog of the installed version: node_modules/mathlib/CHANGELOG.md')
    },
    LONG
  )

  it(
    'a declared Yarn the runner cannot have stops the whole run before any agent call, naming it: never npm, nothing committed',
    async () => {
      const shared = sharedTempDir()
      const missing = project({ packageManager: 'yarn@4.99.0' })
      const run = loop(missing.ws).run({ 'agent-command': `touch ${shared}/called` })
      await expect(run).rejects.toThrow(ConfigError)
      await expect(run).rejects.toThrow(/declares yarn@4\.99\.0, but no yarn on PATH, and corepack does not have it offline \(loopgate never falls back to npm/)

      // The declared release, but corepack's cache is empty (and corepack may not download it).
      const empty = project()
      const runner = { ...env, COREPACK_HOME: tempDir('loopgate-corepack-empty-') }
      await expect(loop(empty.ws, runner).run({ 'agent-command': `touch ${shared}/called` })).rejects.toThrow(
        new RegExp(`declares yarn@${BERRY.version.replace(/\./g, '\\.')}, but no yarn on PATH, and corepack does not have it offline`)
      )
      expect(existsSync(path.join(shared, 'called'))).toBe(false)
      for (const { ws, start } of [missing, empty]) {
        expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(start)
        expect(sh(ws, ['status', '--porcelain'])).toBe('')
        expect(existsSync(path.join(ws, 'package-lock.json'))).toBe(false)
      }
    },
    LONG
  )

  it(
    "Plug'n'Play (no nodeLinker) stops before any spend naming nodeLinker: node-modules",
    async () => {
      const shared = sharedTempDir()
      const { ws, start } = project({ linker: null })
      await expect(loop(ws).run({ 'agent-command': `touch ${shared}/called` })).rejects.toThrow(
        /\.yarnrc\.yml sets no nodeLinker \(Plug'n'Play, Yarn Berry's default\): loopgate upgrades Yarn Berry projects with nodeLinker: node-modules only; set `nodeLinker: node-modules`/
      )
      expect(existsSync(path.join(shared, 'called'))).toBe(false)
      expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(start)
    },
    LONG
  )

  it(
    'in a workspace, a dependency several packages share is bumped in all of them in one commit; a pin stays a pin',
    async () => {
      const { ws, start } = project({ packages: { a: { mathlib: '1.0.0' }, b: { mathlib: '^1.0.0' } } })
      const ready = await prepareUpgrade(settings(ws), { repository: GitRepository.plain(ws), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      expect(ready.kind).toBe('ready')
      expect(sh(ws, ['rev-list', '--count', `${start}..HEAD`]).trim()).toBe('1')
      expect(changedIn(ws, 'HEAD').sort()).toEqual(['package.json', 'packages/a/package.json', 'packages/b/package.json', 'yarn.lock'])
      expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ mathlib: '^2.0.0' })
      expect(JSON.parse(sh(ws, ['show', 'HEAD:packages/a/package.json'])).dependencies).toEqual({ mathlib: '2.0.0' })
      expect(JSON.parse(sh(ws, ['show', 'HEAD:packages/b/package.json'])).dependencies).toEqual({ mathlib: '^2.0.0' })
      const lock = sh(ws, ['show', 'HEAD:yarn.lock'])
      expect(lock).toMatch(/^"mathlib@npm:2\.0\.0, mathlib@npm:\^2\.0\.0":\n {2}version: 2\.0\.0$/m)
      expect(lock).not.toMatch(/mathlib@npm:1\.0\.0/)
      rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
    },
    LONG
  )

  it(
    "a version younger than Yarn's default age gate (a day) is no candidate yet: nothing to do, no refused bump remembered",
    async () => {
      const { ws, start } = project()
      writeFileSync(path.join(ws, '.yarnrc.yml'), readFileSync(path.join(ws, '.yarnrc.yml'), 'utf8').replace('npmMinimalAgeGate: 0\n', ''))
      sh(ws, ['commit', '-q', '-am', "Yarn's default age gate"])
      const result = await prepareUpgrade(settings(ws), { repository: GitRepository.plain(ws), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      expect(result.kind).toBe('stop')
      expect(result.attempts).toEqual([])
      expect(sh(ws, ['rev-list', '--count', `${start}..HEAD`]).trim()).toBe('1')
    },
    LONG
  )

  it(
    "the bump runs none of the project's own install scripts",
    async () => {
      const marker = path.join(sharedTempDir(), 'script-ran')
      const scripts = { preinstall: `touch ${marker}`, install: `touch ${marker}`, postinstall: `touch ${marker}` }
      const { ws } = project({ extra: { scripts } })
      const ready = await prepareUpgrade(settings(ws), { repository: GitRepository.plain(ws), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      expect(ready.kind).toBe('ready')
      expect(sh(ws, ['log', '-1', '--format=%s']).trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 2.0.0')
      expect(existsSync(path.join(ws, 'node_modules/mathlib/CHANGELOG.md'))).toBe(true)
      expect(existsSync(marker)).toBe(false)
      expect(existsSync(path.join(ws, '.yarn'))).toBe(false)
      rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
    },
    LONG
  )

  it(
    "zero-installs: the bump commit adds the new version's archive to the committed .yarn/cache and drops the old one, so an --immutable-cache install of the bump passes",
    async () => {
      const { ws, start } = project({ zeroInstall: true })
      const archivesAt = (rev: string): string[] =>
        sh(ws, ['ls-tree', '--name-only', `${rev}:.yarn/cache`])
          .trim()
          .split('\n')
          .filter((f) => f.startsWith('mathlib-'))
      const [old] = archivesAt(start)
      expect(old).toMatch(/^mathlib-npm-1\.0\.0-[0-9a-f]+-[0-9a-f]+\.zip$/)

      const ready = await prepareUpgrade(settings(ws), { repository: GitRepository.plain(ws), attempts: [], env: packageManagerEnv(env), runId: 'deps-1-1' })
      expect(ready.kind).toBe('ready')
      expect(sh(ws, ['rev-list', '--count', `${start}..HEAD`]).trim()).toBe('1')
      const [added] = archivesAt('HEAD')
      expect(added).toMatch(/^mathlib-npm-2\.0\.0-[0-9a-f]+-[0-9a-f]+\.zip$/)
      expect(archivesAt('HEAD')).toEqual([added])
      expect(changedIn(ws, 'HEAD').sort()).toEqual([`.yarn/cache/${added}`, `.yarn/cache/${old}`, 'package.json', 'yarn.lock'].sort())
      expect(sh(ws, ['status', '--porcelain'])).toBe('')

      // What the project's own CI does with the pull request: a fresh clone, no registry, the committed cache only.
      const clone = tempDir('loopgate-berry-clone-')
      execFileSync('git', ['clone', '-q', ws, clone], { stdio: 'pipe' })
      const offline = { ...env, YARN_NPM_REGISTRY_SERVER: 'http://127.0.0.1:9', YARN_ENABLE_NETWORK: '0', YARN_GLOBAL_FOLDER: tempDir('loopgate-yarn-global-') }
      execFileSync('yarn', ['install', '--immutable', '--immutable-cache', '--mode=skip-build'], { cwd: clone, env: offline, stdio: 'pipe' })
      expect(JSON.parse(readFileSync(path.join(clone, 'node_modules/mathlib/package.json'), 'utf8')).version).toBe('2.0.0')
      rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
    },
    LONG
  )

  it(
    'zero-installs: an archive the agent rewrites or adds in the committed .yarn/cache is refused and put back as the bump has it; the code fix lands',
    async () => {
      const { ws, start, shared } = project({ zeroInstall: true })
      const tamper = `${FIX} && for f in .yarn/cache/mathlib-npm-2*.zip; do echo not-a-zip > "$f"; done && echo extra > .yarn/cache/chai-npm-9.9.9-0-0.zip`
      const { report } = await loop(ws).run({ 'agent-command': agent(shared, [tamper]) })
      expect(report.stopReason).toBe('verified')
      const [first] = report.run?.iterations ?? []
      expect(first.tampered).toBe(true)
      expect(first.rejected.join('\n')).toMatch(/\.yarn\/cache\/chai-npm-9\.9\.9-0-0\.zip \(added \(a dependency folder/)
      expect(first.rejected.join('\n')).toMatch(/\.yarn\/cache\/mathlib-npm-2\.0\.0-[0-9a-f-]+\.zip \(modified \(a dependency folder/)
      const bump = bumpOf(ws, start)
      expect(sh(ws, ['diff', '--name-only', bump, 'HEAD']).trim()).toBe('src/calc.js')
      expect(sh(ws, ['status', '--porcelain', '--', '.yarn'])).toBe('')
    },
    LONG
  )

  it(
    "yarn.lock put back to the old version by the agent: rejected as loopgate's fixed bump, twice is protected-tampering",
    async () => {
      const { ws, start, shared } = project()
      const { report } = await loop(ws).run({ 'agent-command': agent(shared, ['cp @SHARED/old-yarn.lock yarn.lock']) })
      expect(report.stopReason).toBe('protected-tampering')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, true])
      expect(prompt(shared, 2)).toMatch(/mathlib is loopgate's own bump to 2\.0\.0 in this run and is fixed: fix the code forward/)
      expect(prompt(shared, 2)).toContain('yarn.lock')
      expect(sh(ws, ['show', 'HEAD:yarn.lock'])).toMatch(/resolution: "mathlib@npm:2\.0\.0"/)
      expect(sh(ws, ['diff', '--name-only', bumpOf(ws, start), 'HEAD']).trim()).toBe('')
    },
    LONG
  )
})
