/** Fail closed: counts against the baseline, timeouts, missing reports, checkout verification. */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ProtectedGate } from '../src/gate/protected-gate.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { gateEnv } from '../src/agents/agent-env.js'
import { attackProject, MINICHECK, runAttack } from './helpers/gate-fixture.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'
import { GitRepository } from '../src/git/repository.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

/** A project whose gate writes a TAP report; one test skips when src/config.mjs says so. */
function tapProject(): Record<string, string> {
  return {
    ...attackProject(),
    'src/config.mjs': 'export const skipSlow = false\n',
    'test/tap.mjs': [
      "import { add } from '../src/math.mjs'",
      "import { skipSlow } from '../src/config.mjs'",
      "console.log('TAP version 13')",
      "console.log('1..3')",
      "console.log(add(2, 3) === 5 ? 'ok 1 - adds two' : 'not ok 1 - adds two\\n  ---\\n  message: expected 5\\n  ...')",
      "console.log(add(0, 0) === 0 ? 'ok 2 - adds zero' : 'not ok 2 - adds zero')",
      "console.log(skipSlow ? 'ok 3 - slow # SKIP slow' : 'ok 3 - slow')",
      'if (add(2, 3) !== 5) process.exit(1)',
      ''
    ].join('\n')
  }
}

const TAP_GATE = { 'gate-command': 'node test/tap.mjs > report.tap', 'gate-report': 'report.tap' }

test('code that exits before the tests run: no test count, so the gate fails', async () => {
  const r = await runAttack({ isolation: 'weak', script: "printf 'process.exit(0)\\nexport const add = 0\\n' > src/math.mjs\n" })
  expect(r.report.run?.iterations[0].gate?.passed).toBe(false)
  expect(r.report.run?.iterations[0].gate?.reason).toContain('no test count found (the baseline ran 2)')
  expect(r.report.run?.verifiedCommit).toBeNull()
})

test('with a report: fewer tests than the baseline fails with that reason', async () => {
  const r = await runAttack({
    isolation: 'weak',
    files: tapProject(),
    inputs: TAP_GATE,
    script: `${FIX}printf 'import { add } from "./math.mjs"\\nexport const skipSlow = false\\nprocess.stdout.write("TAP version 13\\\\n1..1\\\\nok 1 - adds two\\\\n"); process.exit(0)\\n' > src/config.mjs\n`
  })
  const gate = r.report.run?.iterations[0].gate
  expect(gate?.passed).toBe(false)
  expect(gate?.reason).toContain('fewer tests than the baseline (1 < 3)')
})

test('with a report: more skipped than the baseline fails with that reason', async () => {
  const r = await runAttack({
    isolation: 'weak',
    files: tapProject(),
    inputs: TAP_GATE,
    script: `${FIX}echo 'export const skipSlow = true' > src/config.mjs\n`
  })
  const gate = r.report.run?.iterations[0].gate
  expect(gate?.passed).toBe(false)
  expect(gate?.reason).toContain('more tests skipped than the baseline (1 > 0)')
})

test('with a report: the honest fix passes, failures and fingerprint come from the report', async () => {
  const r = await runAttack({
    isolation: 'weak',
    files: tapProject(),
    inputs: { ...TAP_GATE, 'max-iterations': '3' },
    script: 'if [ "$LOOPGATE_ITERATION" = 2 ]; then sed -i "s/a - b/a + b/" src/math.mjs; else echo "// $LOOPGATE_ITERATION" >> src/math.mjs; fi\n'
  })
  const first = r.report.run?.iterations[0].gate
  expect(first?.failures).toEqual([{ id: 'adds two', message: 'expected 5' }])
  expect(first?.testsRun).toBe(3)
  expect(r.report.stopReason).toBe('verified')
  expect(r.report.run?.iterations[1].gate?.passedIds).toEqual(['adds two', 'adds zero', 'slow'])
})

test('a gate that leaves no report when gate-report is set: the baseline has no count, so the run stops gate-broken', async () => {
  const r = await runAttack({ isolation: 'weak', inputs: { 'gate-report': 'junit.xml' }, script: FIX })
  expect(r.report.stopReason).toBe('gate-broken')
  expect(r.report.run).toBeNull()
  expect(r.report.notes.join('\n')).toContain('no report at junit.xml')
})

test('a candidate that leaves no report fails when gate-report is set', async () => {
  const r = await runAttack({
    isolation: 'weak',
    files: tapProject(),
    inputs: TAP_GATE,
    script: `${FIX}printf 'export const skipSlow = false\\nprocess.exit(0)\\n' > src/config.mjs\n`
  })
  const gate = r.report.run?.iterations[0].gate
  expect(gate?.passed).toBe(false)
  expect(gate?.reason).toContain('unreadable report report.tap')
  expect(gate?.reason).toContain('no test count found (the baseline ran 3)')
})

test('a gate that times out fails (its own timeout)', async () => {
  const r = await runAttack({
    isolation: 'weak',
    inputs: { 'gate-timeout-minutes': '0.05' },
    script: `${FIX}echo 'await new Promise((r) => setTimeout(r, 60000))' >> src/math.mjs\n`
  })
  const gate = r.report.run?.iterations[0].gate
  expect(gate?.passed).toBe(false)
  expect(gate?.timedOut).toBe(true)
  expect(gate?.reason).toMatch(/timed out after 3 s/)
})

