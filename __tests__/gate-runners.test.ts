/**
 * The real runners (vitest, jest, mocha, node:test, pytest) on small generated projects, each with
 * one passing and two different failing tests, read the way the gate reads them: a report file
 * when one is given, else the console output. Checks the exact ids, that each message keeps the
 * assertion's diff, and that the fingerprint tells two different wrong values apart while a
 * re-run of the same failure (other timings, other directory) keeps it.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fingerprintOf, verdictFingerprint } from '../src/gate/reports/fingerprint.js'
import { readOutput } from '../src/gate/reports/console-output.js'
import { parseReport } from '../src/gate/reports/parse-report.js'
import type { FailureItem } from '../src/loop/engine-types.js'
import { ProtectedGate } from '../src/gate/protected-gate.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { gateEnv } from '../src/agents/agent-env.js'
import { attackProject, MINICHECK } from './helpers/gate-fixture.js'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'
import { GitRepository } from '../src/git/repository.js'

const NODE_MODULES = path.resolve('node_modules')

/** Which wrong value the project's `add` returns: a - b (-1 for 2 + 3) or a * b (6). */
type Bug = 'minus' | 'times'

interface Format {
  label: string
  command: string[]
  /** The report file the runner writes (the gate's `gate-report`), relative to the project. */
  report?: string
  ids: string[]
  /** Replaces the family's diffs for a format that carries less (vitest's JSON has no diff). */
  diffs?: [string[], string[]]
}

interface Family {
  runner: string
  files: (bug: Bug) => Record<string, string>
  formats: Format[]
  /** Text each failure's message must contain, in the order of `ids`, for the `minus` bug. */
  diffs: [string[], string[]]
}

const jsBody = (bug: Bug, esm: boolean): string =>
  [
    `${esm ? 'export ' : ''}function add(a, b) { return a ${bug === 'minus' ? '-' : '*'} b }`,
    `${esm ? 'export ' : ''}function user(name) { return { name, admin: false, tags: ['a', 'b'] } }`,
    esm ? '' : 'module.exports = { add, user }',
    ''
  ].join('\n')

const vitest: Family = {
  runner: 'vitest',
  files: (bug) => ({
    'package.json': '{ "name": "p", "type": "module" }\n',
    'src/math.js': jsBody(bug, true),
    'test/math.test.js': [
      "import { describe, it, expect } from 'vitest'",
      "import { add, user } from '../src/math.js'",
      "describe('math', () => {",
      "  it('adds zero', () => { expect(add(0, 0)).toBe(0) })",
      "  it('adds two numbers', () => { expect(add(2, 3)).toBe(5) })",
      "  it('builds a user', () => { expect(user('ann')).toEqual({ name: 'ann', admin: true, tags: ['a', 'b'] }) })",
      '})',
      ''
    ].join('\n')
  }),
  formats: [
    { label: 'console', command: ['npx', 'vitest', 'run'], ids: ['test/math.test.js > math > adds two numbers', 'test/math.test.js > math > builds a user'] },
    {
      label: 'junit report',
      command: ['npx', 'vitest', 'run', '--reporter=junit', '--outputFile=report.xml'],
      report: 'report.xml',
      ids: ['test/math.test.js › math > adds two numbers', 'test/math.test.js › math > builds a user']
    },
    {
      label: 'json on the console',
      command: ['npx', 'vitest', 'run', '--reporter=json'],
      ids: ['test/math.test.js › math › adds two numbers', 'test/math.test.js › math › builds a user'],
      diffs: [
        ['expected -1 to be 5 // Object.is equality'],
        ["expected { name: 'ann', admin: false, …(1) } to deeply equal { name: 'ann', admin: true, …(1) }"]
      ]
    }
  ],
  diffs: [
    ['expected -1 to be 5', '- 5\n+ -1'],
    ['to deeply equal', '-   "admin": true,\n+   "admin": false,']
  ]
}

