/**
 * A dependency-upgrade run whose registry cannot be read stops `config-error` before anything is
 * spent, naming the package manager and what it said, and ends its lease on the loop: the next run
 * of the same loop is not held until the failed run's deadline.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './helpers/action-runner.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const LONG = 300_000

let registry: LocalRegistry

beforeAll(async () => {
  registry = await startRegistry()
  const meta = { type: 'module', main: 'index.js' }
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish('mathlib', '1.1.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } })
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` }
}

it(
  'a run whose upgrade lookup fails stops config-error and releases its lease: the next run of the loop is admitted and runs',
  () => {
    const ws = makeRepo({
      'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module' }, null, 2),
      '.gitignore': 'node_modules\n',
      'test/ok.test.js': "import { test } from 'node:test'\ntest('ok', () => {})\n"
    })
    execFileSync('npm', ['install', 'mathlib@1.0.0', '--no-audit', '--no-fund'], { cwd: ws, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
    sh(ws, ['add', '-A'])
    sh(ws, ['commit', '-q', '-m', 'mathlib 1.0.0'])
    const shared = sharedTempDir()
    const args = [
      'run',
      '--task',
      'dependency-upgrade',
      '--loop-id',
      'deps',
      '--agent',
      'command',
      '--agent-command',
      `echo call >> ${shared}/calls`,
      '--max-iterations',
      '1',
      '--gate-command',
      'node --test'
    ]
    // Nothing listens on port 9: npm cannot read the registry.
    const failed = cli(args, ws, { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' })
    expect(failed.out).toMatch(/stop-reason: config-error/)
    expect(failed.status).toBe(23)
    expect(failed.out).toMatch(/npm could not list the outdated dependencies: npm outdated failed.*ECONNREFUSED.*Check that the registry is reachable/)
    expect(failed.out).not.toMatch(/^\s+at /m)
    expect(existsSync(path.join(shared, 'calls'))).toBe(false)

    const next = cli(args, ws, { npm_config_registry: registry.url })
    expect(next.out).not.toMatch(/another run of the loop/)
    expect(next.out).toMatch(/stop-reason: (?:verified|max-iterations)/)
    expect(sh(ws, ['show', 'loopgate/deps:package.json'])).toContain('"mathlib": "^1.1.0"')
  },
  LONG
)
