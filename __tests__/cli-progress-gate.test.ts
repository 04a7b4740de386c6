import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { ROOT } from './helpers/action-runner.js'
import { makeRepo, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')

/** A node:test project of slow tests: its gate run spans several beats. */
function slowProject(): Record<string, string> {
  const slow = Array.from(
    { length: 6 },
    (_, i) => `test('slow ${i + 1}', async () => { await new Promise((r) => setTimeout(r, 700)); assert.equal(add(${i}, 1), ${i + 1}) })`
  )
  return {
    'package.json': '{ "name": "slow", "version": "1.0.0", "type": "module", "private": true }\n',
    'src/math.mjs': 'export function add(a, b) {\n  return a - b\n}\n',
    'test/math.test.mjs': [
      "import { test } from 'node:test'",
      "import assert from 'node:assert/strict'",
      "import { add } from '../src/math.mjs'",
      ...slow,
      ''
    ].join('\n')
  }
}

describe('the CLI while the gate runs', () => {
  it('its progress line names the gate run and the tests its runner reported so far', () => {
    const args = ['run', '--agent', 'command', '--agent-command', "sed -i 's/a - b/a + b/' src/math.mjs", '--prompt', 'x', '--gate-command', 'node --test']
    const r = spawnSync(process.execPath, [CLI, ...args, '--max-iterations', '1', '--temp-dir', tempDir()], {
      cwd: makeRepo(slowProject()),
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOOPGATE_PROGRESS_SECONDS: '1' }
    })
    expect(r.stdout).toContain('stop-reason: verified')
    const gate = r.stdout.split('\n').filter((l) => /^… still running, \d+s in; the gate's run so far: \d+s, \d+ test\(s\)$/.test(l))
    expect(gate.length).toBeGreaterThan(2)
    const counts = gate.map((l) => Number(/, (\d+) test\(s\)$/.exec(l)![1]))
    expect(counts.some((n) => n > 0 && n < 6)).toBe(true)
  }, 120_000)
})
