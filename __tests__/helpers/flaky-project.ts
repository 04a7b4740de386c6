import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { makeRepo, sharedTempDir } from './repo.js'

/** A journal every test of a project writes its name to when it runs (the gate user writes it too). */
export function journal(): { file: string; runs: (name: string) => number } {
  const file = path.join(sharedTempDir('loopgate-flaky-journal-'), 'runs')
  writeFileSync(file, '')
  chmodSync(file, 0o666)
  return {
    file,
    runs: (name) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l === name).length
  }
}

/**
 * A node:test file whose tests each note their run; `body(run)` is each test's assertion on its own
 * run count. With `math`, it imports the module the agent fixes (so a change to it touches the file's tests).
 */
export function nodeTestFile(file: string, tests: Record<string, string>, math = true): string {
  return [
    "import { test } from 'node:test'",
    "import assert from 'node:assert'",
    "import { appendFileSync, readFileSync } from 'node:fs'",
    ...(math ? ["import { add } from '../src/math.mjs'"] : []),
    `const ran = (name) => { appendFileSync(${JSON.stringify(file)}, name + '\\n'); return readFileSync(${JSON.stringify(file)}, 'utf8').split('\\n').filter((l) => l === name).length }`,
    ...Object.entries(tests).map(([name, body]) => `test(${JSON.stringify(name)}, () => {\n  const run = ran(${JSON.stringify(name)})\n  ${body}\n})`),
    ''
  ].join('\n')
}

/** A project whose `add` is broken (the task), with four steady tests and `extra` tests of its own. */
export function nodeProject(file: string, extra: Record<string, string>, more: Record<string, string> = {}): string {
  return makeRepo(nodeProjectFiles(file, extra, more))
}

/** The files of nodeProject. */
export function nodeProjectFiles(file: string, extra: Record<string, string>, more: Record<string, string> = {}): Record<string, string> {
  const steady = Object.fromEntries([1, 2, 3, 4].map((n) => [`steady ${n}`, 'assert.ok(run > 0)']))
  return {
    'package.json': JSON.stringify({ name: 'coin', version: '1.0.0', private: true, type: 'module' }),
    'src/math.mjs': 'export function add(a, b) {\n  return a - b\n}\n',
    'test/math.test.mjs': nodeTestFile(file, { 'add adds': 'assert.equal(add(2, 3), 5)' }),
    'test/steady.test.mjs': nodeTestFile(file, steady, false),
    'test/extra.test.mjs': nodeTestFile(file, extra, false),
    ...more
  }
}

export const FIX = "sed -i 's/a - b/a + b/' src/math.mjs"
export const STEADY = ['steady 1', 'steady 2', 'steady 3', 'steady 4']
