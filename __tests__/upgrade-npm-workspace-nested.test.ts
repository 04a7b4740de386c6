import { GitRepository } from '../src/git/repository.js'
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { prepareUpgrade, type UpgradeSettings } from '../src/upgrade/prepare.js'
import { packageManagerEnv } from '../src/upgrade/environment.js'
import { upgradeTask } from '../src/upgrade/task-prompt.js'
import type { GateVerdict } from '../src/loop/engine-types.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh } from './helpers/repo.js'

const LONG = 240_000

let registry: LocalRegistry

beforeAll(async () => {
  registry = await startRegistry()
  registry.publish('mathlib', '1.0.0', { 'index.js': 'exports.add = (a, b) => a + b\n' })
  registry.publish('mathlib', '2.0.0', { 'index.js': 'exports.sum = (a, b) => a + b\n', 'CHANGELOG.md': '# 2.0.0\n\n`add` is `sum`.\n' })
  // The root's own dependency keeps mathlib 1 at the top of node_modules.
  registry.publish('legacy', '1.0.0', { 'index.js': "module.exports = require('mathlib').add\n" }, { dependencies: { mathlib: '^1.0.0' } })
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

const manifest = (name: string, extra: Record<string, unknown>): string => JSON.stringify({ name, version: '1.0.0', private: true, ...extra }, null, 2) + '\n'

describe('npm workspaces: a workspace package bumped to a major the root does not take', () => {
  it(
    "the installed copy the agent is pointed at is the package's own nested copy, where npm put the new version",
    async () => {
      const ws = makeRepo({
        'package.json': manifest('mono', { workspaces: ['packages/*'], dependencies: { legacy: '1.0.0' } }),
        '.gitignore': 'node_modules\n',
        'packages/a/package.json': manifest('a', { dependencies: { mathlib: '^1.0.0' } })
      })
      const env = { ...process.env, ...registry.env }
      execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ws, env, stdio: 'pipe' })
      rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
      sh(ws, ['add', '-A'])
      sh(ws, ['commit', '-q', '-m', 'workspace'])

      const settings = { task: 'dependency-upgrade', workspace: ws, ignore: ['legacy'], allowMajor: true, protectedPaths: [] } as unknown as UpgradeSettings
      const ready = await prepareUpgrade(settings, {
        repository: GitRepository.plain(settings.workspace),
        attempts: [],
        env: packageManagerEnv(env),
        runId: 'deps-1-1'
      })
      if (ready?.kind !== 'ready') throw new Error(`not ready: ${JSON.stringify(ready)}`)
      expect(ready.candidate).toMatchObject({ name: 'mathlib', from: '1.0.0', to: '2.0.0' })
      const lock = JSON.parse(sh(ws, ['show', 'HEAD:package-lock.json'])) as { packages: Record<string, { version?: string }> }
      expect(lock.packages['node_modules/mathlib'].version).toBe('1.0.0')
      expect(lock.packages['packages/a/node_modules/mathlib'].version).toBe('2.0.0')

      expect(ready.candidate.installedCopy).toBe('packages/a/node_modules/mathlib')
      expect(JSON.parse(readFileSync(path.join(ws, 'packages/a/node_modules/mathlib/package.json'), 'utf8')).version).toBe('2.0.0')
      expect(ready.releaseNotes).toContain('changelog of the installed version: packages/a/node_modules/mathlib/CHANGELOG.md')
      const verdict = { passed: false, reason: 'exit 1', failures: [], outputTail: '' } as unknown as GateVerdict
      const prompt = upgradeTask({ ...ready, gateCommand: 'node --test', verdict })
      expect(prompt).toContain('and installed it in packages/a/node_modules.')
    },
    LONG
  )
})
