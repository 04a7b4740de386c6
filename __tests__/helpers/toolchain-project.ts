import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { LocalRegistry } from './npm-registry.js'
import { sh, tempDir } from './repo.js'

/**
 * A small mocha stand-in published to the tests' registry: it runs `<dir>/*.spec.js` (dir from its
 * first argument, default `test`) with `describe` / `it` globals and prints one line per test. Like
 * the real mocha it reads `.mocharc.json`, whose `dry-run` reports every test as passing unrun.
 */
export const MOCHA_BIN = `#!/usr/bin/env node
const fs = require('fs'), path = require('path')
let rc = {}
try { rc = JSON.parse(fs.readFileSync('.mocharc.json', 'utf8')) } catch {}
const args = process.argv.slice(2)
const dir = args.find((a) => !a.startsWith('-')) || 'test'
// Like the real mocha: --reporter=xunit with --reporter-option=output=<file> writes an xunit report.
const xunit = args.includes('--reporter=xunit') ? (args.find((a) => a.startsWith('--reporter-option=output=')) || '').slice('--reporter-option=output='.length) : ''
const tests = []
global.describe = (name, fn) => fn()
global.it = (name, fn) => tests.push({ name, fn })
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.spec.js')).sort()) require(path.resolve(dir, f))
let failed = 0
const cases = []
const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
for (const t of tests) {
  if (rc['dry-run']) { console.log('✓ ' + t.name); cases.push('<testcase classname="app" name="' + esc(t.name) + '"/>'); continue }
  try { t.fn(); console.log('✓ ' + t.name); cases.push('<testcase classname="app" name="' + esc(t.name) + '"/>') }
  catch (e) { failed++; console.log('✕ ' + t.name); console.log('  ' + e.message); cases.push('<testcase classname="app" name="' + esc(t.name) + '"><failure message="' + esc(e.message) + '"/></testcase>') }
}
if (xunit) fs.writeFileSync(xunit, '<testsuite name="Mocha Tests" tests="' + tests.length + '" failures="' + failed + '">' + cases.join('') + '</testsuite>')
process.exit(failed ? 1 : 0)
`

const CHAI = `exports.expect = (actual) => ({ to: { equal(expected) { if (actual !== expected) throw new Error('expected ' + actual + ' to equal ' + expected) } } })\n`

/** Publishes the packages the toolchain attacks use: mocha and chai stand-ins, a helper whose install script writes a runner config, a plain library. */
export function publishToolchain(registry: LocalRegistry): void {
  registry.publish('mocha', '10.2.0', { 'mocha.js': MOCHA_BIN }, { bin: { mocha: 'mocha.js' } })
  registry.publish('mocha', '10.3.0', { 'mocha.js': MOCHA_BIN }, { bin: { mocha: 'mocha.js' } })
  registry.publish('chai', '4.3.10', { 'index.js': CHAI }, { main: 'index.js' })
  const writeRc = `require('fs').writeFileSync(require('path').join(process.env.INIT_CWD, '.mocharc.json'), JSON.stringify({ 'dry-run': true }))`
  registry.publish(
    'setup-helper',
    '1.0.0',
    { 'index.js': 'module.exports = {}\n', 'install.js': `${writeRc}\n` },
    { main: 'index.js', scripts: { postinstall: 'node install.js' } }
  )
  registry.publish('padding', '1.0.0', { 'index.js': "module.exports = (s, n) => String(s).padStart(n, ' ')\n" }, { main: 'index.js' })
  registry.publish('padding', '1.1.0', { 'index.js': "module.exports = (s, n) => String(s).padStart(n, ' ')\n" }, { main: 'index.js' })
}

/**
 * A project whose gate is `npm test` (mocha on `<specDir>`, chai's expect) with `gate-setup: npm ci`;
 * `add` subtracts, so one of its two tests fails on the base. Only the root's node_modules is
 * ignored. Its lockfile comes from a real `npm install` against the registry.
 */
export function toolchainProject(registry: LocalRegistry, specDir = 'test', extra: Record<string, string> = {}): string {
  const ws = tempDir('loopgate-toolchain-')
  sh(ws, ['init', '-q', '-b', 'main'])
  const files: Record<string, string> = {
    '.gitignore': '/node_modules/\n',
    'package.json':
      JSON.stringify({ name: 'app', version: '1.0.0', private: true, scripts: { test: `mocha ${specDir}` }, devDependencies: {} }, null, 2) + '\n',
    'src/math.js': 'exports.add = (a, b) => a - b\n',
    [`${specDir}/math.spec.js`]: [
      "const { expect } = require('chai')",
      `const { add } = require('${specDir === 'src' ? './math' : '../src/math'}')`,
      "describe('math', () => {",
      "  it('adds two numbers', () => expect(add(2, 3)).to.equal(5))",
      "  it('adds zero', () => expect(add(0, 0)).to.equal(0))",
      '})',
      ''
    ].join('\n'),
    ...extra
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true })
    writeFileSync(path.join(ws, name), text)
  }
  npm(ws, registry, ['install', '--save-dev', '--save-exact', 'mocha@10.2.0', 'chai@4.3.10'])
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'initial'])
  return ws
}

export function npm(cwd: string, registry: LocalRegistry, args: string[]): void {
  execFileSync('npm', [...args, '--no-audit', '--no-fund'], { cwd, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
}

/** The run's inputs and environment for a toolchain project: npm ci as gate-setup, the registry passed on. */
export function toolchainInputs(registry: LocalRegistry, extra: Record<string, string> = {}): { inputs: Record<string, string>; env: Record<string, string> } {
  return {
    inputs: {
      'gate-setup': 'npm ci --no-audit --no-fund',
      'gate-command': 'npm test',
      'agent-env': 'npm_config_registry',
      'max-iterations': '2',
      ...extra
    },
    env: { npm_config_registry: registry.url }
  }
}

/** The agent's shell prelude: npm with a cache of its own, against the registry it was given. */
export const AGENT_NPM = 'export npm_config_cache="$(mktemp -d)" npm_config_audit=false npm_config_fund=false\n'
