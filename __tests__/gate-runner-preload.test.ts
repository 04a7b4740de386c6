/**
 * A package script that starts jest, vitest or mocha where the arguments npm appends cannot reach
 * the runner (`jest --ci && node lint.js`) still reports on loopgate's channel: loopgate's preload
 * adds the report option in the runner's own process. The real runners, run by the real npm.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { openReportChannel } from '../src/gate/reports/report-folder.js'
import { parseReport } from '../src/gate/reports/parse-report.js'
import { tempDir } from './helpers/repo.js'

const NODE_MODULES = path.resolve('node_modules')

const ESM_TEST = [
  "import assert from 'node:assert/strict'",
  "import { add } from '../src/math.js'",
  "describe('math', () => {",
  "  it('adds zero', () => { assert.equal(add(0, 0), 0) })",
  "  it('adds two numbers', () => { assert.equal(add(2, 3), 5) })",
  '})',
  ''
].join('\n')

const RUNNERS: { runner: string; script: string; pkg: Record<string, unknown>; test: string }[] = [
  {
    runner: 'jest',
    script: 'jest --ci',
    pkg: {},
    test: ESM_TEST.replace(
      "import assert from 'node:assert/strict'\nimport { add } from '../src/math.js'",
      "const assert = require('node:assert/strict')\nconst { add } = require('../src/math.cjs')"
    )
  },
  { runner: 'vitest', script: 'vitest run', pkg: { type: 'module' }, test: `import { describe, it } from 'vitest'\n${ESM_TEST}` },
  { runner: 'mocha', script: 'mocha', pkg: { type: 'module' }, test: ESM_TEST }
]

/** A project whose test script runs the runner and then another step. */
function project(row: (typeof RUNNERS)[number]): string {
  const dir = tempDir('loopgate-preload-')
  mkdirSync(path.join(dir, 'src'))
  mkdirSync(path.join(dir, 'test'))
  writeFileSync(path.join(dir, 'src/math.js'), 'export function add(a, b) { return a - b }\n')
  writeFileSync(path.join(dir, 'src/math.cjs'), 'exports.add = (a, b) => a - b\n')
  writeFileSync(path.join(dir, 'test/math.test.js'), row.test)
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', ...row.pkg, scripts: { test: `${row.script} && node -e 0` } }))
  symlinkSync(NODE_MODULES, path.join(dir, 'node_modules'))
  return dir
}

test.each(RUNNERS)('$runner first in a script with a step after it: counted from the report', (row) => {
  const dir = project(row)
  const gateDir = tempDir('loopgate-preload-gate-')
  const channel = openReportChannel('npm test', { gateDir, checkout: dir, env: process.env })
  expect(channel?.runner).toBe(row.runner)
  expect(channel?.command).toBe('npm test')
  const run = spawnSync('bash', ['-c', channel!.command], { cwd: dir, env: { ...process.env, ...channel!.env, CI: 'true' }, encoding: 'utf8' })
  expect(run.status).not.toBe(0)
  expect(existsSync(channel!.file)).toBe(true)
  const report = parseReport(readFileSync(channel!.file, 'utf8'), dir)
  expect(report.tests).toBe(2)
  expect(report.failed).toBe(1)
  channel!.close()
})

test('a node process that is not the runner is left as it is', () => {
  const gateDir = tempDir('loopgate-preload-other-')
  const dir = project(RUNNERS[0])
  const channel = openReportChannel('npm test', { gateDir, checkout: dir, env: process.env })!
  const argv = execFileSync('node', ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', 'x'], {
    env: { ...process.env, ...channel.env },
    encoding: 'utf8'
  })
  expect(JSON.parse(argv)).toEqual(['x'])
  channel.close()
})