const jest: Family = {
  runner: 'jest',
  files: (bug) => ({
    'package.json': '{ "name": "p" }\n',
    'src/math.js': jsBody(bug, false),
    'test/math.test.js': [
      "const { add, user } = require('../src/math.js')",
      "describe('math', () => {",
      "  it('adds zero', () => { expect(add(0, 0)).toBe(0) })",
      "  it('adds two numbers', () => { expect(add(2, 3)).toBe(5) })",
      "  it('builds a user', () => { expect(user('ann')).toEqual({ name: 'ann', admin: true, tags: ['a', 'b'] }) })",
      '})',
      ''
    ].join('\n')
  }),
  formats: [
    { label: 'console', command: ['npx', 'jest', '--ci'], ids: ['test/math.test.js › math › adds two numbers', 'test/math.test.js › math › builds a user'] },
    {
      label: 'json report',
      command: ['npx', 'jest', '--ci', '--json', '--outputFile=report.json'],
      report: 'report.json',
      ids: ['test/math.test.js › math › adds two numbers', 'test/math.test.js › math › builds a user']
    },
    {
      label: 'json on the console',
      command: ['npx', 'jest', '--ci', '--json'],
      ids: ['test/math.test.js › math › adds two numbers', 'test/math.test.js › math › builds a user']
    }
  ],
  diffs: [
    ['expect(received).toBe(expected)', 'Expected: 5\nReceived: -1'],
    ['expect(received).toEqual(expected)', '-   "admin": true,\n+   "admin": false,']
  ]
}

const mocha: Family = {
  runner: 'mocha',
  files: (bug) => ({
    'package.json': '{ "name": "p", "type": "module" }\n',
    'src/math.js': jsBody(bug, true),
    'test/math.test.js': [
      "import assert from 'node:assert/strict'",
      "import { add, user } from '../src/math.js'",
      "describe('math', () => {",
      "  it('adds zero', () => { assert.equal(add(0, 0), 0) })",
      "  it('adds two numbers', () => { assert.equal(add(2, 3), 5) })",
      "  it('builds a user', () => { assert.deepEqual(user('ann'), { name: 'ann', admin: true, tags: ['a', 'b'] }) })",
      '})',
      ''
    ].join('\n')
  }),
  formats: [
    { label: 'console', command: ['npx', 'mocha'], ids: ['math › adds two numbers', 'math › builds a user'] },
    { label: 'tap on the console', command: ['npx', 'mocha', '--reporter', 'tap'], ids: ['math adds two numbers', 'math builds a user'] },
    { label: 'xunit on the console', command: ['npx', 'mocha', '--reporter', 'xunit'], ids: ['math › adds two numbers', 'math › builds a user'] }
  ],
  diffs: [
    ['Expected values to be strictly equal', '-1 !== 5'],
    ['Expected values to be strictly deep-equal', '+   admin: false,\n-   admin: true,']
  ]
}

const nodeTest: Family = {
  runner: 'node:test',
  files: (bug) => ({
    'package.json': '{ "name": "p", "type": "module" }\n',
    'src/math.js': jsBody(bug, true),
    'test/math.test.js': [
      "import assert from 'node:assert/strict'",
      "import { describe, it } from 'node:test'",
      "import { add, user } from '../src/math.js'",
      "describe('math', () => {",
      "  it('adds zero', () => { assert.equal(add(0, 0), 0) })",
      "  it('adds two numbers', () => { assert.equal(add(2, 3), 5) })",
      '})',
      "it('makes admins', () => { assert.equal(user('ann').admin, true) })",
      ''
    ].join('\n')
  }),
  formats: [
    { label: 'tap on the console', command: ['node', '--test', '--test-reporter=tap'], ids: ['math › adds two numbers', 'makes admins'] },
    { label: 'spec on the console', command: ['node', '--test', '--test-reporter=spec'], ids: ['math › adds two numbers', 'makes admins'] },
    {
      label: 'junit report',
      command: ['node', '--test', '--test-reporter=junit', '--test-reporter-destination=report.xml'],
      report: 'report.xml',
      ids: ['math › adds two numbers', 'makes admins']
    }
  ],
  diffs: [
    ['Expected values to be strictly equal', '-1 !== 5'],
    ['Expected values to be strictly equal', 'false !== true']
  ]
}

