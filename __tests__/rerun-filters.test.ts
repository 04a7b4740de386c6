import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseReport } from '../src/gate/reports/parse-report.js'
import { withReportChannel } from '../src/gate/reports/report-channel.js'
import { TEST_RUNNERS } from '../src/gate/reports/runner-registry.js'
import { ROOT } from './helpers/action-runner.js'
import { makeRepo, tempDir } from './helpers/repo.js'

/**
 * Each runner's rerun filter, run for real: the command loopgate's report channel builds with the
 * filter beside the report option, then the report it writes: only the tests asked for ran (names
 * with quotes, brackets and regex characters included), the others did not run at all or are skipped.
 */

const BIN = path.join(ROOT, 'node_modules', '.bin')
const runner = (id: string) => TEST_RUNNERS.find((r) => r.id === id)!

/** Runs the gate command with the report channel and the filter for `ids`; the ids its report says ran. */
function rerun(dir: string, command: string, ids: string[]): { ran: string[]; skipped: string[] } {
  const file = path.join(tempDir('loopgate-rerun-report-'), command.includes('jest') || command.includes('vitest') ? 'report.json' : 'report.xml')
  const probe = withReportChannel(command, file)!
  const extra = runner(probe.runner).only!(ids, dir)!
  const channel = withReportChannel(command, { file, extra })!
  spawnSync('/bin/bash', ['-c', channel.command], { cwd: dir, env: { ...process.env, PATH: `${BIN}:${process.env.PATH}`, CI: 'true' } })
  const report = parseReport(readFileSync(file, 'utf8'), dir)
  return { ran: [...report.passedIds, ...report.failedIds].sort(), skipped: report.skippedIds }
}

const TRICKY = "it's [a] (b) $c | d.*"

describe('a rerun filter per runner, run for real', () => {
  test('jest: -t with full names and the files as path patterns', () => {
    const dir = makeRepo({
      'package.json': '{"name":"j","private":true}',
      'test/a.test.js': `describe('suite one', () => { test('passes', () => {}); test(${JSON.stringify(TRICKY)}, () => { expect(1).toBe(2) }) })\ntest('top level', () => {})\n`,
      'test/b.test.js': "test('top level', () => {})\n"
    })
    const asked = [`test/a.test.js › suite one › ${TRICKY}`, 'test/a.test.js › top level']
    const r = rerun(dir, 'jest --ci', asked)
    expect(r.ran).toEqual([...asked].sort())
    expect(r.skipped).toEqual(['test/a.test.js › suite one › passes'])
  })

  test('vitest: -t with full names and the files as filters', () => {
    const head = "import { describe, test, expect } from 'vitest'\n"
    const dir = makeRepo({
      'package.json': '{"name":"v","private":true,"type":"module"}',
      'test/a.test.mjs': `${head}describe('suite one', () => { test('passes', () => {}); test(${JSON.stringify(TRICKY)}, () => { expect(1).toBe(2) }) })\ntest('top level', () => {})\n`,
      'test/b.test.mjs': `${head}test('top level', () => {})\n`
    })
    const asked = [`test/a.test.mjs › suite one › ${TRICKY}`, 'test/a.test.mjs › top level']
    const r = rerun(dir, 'vitest run', asked)
    expect(r.ran).toEqual([...asked].sort())
  })

  test('mocha: one --grep over the full titles, a test outside any suite included', () => {
    const dir = makeRepo({
      'package.json': '{"name":"m","private":true}',
      'test/a.spec.js': `const assert = require('assert')\ndescribe('suite one', () => { it('passes', () => {}); it(${JSON.stringify(TRICKY)}, () => { assert.equal(1, 2) }) })\nit('top level', () => {})\nit('top level too', () => {})\n`
    })
    const asked = [`suite one › ${TRICKY}`, 'Mocha Tests › top level']
    const r = rerun(dir, 'mocha', asked)
    expect(r.ran).toEqual([...asked].sort())
  })

  test('node:test: the test’s own name, under its suite or not', () => {
    const dir = makeRepo({
      'test/a.test.mjs': `import { describe, test } from 'node:test'\nimport assert from 'node:assert'\ndescribe('suite one', () => { test('passes', () => {}); test(${JSON.stringify(TRICKY)}, () => { assert.equal(1, 2) }) })\ntest('top level', () => {})\ntest('top level too', () => {})\n`
    })
    const asked = [`suite one › ${TRICKY}`, 'top level']
    const r = rerun(dir, 'node --test', asked)
    expect(r.ran).toEqual([...asked].sort())
    expect(r.skipped.sort()).toEqual(['suite one › passes', 'top level too'])
  })

  test('pytest: node ids from the report’s dotted class names; none for a module outside the checkout', () => {
    const dir = makeRepo({ 'tests/test_a.py': '', 'tests/__init__.py': '' })
    expect(runner('pytest').only!(['tests.test_a.TestB › test_c[1-x]', 'tests.test_a › test_d'], dir)).toEqual([
      "'tests/test_a.py::TestB::test_c[1-x]'",
      "'tests/test_a.py::test_d'"
    ])
    expect(runner('pytest').only!(['elsewhere.test_e › test_f'], dir)).toBeNull()
  })

  test('the filter goes where the runner reads options: after node’s --test, after npm’s --', () => {
    expect(withReportChannel('node --test test/', { file: '/r/f', extra: ["'--test-name-pattern=x'"] })?.command).toBe(
      "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination='/r/f' '--test-name-pattern=x' test/"
    )
    expect(withReportChannel('npm test', { file: '/r/f', extra: ['-t', "'^a$'"] }, { test: 'jest --ci' })?.command).toBe(
      "npm test -- --json --outputFile='/r/f' -t '^a$'"
    )
  })
})
