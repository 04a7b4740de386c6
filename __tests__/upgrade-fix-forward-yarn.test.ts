import { execFileSync } from 'node:child_process'
import { cpSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { bumpAfter, promptOf, scriptedAgent } from './helpers/scripted-agent.js'
import { yarnClassicBin } from './helpers/yarn-bins.js'

const LONG = 300_000
const BIN = path.resolve('node_modules/.bin')
// node_modules/.bin/yarn may be Yarn Berry: this project is Yarn classic's.
const CLASSIC = yarnClassicBin()

let registry: LocalRegistry
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  registry = await startRegistry()
  env = { ...process.env, ...registry.env, PATH: `${CLASSIC}:${BIN}:${process.env.PATH ?? '/usr/bin:/bin'}` }
  const meta = { type: 'module', main: 'index.js' }
  registry.publish('helper', '1.0.0', { 'index.js': 'export const help = 1\n' }, meta)
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish('mathlib', '2.0.0', { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n' }, meta)
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

const manifest = (deps: Record<string, string>): string =>
  JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module', dependencies: deps }, null, 2) + '\n'
const yarnInstall = (cwd: string): void =>
  void execFileSync(path.join(CLASSIC, 'yarn'), ['install', '--ignore-scripts', '--non-interactive'], {
    cwd,
    env: { ...env, YARN_IGNORE_PATH: '1' },
    stdio: 'pipe'
  })

/**
 * A Yarn classic project on mathlib@^1.0.0 (its yarn.lock written by yarn), committed without
 * node_modules; `shared` holds the base's lockfile and the manifest and lockfile yarn writes for
 * mathlib ^2.0.0 with helper beside it.
 */
function project(): { ws: string; start: string; shared: string } {
  const ws = makeRepo({
    'package.json': manifest({ mathlib: '^1.0.0' }),
    '.gitignore': 'node_modules\n',
    'src/calc.js': "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n",
    'test/calc.test.js':
      "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"
  })
  yarnInstall(ws)
  rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  const shared = sharedTempDir()
  cpSync(path.join(ws, 'yarn.lock'), path.join(shared, 'old-yarn.lock'))
  const scratch = tempDir('loopgate-yarn-helper-')
  writeFileSync(path.join(scratch, 'package.json'), manifest({ helper: '^1.0.0', mathlib: '^2.0.0' }))
  yarnInstall(scratch)
  for (const f of ['package.json', 'yarn.lock']) cpSync(path.join(scratch, f), path.join(shared, `with-helper-${f}`))
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim(), shared }
}

const FIX = "sed -i 's/\\badd\\b/sum/g' src/calc.js"
const DOWNGRADE = `sed -i 's/"mathlib": "^2.0.0"/"mathlib": "^1.0.0"/' package.json`
const FIXED = /mathlib is loopgate's own bump to 2\.0\.0 in this run and is fixed: fix the code forward/

function run(ws: string, inputs: Record<string, string>) {
  return upgradeLoop(ws, env, {
    'loop-id': 'deps',
    'gate-command': 'node --test',
    'gate-setup': 'yarn install --frozen-lockfile --ignore-scripts --non-interactive',
    'agent-env': 'npm_config_registry',
    'allow-major': 'true',
    'max-iterations': '3'
  }).run(inputs)
}

describe('task: dependency-upgrade (Yarn classic): the bump is loopgate’s, the agent fixes forward', () => {
  it(
    'a downgrade in package.json is rejected and undone, the next prompt says why; the code fix is verified',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': scriptedAgent(shared, [DOWNGRADE, FIX]) })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, false])
      expect(promptOf(shared, 2)).toMatch(FIXED)
      expect(promptOf(shared, 2)).toContain('package.json')
      expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ mathlib: '^2.0.0' })
      expect(sh(ws, ['diff', '--name-only', bumpAfter(ws, start), 'HEAD']).trim()).toBe('src/calc.js')
    },
    LONG
  )

  it(
    'yarn.lock alone put back to the old version: rejected, undone, twice is protected-tampering',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': scriptedAgent(shared, ['cp @SHARED/old-yarn.lock yarn.lock']) })
      expect(report.stopReason).toBe('protected-tampering')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, true])
      expect(promptOf(shared, 2)).toMatch(FIXED)
      expect(report.run?.iterations[0].rejected.join('\n')).toMatch(/yarn\.lock \(.*mathlib@\^2\.0\.0 removed/)
      expect(sh(ws, ['show', 'HEAD:yarn.lock'])).toMatch(/^mathlib@\^2\.0\.0:\n {2}version "2\.0\.0"$/m)
      expect(sh(ws, ['diff', '--name-only', bumpAfter(ws, start), 'HEAD']).trim()).toBe('')
    },
    LONG
  )

  it(
    'under dependency-changes: registry another dependency from the registry may come with the fix: verified, the bump untouched',
    async () => {
      const { ws, start, shared } = project()
      const addHelper = `cp @SHARED/with-helper-package.json package.json; cp @SHARED/with-helper-yarn.lock yarn.lock; ${FIX}`
      const { report } = await run(ws, { 'dependency-changes': 'registry', 'agent-command': scriptedAgent(shared, [addHelper]) })
      if (report.stopReason !== 'verified') console.log(JSON.stringify(report.run?.iterations, null, 1).slice(0, 4000))
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([false])
      expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ helper: '^1.0.0', mathlib: '^2.0.0' })
      expect(sh(ws, ['diff', bumpAfter(ws, start), 'HEAD', '--', 'yarn.lock'])).not.toMatch(/^[-+].*mathlib/m)
    },
    LONG
  )
})
