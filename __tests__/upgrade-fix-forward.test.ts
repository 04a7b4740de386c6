import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir } from './helpers/repo.js'

const LONG = 300_000

let registry: LocalRegistry

beforeAll(async () => {
  registry = await startRegistry()
  const meta = { type: 'module', main: 'index.js' }
  registry.publish('helper', '1.0.0', { 'index.js': 'export const help = 1\n' }, meta)
  registry.publish('mathcore', '1.0.0', { 'index.js': 'export const one = 1\n' }, meta)
  registry.publish('mathcore', '2.0.0', { 'index.js': 'export const one = 1\n' }, meta)
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, { ...meta, dependencies: { mathcore: '^1.0.0' } })
  registry.publish('mathlib', '2.0.0', { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n' }, { ...meta, dependencies: { mathcore: '^2.0.0' } })
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

/** A project on mathlib@^1 (locked at 1.0.0, with its mathcore) whose test goes through the call site; `old` holds the base's lockfile. */
function project(): { ws: string; start: string; shared: string } {
  const ws = makeRepo({
    'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module' }, null, 2),
    '.gitignore': 'node_modules\n',
    'src/calc.js': "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n",
    'test/calc.test.js':
      "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"
  })
  execFileSync('npm', ['install', 'mathlib@1.0.0', '--no-audit', '--no-fund'], { cwd: ws, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  const shared = sharedTempDir()
  writeFileSync(path.join(shared, 'old-lock.json'), readFileSync(path.join(ws, 'package-lock.json')))
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim(), shared }
}

const FIX = "sed -i 's/\\badd\\b/sum/g' src/calc.js"
const DOWNGRADE = `sed -i 's/"mathlib": "^2.0.0"/"mathlib": "^1.0.0"/' package.json`

/**
 * A scripted agent: call n copies its prompt to prompt-n.txt and runs `steps[n-1]` (the last step
 * for every later call).
 */
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

function run(ws: string, inputs: Record<string, string>) {
  return upgradeLoop(
    ws,
    { ...process.env, npm_config_registry: registry.url },
    {
      'loop-id': 'deps',
      'gate-command': 'node --test',
      'gate-setup': 'npm ci --no-audit --no-fund',
      'agent-env': 'npm_config_registry',
      'allow-major': 'true',
      'max-iterations': '3'
    }
  ).run(inputs)
}

const prompt = (shared: string, n: number): string => readFileSync(path.join(shared, `prompt-${n}.txt`), 'utf8')
const bumpOf = (ws: string, start: string): string =>
  sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
    .trim()
    .split('\n')[0]
const lockAt = (ws: string, rev: string) => JSON.parse(sh(ws, ['show', `${rev}:package-lock.json`])) as { packages: Record<string, { version?: string }> }

/** The rejection the next prompt carries: the package named, the bump fixed, fix forward. */
const FIXED = /mathlib is loopgate's own bump to 2\.0\.0 in this run and is fixed: fix the code forward/

describe('task: dependency-upgrade: the bump is loopgate’s, the agent fixes forward', () => {
  it(
    'a downgrade in package.json is rejected and undone, the next prompt says why; the code fix is verified and the body lists it',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': agent(shared, [DOWNGRADE, FIX]) })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations).toHaveLength(2)
      expect(report.run?.iterations[0].tampered).toBe(true)
      expect(prompt(shared, 2)).toMatch(FIXED)
      expect(prompt(shared, 2)).toContain('package.json')
      expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ mathlib: '^2.0.0' })
      const bump = bumpOf(ws, start)
      expect(sh(ws, ['diff', '--name-only', bump, 'HEAD']).trim()).toBe('src/calc.js')

      const body = readFileSync(report.published.files[0], 'utf8')
      expect(body).toMatch(/What the agent had to change beyond the bump\*\* \(1 file\(s\)\):\n- ` src\/calc\.js ` \+2\/−2$/m)
      expect(body).not.toMatch(/^- ` package(-lock)?\.json `/m)
    },
    LONG
  )

  it(
    'a second downgrade stops the run as protected-tampering',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': agent(shared, [DOWNGRADE]) })
      expect(report.stopReason).toBe('protected-tampering')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, true])
      expect(prompt(shared, 2)).toMatch(FIXED)
      expect(sh(ws, ['diff', '--name-only', bumpOf(ws, start), 'HEAD']).trim()).toBe('')
    },
    LONG
  )

  it(
    'package-lock.json alone put back to the old version: rejected, undone, twice is protected-tampering',
    async () => {
      const { ws, start, shared } = project()
      const { report } = await run(ws, { 'agent-command': agent(shared, ['cp @SHARED/old-lock.json package-lock.json']) })
      expect(report.stopReason).toBe('protected-tampering')
      expect(prompt(shared, 2)).toMatch(FIXED)
      expect(prompt(shared, 2)).toContain('package-lock.json')
      expect(lockAt(ws, 'HEAD').packages['node_modules/mathlib'].version).toBe('2.0.0')
      expect(sh(ws, ['diff', '--name-only', bumpOf(ws, start), 'HEAD']).trim()).toBe('')
    },
    LONG
  )

  it(
    'under dependency-changes: registry the bump stays fixed too: the manifest downgrade, the lockfile, and the entries the bump moved with it',
    async () => {
      const { ws, start, shared } = project()
      // Call 1 downgrades through the package manager (a registry version); call 2 moves only mathcore, which the bump moved to 2.0.0.
      const npmDowngrade = 'npm install mathlib@1.0.0 --no-audit --no-fund --ignore-scripts >/dev/null 2>&1'
      const coreBack = `node -e "const fs=require('fs');const o=JSON.parse(fs.readFileSync('@SHARED/old-lock.json'));const l=JSON.parse(fs.readFileSync('package-lock.json'));l.packages['node_modules/mathcore']=o.packages['node_modules/mathcore'];fs.writeFileSync('package-lock.json',JSON.stringify(l,null,2)+'\\n')"`
      const { report } = await run(ws, { 'dependency-changes': 'registry', 'agent-command': agent(shared, [npmDowngrade, coreBack]) })
      expect(prompt(shared, 2)).toMatch(FIXED)
      expect(report.stopReason).toBe('protected-tampering')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, true])
      expect(report.run?.iterations[1].rejected.join('\n')).toMatch(/package-lock\.json \(node_modules\/mathcore changed: mathlib is loopgate's own bump/)
      const bump = bumpOf(ws, start)
      expect(lockAt(ws, 'HEAD').packages['node_modules/mathlib'].version).toBe('2.0.0')
      expect(lockAt(ws, 'HEAD').packages['node_modules/mathcore'].version).toBe('2.0.0')
      expect(sh(ws, ['diff', '--name-only', bump, 'HEAD', '--', 'package.json', 'package-lock.json']).trim()).toBe('')
    },
    LONG
  )

  it(
    'under dependency-changes: registry another dependency from the registry may come with the fix: verified, the body lists it with the code',
    async () => {
      const { ws, start, shared } = project()
      const addHelper = `npm install helper@1.0.0 --no-audit --no-fund --ignore-scripts >/dev/null 2>&1; ${FIX}`
      const { report } = await run(ws, { 'dependency-changes': 'registry', 'agent-command': agent(shared, [addHelper]) })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([false])
      const bump = bumpOf(ws, start)
      expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ helper: '^1.0.0', mathlib: '^2.0.0' })
      expect(sh(ws, ['diff', bump, 'HEAD', '--', 'package-lock.json'])).not.toMatch(/^[-+].*"(version|resolved)".*mathlib/m)
      expect(lockAt(ws, 'HEAD').packages['node_modules/mathlib']).toEqual(lockAt(ws, bump).packages['node_modules/mathlib'])
      const body = readFileSync(report.published.files[0], 'utf8')
      expect(body).toMatch(
        /What the agent had to change beyond the bump\*\* \(3 file\(s\)\):\n- ` package-lock\.json ` \+\d+\/−\d+\n- ` package\.json ` \+1\/−0\n- ` src\/calc\.js ` \+2\/−2$/m
      )
    },
    LONG
  )
})
