/** The gate on real project layouts: correct work verifies, work that lives only in the workspace does not. */
import { chmodSync } from 'node:fs'
import path from 'node:path'
import { attackProject, runAttack } from './helpers/gate-fixture.js'
import { sh } from './helpers/repo.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

test('a test that spawns an executable fixture (100755) passes the baseline and verifies a correct change', async () => {
  const files = {
    ...attackProject(),
    'tests/fixtures/run.sh': '#!/bin/sh\necho fixture-ran\n',
    'test/run.mjs': [
      "import { execFileSync } from 'node:child_process'",
      "import { check, done } from 'minicheck'",
      "import { add } from '../src/math.mjs'",
      "check('the fixture runs', execFileSync('tests/fixtures/run.sh', { encoding: 'utf8' }).trim(), 'fixture-ran')",
      "check('math adds two numbers', add(2, 3), 5)",
      'done()',
      ''
    ].join('\n')
  }
  const r = await runAttack({
    isolation: 'auto',
    files,
    prepare: (ws) => {
      chmodSync(path.join(ws, 'tests/fixtures/run.sh'), 0o755)
      sh(ws, ['update-index', '--chmod=+x', 'tests/fixtures/run.sh'])
      sh(ws, ['commit', '-qm', 'the fixture is executable'])
    },
    script: FIX
  })
  const baseline = r.report.notes.find((n) => n.startsWith('protected gate:'))
  expect(baseline).toContain('baseline 2 test(s)')
  expect(r.report.run?.iterations[0].gate?.outputTail).toContain('✓ the fixture runs')
  expect(r.report.stopReason).toBe('verified')
})
