/**
 * A run whose baseline counts come from an earlier run on the same inputs still installs
 * gate-setup's `npm ci` once, on the start commit, and keeps it as the baseline's would be: every
 * candidate on the reference's dependency files gets it read-only instead of installing again. A
 * candidate that adds a postinstall-writing registry package (as `dependency-changes: registry`
 * allows) installs into a writable copy, scripts off, which never reaches the kept one. Real npm
 * against a local registry; the installs are counted by a registry package's own postinstall.
 */
import { chmodSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { BaselineStore, CachedBaseline } from '../src/gate/baseline/baseline-cache.js'
import { runAttack } from './helpers/gate-fixture.js'
import { needs } from './helpers/needs-tools.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { buggyProject, makeRepo, sh, sharedTempDir } from './helpers/repo.js'
import { AGENT_NPM, npm, publishToolchain, toolchainInputs, toolchainProject } from './helpers/toolchain-project.js'

const LONG = 300_000
let registry: LocalRegistry
let counter: string

beforeAll(async () => {
  registry = await startRegistry()
  publishToolchain(registry)
  counter = path.join(sharedTempDir('loopgate-install-count-'), 'installs')
  resetCounter()
  const record = `node -e "require('fs').appendFileSync('${counter}', 'i')"`
  registry.publish('install-counter', '1.0.0', { 'index.js': 'module.exports = {}\n' }, { main: 'index.js', scripts: { postinstall: record } })
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

/** The same start tree every time: the toolchain project with the counting package among its devDependencies. */
function project(): string {
  const ws = toolchainProject(registry)
  npm(ws, registry, ['install', '--save-dev', '--save-exact', '--ignore-scripts', 'install-counter@1.0.0'])
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'count installs'])
  return ws
}

function resetCounter(): void {
  writeFileSync(counter, '')
  chmodSync(counter, 0o666)
}

const FIX = "sed -i 's/a - b/a + b/' src/math.js"

/**
 * The agent in the second run, by iteration (each failing differently, so the run goes on): a
 * change beside the dependencies; a registry package whose postinstall writes; the reference's
 * files back and the fix.
 */
const agentScript = (state: string): string =>
  [
    AGENT_NPM,
    `n=$(cat ${state}/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${state}/n`,
    'case $n in',
    `  1) cp package.json package-lock.json ${state}/; sed -i 's/a - b/a - b + 1/' src/math.js ;;`,
    "  2) sed -i 's/a - b + 1/a - b/' src/math.js; npm install --save-dev --save-exact setup-helper@1.0.0 ;;",
    `  *) cp ${state}/package.json ${state}/package-lock.json .; ${FIX} ;;`,
    'esac',
    ''
  ].join('\n')

needs('second-user').test(
  'with a cached baseline the install runs once, on the start commit; candidates get it read-only; a changed candidate’s install is not kept',
  async () => {
    const cached = new Map<string, CachedBaseline>()
    const baselines: BaselineStore = { get: (key) => cached.get(key) ?? null, put: (entry) => void cached.set(entry.key, entry) }
    const gateCommand = [
      'echo "installs=[$(cat ' + counter + ')]"',
      'test -e node_modules/setup-helper && echo HELPER-PRESENT',
      'test -e .mocharc.json && echo RC-PRESENT',
      'test -e node_modules/.planted && echo PLANTED-KEPT',
      '{ echo y > node_modules/.planted && echo NM-WRITTEN; } 2>/dev/null || echo NM-REFUSED',
      'node_modules/.bin/mocha test --reporter=xunit --reporter-option=output=reports/mocha.xml'
    ].join('; ')
    const { inputs, env } = toolchainInputs(registry, {
      'gate-command': gateCommand,
      'gate-report': 'reports/mocha.xml',
      'dependency-changes': 'registry',
      'max-iterations': '3'
    })
    const first = await runAttack({ isolation: 'auto', workspace: project(), inputs, env, baselines, script: `${AGENT_NPM}${FIX}\n` })
    expect(first.report.stopReason).toBe('verified')
    expect(cached.size).toBe(1)

    resetCounter()
    const state = sharedTempDir('loopgate-agent-state-')
    const r = await runAttack({ isolation: 'auto', workspace: project(), inputs, env, baselines, script: agentScript(state) })
    const gates = (r.report.run?.iterations ?? []).map((it) => it.gate?.outputTail ?? '')
    if (r.report.stopReason !== 'verified') console.log(r.report.stopReason, r.report.notes.join('\n'), gates.join('\n-----\n'))
    expect(r.report.notes.join('\n')).toContain('from an earlier run on the same tree')
    expect(r.report.stopReason).toBe('verified')
    expect(gates).toHaveLength(3)
    // One install, on the start commit, before the first verdict; the reference's candidates get it read-only.
    for (const i of [0, 2]) {
      expect(gates[i]).toContain('installs=[i]')
      expect(gates[i]).toContain('NM-REFUSED')
      expect(gates[i]).not.toContain('HELPER-PRESENT')
      expect(gates[i]).not.toContain('PLANTED-KEPT')
    }
    // The registry package comes in through the whole setup, scripts off, into a writable copy.
    expect(gates[1]).toContain('HELPER-PRESENT')
    expect(gates[1]).toContain('NM-WRITTEN')
    expect(gates[1]).toContain('installs=[i]')
    expect(gates.join('\n')).not.toContain('RC-PRESENT')
  },
  LONG
)

test(
  'without a gate user of its own, the install waits for the first call to end, then runs once on a checkout made again',
  async () => {
    const installs = path.join(sharedTempDir('loopgate-install-count-'), 'installs')
    writeFileSync(installs, '')
    const manifest = { name: 'p', version: '1.0.0', type: 'module', scripts: { postinstall: `node -e "require('fs').appendFileSync('${installs}', 'i')"` } }
    const lock = { name: 'p', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'p', version: '1.0.0', hasInstallScript: true } } }
    const files = {
      ...buggyProject(),
      '.gitignore': 'node_modules/\n',
      'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
      'package-lock.json': `${JSON.stringify(lock, null, 2)}\n`
    }
    const cached = new Map<string, CachedBaseline>()
    const baselines: BaselineStore = { get: (key) => cached.get(key) ?? null, put: (entry) => void cached.set(entry.key, entry) }
    const inputs = {
      'gate-setup': 'npm ci --no-audit --no-fund',
      'gate-command': `echo "installs=[$(cat ${installs})]"; node test/run.mjs`,
      'max-iterations': '2'
    }
    const fix = "sed -i 's/a - b/a + b/' src/math.mjs\n"
    const first = await runAttack({ isolation: 'weak', workspace: makeRepo(files), inputs, baselines, script: fix })
    expect(first.report.stopReason).toBe('verified')
    writeFileSync(installs, '')
    const state = sharedTempDir('loopgate-agent-state-')
    // The first call fails differently from the base (so the run goes on), the second fixes.
    const script = [
      `n=$(cat ${state}/n 2>/dev/null || echo 0); echo $((n+1)) > ${state}/n`,
      `if [ "$n" = 0 ]; then sed -i 's/a - b/a * b/' src/math.mjs; else sed -i 's/a \\* b/a + b/' src/math.mjs; fi`,
      ''
    ].join('\n')
    const r = await runAttack({ isolation: 'weak', workspace: makeRepo(files), inputs, baselines, script })
    const gates = (r.report.run?.iterations ?? []).map((it) => it.gate?.outputTail ?? '')
    expect(r.report.notes.join('\n')).toContain('from an earlier run on the same tree')
    expect(r.report.stopReason).toBe('verified')
    expect(gates).toHaveLength(2)
    for (const out of gates) expect(out).toContain('installs=[i]')
  },
  LONG
)
