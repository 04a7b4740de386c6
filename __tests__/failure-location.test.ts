import { spawnSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { failureEvidence } from '../src/loop/failure-evidence.js'
import { gateVerdict } from '../src/gate/verdict.js'
import { ROOT } from './helpers/action-runner.js'
import { tempDir } from './helpers/repo.js'

/**
 * The failing assertion's own line survives stack stripping, as a repository path, without colour
 * codes: on the output of the real runners (node:test, mocha, jest, vitest from node_modules; pytest).
 */

const BIN = path.join(ROOT, 'node_modules', '.bin')

/** A project whose one test makes three assertions; the second (line 6) fails. */
function project(files: Record<string, string>): string {
  const dir = tempDir('loopgate-location-')
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), text)
  }
  return dir
}

function run(dir: string, command: string, args: string[]) {
  const r = spawnSync(command, args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, FORCE_COLOR: '1', CI: '' } })
  const output = `${r.stdout}\n${r.stderr}`
  return {
    output,
    verdict: gateVerdict({ run: { exitCode: r.status, signal: null, timedOut: false, aborted: false }, output, dir, timeoutMs: 60_000, durationMs: 1 })
  }
}

const JS_TEST = (imports: string, call: string): string =>
  [
    imports,
    '',
    `${call}('adds three ways', () => {`,
    "  assert.equal(add(1, 1), 2, 'one and one')",
    "  assert.equal(add(2, 3), 5, 'two and three')",
    "  assert.equal(add(0, 0), 0, 'nothing')",
    '})',
    ''
  ].join('\n')
const LIB = 'export function add(a, b) {\n  return a === 2 ? a * b : a + b\n}\n'

const cases: [string, () => { dir: string; output: string; verdict: ReturnType<typeof gateVerdict> }, string][] = [
  [
    'node:test',
    () => {
      const dir = project({
        'package.json': '{"type":"module"}',
        'lib/add.js': LIB,
        'test/issues/0164.js': JS_TEST("import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { add } from '../../lib/add.js'", 'test')
      })
      return { dir, ...run(dir, process.execPath, ['--test', 'test/issues/0164.js']) }
    },
    'test/issues/0164.js:7'
  ],
  [
    'mocha',
    () => {
      const dir = project({
        'package.json': '{"type":"module"}',
        'lib/add.js': LIB,
        'test/add.test.js': JS_TEST("import assert from 'node:assert'\nimport { add } from '../lib/add.js'", 'it')
      })
      return { dir, ...run(dir, path.join(BIN, 'mocha'), ['--color', 'test/add.test.js']) }
    },
    'test/add.test.js:6'
  ],
  [
    'jest',
    () => {
      const dir = project({
        'package.json': '{}',
        'lib/add.js': 'exports.add = (a, b) => (a === 2 ? a * b : a + b)\n',
        'test/add.test.js': JS_TEST("const assert = require('node:assert')\nconst { add } = require('../lib/add.js')", 'test')
      })
      return { dir, ...run(dir, path.join(BIN, 'jest'), ['--colors', '--rootDir', dir]) }
    },
    'test/add.test.js:6'
  ],
  [
    'vitest',
    () => {
      const dir = project({
        'package.json': '{"type":"module"}',
        'lib/add.js': LIB,
        'test/add.test.js': JS_TEST("import { test } from 'vitest'\nimport assert from 'node:assert'\nimport { add } from '../lib/add.js'", 'test')
      })
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'))
      return { dir, ...run(dir, path.join(BIN, 'vitest'), ['run', '--color']) }
    },
    'test/add.test.js:7'
  ],
  [
    'pytest',
    () => {
      const dir = project({
        'lib/__init__.py': '',
        'lib/add.py': 'def add(a, b):\n    return a * b if a == 2 else a + b\n',
        'tests/test_add.py': [
          'from lib.add import add',
          '',
          '',
          'def test_adds_three_ways():',
          '    assert add(1, 1) == 2',
          '    assert add(2, 3) == 5',
          '    assert add(0, 0) == 0',
          ''
        ].join('\n')
      })
      return { dir, ...run(dir, 'python3', ['-m', 'pytest', '--color=yes', '-p', 'no:cacheprovider', 'tests']) }
    },
    'tests/test_add.py:6'
  ]
]

describe.each(cases)('%s', (_name, make, location) => {
  test('the failing line is kept, relative to the repository, without colour codes', () => {
    const { dir, output, verdict } = make()
    expect(verdict.passed).toBe(false)
    // The runner's own output had what must not reach a prompt: the checkout's path or colour codes.
    expect(output.includes(dir) || /\u001b\[/.test(output)).toBe(true)
    const text = failureEvidence(verdict).join('\n')
    expect(text).toContain(`at ${location}`)
    expect(text).not.toContain(dir)
    expect(text).not.toMatch(/\u001b/)
  })
})

test('an error thrown in the project’s code names its file and the test line that called it, both as repository paths', () => {
  const dir = project({
    'package.json': '{"type":"module"}',
    'lib/loader.js': "export function load(name) {\n  if (!name) throw new TypeError('no name given')\n  return name\n}\n",
    'test/load.test.js': "import { test } from 'node:test'\nimport { load } from '../lib/loader.js'\n\ntest('loads', () => {\n  load('a')\n  load('')\n})\n"
  })
  const { verdict } = run(dir, process.execPath, ['--test', 'test/load.test.js'])
  const text = failureEvidence(verdict).join('\n')
  expect(text).toContain('at lib/loader.js:2\nat test/load.test.js:6')
  expect(text).not.toContain(dir)
})
