/** The gate's pnpm: an offline install from the runner's warm store, which the gate user cannot write. */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { runAttack } from './helpers/gate-fixture.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

const LONG = 300_000
const BIN = path.resolve('node_modules/.bin')

let registry: LocalRegistry

beforeAll(async () => {
  registry = await startRegistry()
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, { type: 'module', main: 'index.js' })
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

/** Every file of the store with its content hash, its owner and its mode: what the runner has. */
const storeState = (store: string): string =>
  execFileSync('sh', ['-c', 'find . -type f -exec sha256sum {} + | sort && find . -printf "%p %u %m\\n" | sort'], { cwd: store, encoding: 'utf8' })

/**
 * A runner whose HOME (only its user's) holds a pnpm store warmed by one install of the project,
 * and the project itself: pnpm-lock.yaml from that install, committed without node_modules; its
 * one test fails until the agent's fix.
 */
function runnerWithPnpmStore(layout: 'data folder' | 'PNPM_HOME'): { home: string; store: string; ws: string; env: Record<string, string> } {
  const home = tempDir('loopgate-runner-home-')
  chmodSync(home, 0o700)
  // pnpm/action-setup sets PNPM_HOME (where it puts pnpm), and pnpm keeps its store in it.
  const pnpmHome = path.join(home, 'setup-pnpm', 'node_modules', '.bin')
  const store = layout === 'PNPM_HOME' ? path.join(pnpmHome, 'store') : path.join(home, '.local', 'share', 'pnpm', 'store')
  const runnerEnv: Record<string, string> = { HOME: home, PATH: `${BIN}:${process.env.PATH}`, ...(layout === 'PNPM_HOME' ? { PNPM_HOME: pnpmHome } : {}) }
  mkdirSync(store, { recursive: true })
  const ws = makeRepo({
    '.gitignore': 'node_modules\n',
    'package.json': JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module', dependencies: { mathlib: '1.0.0' } }, null, 2) + '\n',
    'src/answer.mjs': "import { add } from 'mathlib'\n\nexport const answer = () => add(40, 2) + 1\n",
    'test/run.mjs': [
      "import { answer } from '../src/answer.mjs'",
      'const ok = answer() === 42',
      "console.log((ok ? '✓' : '✕') + ' the answer comes from mathlib')",
      'process.exit(ok ? 0 : 1)',
      ''
    ].join('\n')
  })
  execFileSync(path.join(BIN, 'pnpm'), ['install', '--ignore-scripts'], { cwd: ws, env: { ...process.env, ...registry.env, ...runnerEnv }, stdio: 'pipe' })
  expect(readdirSync(store)).toEqual(['v10'])
  rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  return { home, store, ws, env: runnerEnv }
}

test.each(['data folder', 'PNPM_HOME'] as const)(
  "gate-setup `pnpm install --frozen-lockfile --offline` installs from the runner's warm store (in its %s), as the gate user, and never writes it",
  async (layout) => {
    const runner = runnerWithPnpmStore(layout)
    const before = storeState(runner.store)
    const r = await runAttack({
      isolation: 'auto',
      workspace: runner.ws,
      env: runner.env,
      // PNPM_HOME passed on to the gate as well: its pnpm still never uses the runner's store in place.
      inputs: { 'gate-setup': 'pnpm install --frozen-lockfile --offline', 'gate-command': 'node test/run.mjs', 'agent-env': 'PNPM_HOME' },
      script: "sed -i 's/ + 1$//' src/answer.mjs\n"
    })
    const output = r.report.run?.iterations[0].gate?.outputTail ?? r.report.notes.join('\n')
    expect(output).not.toMatch(/ERR_PNPM|EACCES|EPERM/)
    expect(r.report.notes).toContain("gate-setup reads the runner's package caches (pnpm) read-only, in a fresh HOME each gate run")
    expect(r.report.notes.find((n) => n.startsWith('protected gate:'))).toContain('baseline 1 test(s)')
    expect(output).toContain('✓ the answer comes from mathlib')
    expect(r.report.stopReason).toBe('verified')
    expect(storeState(runner.store)).toBe(before)
  },
  LONG
)
