import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parseState } from '../src/state/parse.js'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir } from './helpers/repo.js'

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

/** A project on mathlib 1.0.0 with a timing-sensitive test that fails the first time the gate runs it, and passes after. */
function project(shared: string): { ws: string; start: string } {
  const runs = path.join(shared, 'flaky-runs')
  const ws = makeRepo({
    'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module' }, null, 2),
    '.gitignore': 'node_modules\n',
    'src/calc.js': "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n",
    'test/calc.test.js':
      "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n",
    'test/timing.test.js': [
      "import { test } from 'node:test'",
      "import fs from 'node:fs'",
      "test('answers within the deadline', () => {",
      `  const seen = fs.existsSync(${JSON.stringify(runs)}) ? fs.readFileSync(${JSON.stringify(runs)}, 'utf8').length : 0`,
      `  fs.appendFileSync(${JSON.stringify(runs)}, 'x')`,
      "  if (seen === 0) throw new Error('timed out under load')",
      '})',
      ''
    ].join('\n')
  })
  execFileSync('npm', ['install', 'mathlib@1.0.0', '--no-audit', '--no-fund'], { cwd: ws, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim() }
}

function loop(ws: string) {
  return upgradeLoop(
    ws,
    { ...process.env, npm_config_registry: registry.url },
    { 'loop-id': 'deps', 'gate-command': 'node --test', 'gate-setup': 'npm ci --no-audit --no-fund', 'agent-env': 'npm_config_registry' }
  )
}

describe('task: dependency-upgrade: a flaky test is not the bump’s fault', () => {
  it(
    'a bump whose only failure passes on a rerun of the same tree is verified with no agent call, the flaky test named',
    async () => {
      const shared = sharedTempDir()
      const { ws, start } = project(shared)
      const deps = loop(ws)
      const { report, session } = await deps.run({ 'agent-command': `touch ${shared}/called` })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations).toHaveLength(0)
      expect(existsSync(path.join(shared, 'called'))).toBe(false)
      expect(readFileSync(path.join(shared, 'flaky-runs'), 'utf8')).toBe('xx')
      expect(report.run?.verifiedCommit).toBe(sh(ws, ['rev-parse', 'HEAD']).trim())
      const body = readFileSync(report.published.files[0], 'utf8')
      expect(body).toMatch(/\*\*Flaky on the bump:\*\* ` answers within the deadline `: each failed on the bumped tree, then passed when the gate ran again/)
      const log = readFileSync(report.logFile, 'utf8')
      expect(log).toMatch(/"flaky":\["answers within the deadline"\]/)
      // Not the upgrade's failure: remembered as verified.
      const state = parseState(readFileSync(session.info.location.file, 'utf8'), 'deps')
      expect(state.upgradeAttempts).toMatchObject([{ package: 'mathlib', from: '1.0.0', target: '1.1.0', baseCommit: start, outcome: 'verified' }])
    },
    LONG
  )

  it(
    'after a breaking bump the flaky test is named in the prompt, never the agent’s task; the fix of the real failure is verified',
    async () => {
      const shared = sharedTempDir()
      const { ws } = project(shared)
      const fix = `cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt.txt; sed -i 's/\\badd\\b/sum/g' src/calc.js`
      const { report } = await loop(ws).run({ 'allow-major': 'true', 'agent-command': fix })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations).toHaveLength(1)
      const prompt = readFileSync(path.join(shared, 'prompt.txt'), 'utf8')
      expect(prompt).toContain('- failing: test/calc.test.js')
      expect(prompt).not.toMatch(/- failing: .*(timing|deadline)/)
      expect(prompt).toContain(
        '- flaky, not your task: answers within the deadline (failed on the bumped tree, then passed when the gate ran again on the same commit)'
      )
      expect(readFileSync(report.published.files[0], 'utf8')).toContain('**Flaky on the bump:** ` answers within the deadline `')
    },
    LONG
  )
})
