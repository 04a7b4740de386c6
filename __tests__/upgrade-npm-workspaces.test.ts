import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { lockfileRefusals, manifestRefusals, type DependencyPolicy } from '../src/gate/dependencies/dependency-policy.js'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir } from './helpers/repo.js'

const LONG = 300_000

let registry: LocalRegistry
let marker: string

beforeAll(async () => {
  registry = await startRegistry()
  marker = path.join(sharedTempDir(), 'script-ran')
  const meta = { type: 'module', main: 'index.js', repository: { type: 'git', url: 'git+https://github.com/example/mathlib.git' } }
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  // The new major renames its export, and would run an install script if anything let it.
  registry.publish('mathlib', '2.0.0', { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n' }, { ...meta, scripts: { install: `touch ${marker}` } })
  registry.publish('padding', '1.0.0', { 'index.js': 'module.exports = (s) => ` ${s}`\n' })
  registry.publish('padding', '1.0.1', { 'index.js': 'module.exports = (s) => ` ${s}`\n' })
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

const manifest = (name: string, extra: Record<string, unknown>): string =>
  JSON.stringify({ name, version: '1.0.0', private: true, type: 'module', ...extra }, null, 2) + '\n'
const calc = "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n"
const calcTest =
  "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"

/**
 * Three workspace packages under one package-lock.json: a pins mathlib, b takes it with a caret
 * range (and depends on a, a package of the workspace), c depends on padding only and has its own
 * install script.
 */
function project(): { ws: string; start: string } {
  const ws = makeRepo({
    'package.json': manifest('mono', { workspaces: ['packages/*'] }),
    '.gitignore': 'node_modules\n',
    'packages/a/package.json': manifest('a', { dependencies: { mathlib: '1.0.0' } }),
    'packages/a/src/calc.js': calc,
    'packages/a/test/calc.test.js': calcTest,
    'packages/b/package.json': manifest('b', { dependencies: { a: '^1.0.0', mathlib: '^1.0.0' } }),
    'packages/b/src/calc.js': calc,
    'packages/b/test/calc.test.js': calcTest,
    'packages/c/package.json': manifest('c', { dependencies: { padding: '1.0.0' }, scripts: { postinstall: `touch ${marker}` } })
  })
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ws, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
  rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'three workspace packages'])
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim() }
}

const changedIn = (ws: string, commit: string): string[] =>
  sh(ws, ['diff', '--name-only', `${commit}^`, commit])
    .trim()
    .split('\n')
    .filter(Boolean)

const policy = (mode: DependencyPolicy['mode'], pinned: string[]): DependencyPolicy => ({
  mode,
  pinned,
  registryHosts: [registry.url],
  isRunner: () => false
})

describe('task: dependency-upgrade (npm workspaces, against a local registry)', () => {
  it(
    'a dependency two workspace packages share is bumped in both in one commit, pin kept, scripts off; the agent fixes both call sites',
    async () => {
      const { ws, start } = project()
      const shared = sharedTempDir()
      const fix = `echo call >> ${shared}/calls; cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt.txt; sed -i 's/\\badd\\b/sum/g' packages/a/src/calc.js packages/b/src/calc.js`
      const loop = upgradeLoop(
        ws,
        { ...process.env, npm_config_registry: registry.url },
        { 'loop-id': 'deps', 'gate-command': 'node --test', 'gate-setup': 'npm ci --ignore-scripts --no-audit --no-fund', 'agent-env': 'npm_config_registry' }
      )
      const { report } = await loop.run({ 'allow-major': 'true', 'agent-command': fix })
      expect(report.stopReason).toBe('verified')
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)

      // One upgrade per run: mathlib (first by name), not padding.
      const commits = sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
        .trim()
        .split('\n')
      expect(commits.map((c) => sh(ws, ['log', '-1', '--format=%s', c]).trim())).toEqual([
        'chore(deps): bump mathlib from 1.0.0 to 2.0.0',
        'loopgate: iteration 1'
      ])
      const bump = commits[0]
      expect(changedIn(ws, bump).sort()).toEqual(['package-lock.json', 'packages/a/package.json', 'packages/b/package.json'])
      expect(JSON.parse(sh(ws, ['show', `${bump}:packages/a/package.json`])).dependencies).toEqual({ mathlib: '2.0.0' })
      expect(JSON.parse(sh(ws, ['show', `${bump}:packages/b/package.json`])).dependencies).toEqual({ a: '^1.0.0', mathlib: '^2.0.0' })
      const lock = JSON.parse(sh(ws, ['show', `${bump}:package-lock.json`])) as { packages: Record<string, { version?: string }> }
      const mathlibs = Object.entries(lock.packages).filter(([k]) => k.endsWith('node_modules/mathlib'))
      expect(mathlibs.map(([k, v]) => [k, v.version])).toEqual([['node_modules/mathlib', '2.0.0']])
      expect(lock.packages['node_modules/padding'].version).toBe('1.0.0')
      expect(existsSync(marker)).toBe(false)

      const prompt = readFileSync(path.join(shared, 'prompt.txt'), 'utf8')
      expect(prompt).toContain('Dependency upgrade: mathlib from 1.0.0 to 2.0.0 (a major upgrade, in dependencies)')
      expect(prompt).toMatch(/does not provide an export named 'add'/)
      // A package of the workspace is never looked up in the registry.
      expect(report.notes.join('\n')).not.toMatch(/not upgraded: a:/)

      // The bump changes mathlib's entries and the workspace packages' mirrors of their manifests, nothing else.
      const before = (file: string): string => sh(ws, ['show', `${start}:${file}`])
      const after = (file: string): string => sh(ws, ['show', `${bump}:${file}`])
      const lockChange = { before: before('package-lock.json'), after: after('package-lock.json') }
      expect(lockfileRefusals('package-lock.json', lockChange, policy('registry', []))).toEqual([])
      const pinned = lockfileRefusals('package-lock.json', lockChange, policy('registry', ['mathlib']))
      expect(pinned).toEqual([expect.stringMatching(/^node_modules\/mathlib changed: mathlib is loopgate's own bump/)])
      for (const file of ['packages/a/package.json', 'packages/b/package.json']) {
        const change = { before: before(file), after: after(file) }
        expect(manifestRefusals('package-json', change, policy('registry', []))).toEqual([])
        expect(manifestRefusals('package-json', change, policy('registry', ['mathlib']))).toEqual([expect.stringContaining('dependencies.mathlib changed')])
      }
    },
    LONG
  )
})