test('a feature flip survives only when its test passed in the report', async () => {
  const files = {
    ...tapProject(),
    'features.json':
      JSON.stringify(
        [
          { id: 'add', test: 'adds two', passes: false },
          { id: 'ghost', test: 'does not exist', passes: false }
        ],
        null,
        2
      ) + '\n'
  }
  const r = await runAttack({
    isolation: 'weak',
    files,
    inputs: { ...TAP_GATE, 'features-file': 'features.json' },
    script: `${FIX}sed -i 's/"passes": false/"passes": true/g' features.json\n`
  })
  const features = JSON.parse(execFileSync('git', ['-c', 'safe.directory=*', 'show', 'HEAD:features.json'], { cwd: r.ws, encoding: 'utf8' }).toString()) as {
    id: string
    passes: boolean
  }[]
  const rejected = r.report.run?.iterations[0].rejected.join('\n') ?? ''
  expect(rejected).toContain('reverted: ghost')
  expect(rejected).not.toContain('add,')
  expect(r.report.run?.verifiedCommit).toBeNull()
  expect(features).toBeDefined()
})

test('the clean checkout fails closed when a protected file differs from the base', async () => {
  const ws = makeRepo(attackProject())
  mkdirSync(path.join(ws, 'node_modules', 'minicheck'), { recursive: true })
  writeFileSync(path.join(ws, 'node_modules', 'minicheck', 'package.json'), JSON.stringify({ name: 'minicheck', type: 'module', main: 'index.mjs' }))
  writeFileSync(path.join(ws, 'node_modules', 'minicheck', 'index.mjs'), MINICHECK)
  const baseSha = sh(ws, ['rev-parse', 'HEAD']).trim()
  const snapshot = await BaseSnapshot.take(GitRepository.plain(ws), baseSha, { paths: new ProtectedPaths(['test/**']) })
  writeFileSync(path.join(ws, 'test/run.mjs'), 'process.exit(0)\n')
  sh(ws, ['commit', '-qam', 'tampered'])
  const tampered = sh(ws, ['rev-parse', 'HEAD']).trim()
  const temp = tempDir()
  const gate = new ProtectedGate({
    workspace: ws,
    repository: GitRepository.plain(ws),
    snapshot,
    command: 'node test/run.mjs',
    timeoutMs: 60000,
    env: gateEnv(process.env),
    privateDir: path.join(temp, 'private'),
    gateDir: path.join(temp, 'gate')
  })
  await gate.init()
  const verdict = await gate.run(tampered)
  expect(verdict.passed).toBe(false)
  expect(verdict.reason).toBe('protected files differ from the base in the clean checkout: test/run.mjs (modified)')
  const baseline = await gate.runBaseline(tampered)
  expect(baseline.tests).toBe(2)
})

test('gate-setup runs first in the clean checkout, as the agent user, with writable dependencies', async () => {
  const r = await runAttack({
    isolation: 'auto',
    agentUser: `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-setup`,
    inputs: {
      'gate-setup': 'touch node_modules/minicheck/setup-was-here && echo "setup by $(id -un)" > build/.setup-done',
      'gate-command': 'cat build/.setup-done && test -f node_modules/minicheck/setup-was-here && node test/run.mjs'
    },
    script: FIX
  })
  expect(r.report.stopReason).toBe('verified')
  expect(r.report.run?.iterations[0].gate?.outputTail).toContain(`setup by loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-setup`)
})

test("a gate-setup that fails on the agent's commit fails the gate with that reason", async () => {
  const r = await runAttack({ isolation: 'weak', inputs: { 'gate-setup': 'test ! -e setup-breaker || exit 3' }, script: `${FIX}touch setup-breaker\n` })
  expect(r.report.run?.iterations[0].gate?.passed).toBe(false)
  expect(r.report.run?.iterations[0].gate?.reason).toBe('gate-setup failed (exit 3)')
})

test('protected paths that differ between the start commit and the base are set to the base before the first call, not counted', async () => {
  const r = await runAttack({
    isolation: 'weak',
    inputs: { 'base-ref': 'main~1' },
    prepare: (ws) => {
      writeFileSync(path.join(ws, 'test/run.mjs'), "console.log('✓ nothing')\n")
      sh(ws, ['commit', '-qam', 'a branch that weakened the test'])
    },
    script: FIX
  })
  expect(r.report.notes.some((n) => n.startsWith('protected paths set to the base') && n.includes('test/run.mjs (modified)'))).toBe(true)
  expect(r.report.run?.iterations[0].rejected).toEqual([])
  expect(r.report.run?.iterations[0].tampered).toBe(false)
  expect(r.report.run?.iterations[0].changedFiles).toEqual(['src/math.mjs'])
  expect(r.report.stopReason).toBe('verified')
  expect(execFileSync('git', ['-c', 'safe.directory=*', 'show', 'HEAD:test/run.mjs'], { cwd: r.ws, encoding: 'utf8' })).toContain('add(2, 3), 5)')
})