const pytest: Family = {
  runner: 'pytest',
  files: (bug) => ({
    'pkg/__init__.py': [
      'def add(a, b):',
      `    return a ${bug === 'minus' ? '-' : '*'} b`,
      '',
      'def user(name):',
      '    return {"name": name, "admin": False, "tags": ["a", "b"]}',
      ''
    ].join('\n'),
    'tests/__init__.py': '',
    'tests/test_math.py': [
      'from pkg import add, user',
      '',
      'def test_adds_zero():',
      '    assert add(0, 0) == 0',
      '',
      'def test_adds_two_numbers():',
      '    assert add(2, 3) == 5',
      '',
      'class TestUser:',
      '    def test_builds_a_user(self):',
      '        assert user("ann") == {"name": "ann", "admin": True, "tags": ["a", "b"]}',
      ''
    ].join('\n')
  }),
  formats: [
    {
      label: 'console',
      command: [TEST_PYTHON, '-m', 'pytest', '-p', 'no:cacheprovider'],
      ids: ['tests/test_math.py::test_adds_two_numbers', 'tests/test_math.py::TestUser::test_builds_a_user']
    },
    {
      label: 'junit report',
      command: [TEST_PYTHON, '-m', 'pytest', '-p', 'no:cacheprovider', '--junitxml=report.xml'],
      report: 'report.xml',
      ids: ['tests.test_math › test_adds_two_numbers', 'tests.test_math.TestUser › test_builds_a_user']
    }
  ],
  diffs: [
    ['assert -1 == 5', 'where -1 = add(2, 3)'],
    ["{'admin': False} != {'admin': True}", 'Differing items']
  ]
}

/** A fresh project directory for one run (a new path each time, as the gate's checkouts have). */
function project(family: Family, bug: Bug): string {
  const dir = tempDir(`loopgate-runner-${family.runner.replace(/\W/g, '')}-`)
  for (const [file, content] of Object.entries(family.files(bug))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), content)
  }
  symlinkSync(NODE_MODULES, path.join(dir, 'node_modules'))
  return dir
}

interface Reading {
  dir: string
  failures: FailureItem[]
  tests: number | null
  fingerprint: string | null
  runners: string[]
}

