import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './helpers/action-runner.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { buggyProject, makeRepo, sh, sharedTempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const LONG = 300_000

let registry: LocalRegistry

beforeAll(async () => {
  registry = await startRegistry()
  const meta = { type: 'module', main: 'index.js' }
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish('mathlib', '1.1.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish('mathlib', '2.0.0', { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n' }, meta)
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** A project on mathlib@^1 (locked at 1.0.0) whose test goes through the call site. */
function project(): string {
  const ws = makeRepo({
    'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module' }, null, 2),
    '.gitignore': 'node_modules\n',
    'src/calc.js': "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n",
    'test/calc.test.js':
      "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"
  })
  execFileSync('npm', ['install', 'mathlib@1.0.0', '--no-audit', '--no-fund'], { cwd: ws, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'mathlib 1.0.0'])
  return ws
}

describe('the loop state persists between CLI runs of one loop', () => {
  it(
    'a second dependency-upgrade run does not retry the package@version that just failed',
    () => {
      const ws = project()
      const shared = sharedTempDir()
      const args = [
        'run',
        '--task',
        'dependency-upgrade',
        '--allow-major',
        'true',
        '--loop-id',
        'deps',
        '--agent',
        'command',
        '--agent-command',
        `echo call >> ${shared}/calls`,
        '--max-iterations',
        '1',
        '--gate-command',
        'node --test',
        '--gate-setup',
        'npm ci --no-audit --no-fund',
        '--agent-env',
        'npm_config_registry'
      ]
      const env = { npm_config_registry: registry.url }
      const first = cli(args, ws, env)
      expect(first.stdout).toContain('stop-reason: max-iterations')
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)

      const second = cli(args, ws, env)
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)
      expect(second.stdout).toMatch(/not upgraded: mathlib 1\.0\.0 → 2\.0\.0: mathlib 1\.0\.0 → 2\.0\.0 failed/)
      expect(second.stdout).toContain('stop-reason: verified')
      const stateDir = path.join(ws, '.git', 'loopgate', 'state', 'deps')
      expect(existsSync(stateDir)).toBe(true)
      // One saved state per run, beside the runs' charge and lease records.
      const keys = readdirSync(stateDir).map((d) => readFileSync(path.join(stateDir, d, '.loopgate-key'), 'utf8'))
      expect(keys.filter((k) => !/@(?:charges|lease)-/.test(k))).toHaveLength(2)
      expect(keys.filter((k) => k.includes('@charges-'))).toHaveLength(2)
      expect(sh(ws, ['log', '--format=%s', 'main..loopgate/deps']).trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 1.1.0')
    },
    LONG
  )

  it(
    'the charges of earlier runs count toward --period-ceiling-usd',
    () => {
      const ws = makeRepo(buggyProject())
      const args = ['run', '--agent', 'command', '--agent-command', 'date +%N >> notes', '--prompt', 'x', '--gate-command', 'node test/run.mjs']
      const first = cli([...args, '--period-ceiling-usd', '10', '--max-iterations', '2'], ws)
      expect(first.stdout).toMatch(/^iteration 2: .*\$8\.00/m)
      const second = cli([...args, '--period-ceiling-usd', '10', '--max-iterations', '2'], ws)
      expect(second.stdout).not.toMatch(/^iteration 1/m)
      expect(second.stdout).toContain('stop-reason: period-ceiling')
    },
    LONG
  )
})
