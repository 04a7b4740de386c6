import { execFileSync } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'
import path from 'node:path'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { bumpAfter, promptOf, scriptedAgent } from './helpers/scripted-agent.js'

const LONG = 300_000
const BIN = path.resolve('node_modules/.bin')

let registry: LocalRegistry
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  registry = await startRegistry()
  env = { ...process.env, ...registry.env, PATH: `${BIN}:${process.env.PATH ?? '/usr/bin:/bin'}` }
  const meta = { type: 'module', main: 'index.js' }
  registry.publish('helper', '1.0.0', { 'index.js': 'export const help = 1\n' }, meta)
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish('mathlib', '2.0.0', { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n' }, meta)
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

const pnpm = (cwd: string, args: string[]): void => void execFileSync(path.join(BIN, 'pnpm'), args, { cwd, env, stdio: 'pipe' })

/**
 * A pnpm project on mathlib@1.0.0 (its lockfile written by pnpm, committed without node_modules);
 * `shared` holds the base's lockfile and, as `with-helper/`, the manifest and lockfile pnpm writes
 * for mathlib 2.0.0 with helper beside it.
 */
function project(): { ws: string; start: string; shared: string } {
  const ws = makeRepo({
    'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module' }, null, 2) + '\n',
    '.gitignore': 'node_modules\n',
    'src/calc.js': "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n",
    'test/calc.test.js':
      "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"
  })
  pnpm(ws, ['add', 'mathlib@1.0.0', '--save-exact', '--ignore-scripts'])
  rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  const shared = sharedTempDir()
  cpSync(path.join(ws, 'pnpm-lock.yaml'), path.join(shared, 'old-lock.yaml'))
  const scratch = tempDir('loopgate-pnpm-helper-')
  for (const f of ['package.json', 'pnpm-lock.yaml']) cpSync(path.join(ws, f), path.join(scratch, f))
  pnpm(scratch, ['add', 'mathlib@2.0.0', 'helper@1.0.0', '--save-exact', '--ignore-scripts'])
  for (const f of ['package.json', 'pnpm-lock.yaml']) cpSync(path.join(scratch, f), path.join(shared, `with-helper-${f}`))
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim(), shared }
}

const FIX = "sed -i 's/\\badd\\b/sum/g' src/calc.js"
const DOWNGRADE = `sed -i 's/"mathlib": "2.0.0"/"mathlib": "1.0.0"/' package.json`
const FIXED = /mathlib is loopgate's own bump to 2\.0\.0 in this run and is fixed: fix the code forward/

function run(ws: string, inputs: Record<string, string>) {
  return upgradeLoop(ws, env, {
    'loop-id': 'deps',
    'gate-command': 'node --test',
    'gate-setup': 'pnpm install --frozen-lockfile --ignore-scripts',
    'agent-env': 'npm_config_registry',
    'allow-major': 'true',
    'max-iterations': '3'
  }).run(inputs)
}

describe('task: dependency-upgrade (pnpm): the bump is loopgate’s, the agent fixes forward', () => {
  it(
    'a downgrade in package.json is rejected and undone, the next prompt says why; the code fix is verified',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': scriptedAgent(shared, [DOWNGRADE, FIX]) })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, false])
      expect(promptOf(shared, 2)).toMatch(FIXED)
      expect(promptOf(shared, 2)).toContain('package.json')
      expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ mathlib: '2.0.0' })
      expect(sh(ws, ['diff', '--name-only', bumpAfter(ws, start), 'HEAD']).trim()).toBe('src/calc.js')
    },
    LONG
  )

  it(
    'pnpm-lock.yaml alone put back to the old version: rejected, undone, twice is protected-tampering',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': scriptedAgent(shared, ['cp @SHARED/old-lock.yaml pnpm-lock.yaml']) })
      expect(report.stopReason).toBe('protected-tampering')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, true])
      expect(promptOf(shared, 2)).toMatch(FIXED)
      expect(report.run?.iterations[0].rejected.join('\n')).toMatch(/pnpm-lock\.yaml \(.*packages\/mathlib@2\.0\.0 removed/)
      expect(sh(ws, ['show', 'HEAD:pnpm-lock.yaml'])).toMatch(/^ {2}mathlib@2\.0\.0:$/m)
      expect(sh(ws, ['diff', '--name-only', bumpAfter(ws, start), 'HEAD']).trim()).toBe('')
    },
    LONG
  )

  it(
    "under dependency-changes: registry, only the importer's entry of the bumped package is held: the importer pointed back is refused, another dependency from the registry may come with the fix",
    async () => {
      const { ws, start, shared } = project()
      // Call 1 keeps every package entry and points only the importer's mathlib back (1.0.0 is no longer locked: added).
      const importerBack = "sed -i 's/^\\( *specifier: \\)2\\.0\\.0$/\\11.0.0/; s/^\\( *version: \\)2\\.0\\.0$/\\11.0.0/' pnpm-lock.yaml"
      const addHelper = `cp @SHARED/with-helper-package.json package.json; cp @SHARED/with-helper-pnpm-lock.yaml pnpm-lock.yaml; ${FIX}`
      const { report } = await run(ws, { 'dependency-changes': 'registry', 'agent-command': scriptedAgent(shared, [importerBack, addHelper]) })
      if (report.stopReason !== 'verified') console.log(JSON.stringify(report.run?.iterations, null, 1).slice(0, 4000))
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, false])
      expect(report.run?.iterations[0].rejected.join('\n')).toMatch(
        /pnpm-lock\.yaml \(importers\/\.\/dependencies\/mathlib changed: mathlib is loopgate's own bump/
      )
      const bump = bumpAfter(ws, start)
      expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ helper: '1.0.0', mathlib: '2.0.0' })
      expect(sh(ws, ['diff', bump, 'HEAD', '--', 'pnpm-lock.yaml'])).not.toMatch(/^[-+].*mathlib/m)
      expect(sh(ws, ['show', 'HEAD:pnpm-lock.yaml'])).toMatch(/^ {2}helper@1\.0\.0:$/m)
    },
    LONG
  )
})