/** Runs one format of the runner (its output captured, not shown) and reads it as the gate does. */
function run(family: Family, format: Format, bug: Bug): Reading {
  const dir = project(family, bug)
  try {
    const [command, ...args] = format.command
    const r = spawnSync(command, args, {
      cwd: dir,
      encoding: 'utf8',
      timeout: 90_000,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PYENV_ROOT: process.env.PYENV_ROOT,
        LANG: 'C.UTF-8',
        CI: 'true',
        FORCE_COLOR: '1',
        PYTHONDONTWRITEBYTECODE: '1',
        npm_config_update_notifier: 'false'
      }
    })
    if (r.error) throw r.error
    expect(r.status).not.toBe(0)
    const output = `${r.stdout}\n${r.stderr}`
    if (format.report) {
      const report = parseReport(readFileSync(path.join(dir, format.report), 'utf8'), dir)
      return {
        dir,
        failures: report.failures,
        tests: report.tests,
        fingerprint: verdictFingerprint(report.failures, 'exit 1', output),
        runners: [report.format]
      }
    }
    const read = readOutput(output, dir)
    return {
      dir,
      failures: read.failures,
      tests: read.counts?.tests ?? null,
      fingerprint: verdictFingerprint(read.failures, 'exit 1', output),
      runners: read.runners
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function checkFamily(family: Family): void {
  for (const format of family.formats) {
    const first = run(family, format, 'minus')
    expect({ format: format.label, ids: first.failures.map((f) => f.id) }).toEqual({ format: format.label, ids: format.ids })
    expect(first.tests).toBe(3)
    first.failures.forEach((failure, i) => {
      for (const text of (format.diffs ?? family.diffs)[i])
        expect({ format: format.label, id: failure.id, message: failure.message }).toEqual(expect.objectContaining({ message: expect.stringContaining(text) }))
      expect(failure.message.split('\n').length).toBeLessThanOrEqual(41)
      expect(failure.message).not.toMatch(/\u001b\[|^\s*at .*:\d+:\d+\)?$/m)
      expect(failure.message).not.toContain(first.dir)
    })
    const again = run(family, format, 'minus')
    expect(again.fingerprint).toBe(first.fingerprint)
    expect(fingerprintOf(again.failures)).toBe(fingerprintOf(first.failures))
    const otherValue = run(family, format, 'times')
    expect(otherValue.failures.map((f) => f.id)).toEqual(format.ids)
    expect({ format: format.label, fingerprint: otherValue.fingerprint }).not.toEqual({ format: format.label, fingerprint: first.fingerprint })
  }
}

describe('the real runners, read as the gate reads them', () => {
  test('vitest: console, JUnit report, JSON on the console', () => checkFamily(vitest))
  test('jest: console, JSON report, JSON on the console', () => checkFamily(jest))
  test('mocha: console, TAP and xunit on the console', () => checkFamily(mocha))
  test('node:test: TAP and spec on the console, JUnit report', () => checkFamily(nodeTest))
  needs('python3', 'pytest').test('pytest: console, --junitxml report', () => checkFamily(pytest))
})

describe('the protected gate', () => {
  test('fingerprints the output when no test line is read, and keeps messages from a parsed run', async () => {
    const ws = makeRepo(attackProject())
    mkdirSync(path.join(ws, 'node_modules', 'minicheck'), { recursive: true })
    writeFileSync(path.join(ws, 'node_modules', 'minicheck', 'package.json'), JSON.stringify({ name: 'minicheck', type: 'module', main: 'index.mjs' }))
    writeFileSync(path.join(ws, 'node_modules', 'minicheck', 'index.mjs'), MINICHECK)
    const base = sh(ws, ['rev-parse', 'HEAD']).trim()
    const commit = (source: string): string => {
      writeFileSync(path.join(ws, 'src/math.mjs'), source)
      sh(ws, ['commit', '-qam', 'change'])
      return sh(ws, ['rev-parse', 'HEAD']).trim()
    }
    const yamlCrash = commit(
      "export const add = null\nthrow new Error('YAMLException: bad indentation of a mapping entry (3:5) after ' + Date.now() + ' ms')\n"
    )
    const typeError = commit("export const add = null\nthrow new TypeError('add is not a function')\n")
    const times = commit('export function add(a, b) {\n  return a * b\n}\n')
    const temp = tempDir()
    const gate = new ProtectedGate({
      workspace: ws,
      repository: GitRepository.plain(ws),
      snapshot: await BaseSnapshot.take(GitRepository.plain(ws), base, { paths: new ProtectedPaths(['test/**']) }),
      command: 'node test/run.mjs',
      timeoutMs: 60000,
      env: gateEnv(process.env),
      privateDir: path.join(temp, 'private'),
      gateDir: path.join(temp, 'gate')
    })
    await gate.init()
    const crash = await gate.run(yamlCrash)
    expect(crash.reason).toBe('exit 1')
    expect(crash.failures).toEqual([])
    const crashAgain = await gate.run(yamlCrash)
    expect(crashAgain.fingerprint).toBe(crash.fingerprint)
    const other = await gate.run(typeError)
    expect(other.reason).toBe('exit 1')
    expect(other.fingerprint).not.toBe(crash.fingerprint)
    const wrong = await gate.run(times)
    expect(wrong.failures).toEqual([{ id: 'math adds two numbers', message: 'expected 5, got 6' }])
  })
})
