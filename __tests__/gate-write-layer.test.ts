/**
 * Each gate run writes into a copy-on-write layer of its own over the root-owned checkout: the
 * suite's own writes (a build's version file, a cache inside node_modules, a timestamp file next
 * to a config, an executable bit) succeed and are thrown away after the run; a fixture under a
 * test folder may be rewritten and put back when the baseline's run did so too; any other write
 * to a protected path fails the verdict as tampering, naming the path. Needs root (overlayfs in a
 * mount namespace, a separate gate user).
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { attackProject, runAttack, type AttackResult } from './helpers/gate-fixture.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"
const user = (name: string): string => `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-${name}`
const FIXTURE = 'first line\nsecond line\n'

/** The project with a fixture under the tests and a tracked bin without its executable bit. */
function project(): Record<string, string> {
  return { ...attackProject(), 'test/data/fixture.txt': FIXTURE, 'bin/cli.sh': '#!/bin/sh\necho cli\n', 'vitest.config.ts': 'export default {}\n' }
}

/** The suite's round trip: the fixture rewritten, read back, and put back as it was. */
const ROUND_TRIP =
  'cp test/data/fixture.txt "$TMPDIR/saved" && echo rewritten > test/data/fixture.txt && grep -q rewritten test/data/fixture.txt && cat "$TMPDIR/saved" > test/data/fixture.txt'

/** A shell step that appends `code` to src/math.mjs, quoted by a heredoc. */
const appendCode = (code: string): string => `cat >> src/math.mjs <<'JS'\n${code}\nJS\n`

const gate = (r: AttackResult, i: number) => r.report.run?.iterations[i]?.gate

test("a suite's own writes in the checkout succeed in the run's layer, reach no later run and no commit", async () => {
  const ownWrites = [
    // A version file the build writes, in a source folder; a config's timestamp file at the root.
    'echo "__version__ = \'1.0\'" > src/_version.py',
    'echo "export default {}" > vitest.config.ts.timestamp-1-abc.mjs',
    // A runner's cache inside node_modules (vitest --typecheck's tsbuildinfo, tsc's under .tmp).
    'echo "{}" > node_modules/.vite/tsconfig.tsbuildinfo && mkdir -p node_modules/.tmp && echo "{}" > node_modules/.tmp/tsconfig.app.tsbuildinfo',
    // A workspace bin made executable by the install (found as yarn finds it, not named in the command).
    'find bin -type f -exec chmod +x {} + && find bin -type f -perm -u+x -exec {} \\;'
  ].join(' && ')
  const r = await runAttack({
    isolation: 'auto',
    agentUser: user('wlown'),
    files: project(),
    inputs: {
      'gate-setup': 'test ! -e src/_version.py && echo SETUP-CLEAN',
      'gate-command': `test ! -e node_modules/.vite/tsconfig.tsbuildinfo && test ! -e node_modules/.tmp/tsconfig.app.tsbuildinfo && test -z "$(find bin -perm -u+x -type f)" && ${ownWrites} && node test/run.mjs`,
      'max-iterations': '3'
    },
    script: `if [ "$LOOPGATE_ITERATION" = 1 ]; then echo "// not yet" >> src/math.mjs; else ${FIX}fi\n`
  })
  // Iteration 1 ran the suite (its tests fail): iteration 2's run saw none of iteration 1's writes.
  expect(gate(r, 0)?.outputTail).toContain('cli')
  expect(gate(r, 0)?.passed).toBe(false)
  expect(r.report.stopReason).toBe('verified')
  expect(gate(r, 1)?.outputTail).toContain('SETUP-CLEAN')
  for (const f of ['src/_version.py', 'vitest.config.ts.timestamp-1-abc.mjs', 'node_modules/.vite/tsconfig.tsbuildinfo'])
    expect(existsSync(path.join(r.ws, f))).toBe(false)
  expect(r.log).toMatch(/the gate run wrote \d+ path\(s\)[^"]*src\//)
})

test('a fixture the suite rewrites and puts back (the baseline does too) passes; one the code leaves changed is tampering', async () => {
  const roundTrip = await runAttack({
    isolation: 'auto',
    agentUser: user('wlfix'),
    files: project(),
    inputs: { 'gate-command': `${ROUND_TRIP} && node test/run.mjs` },
    script: FIX
  })
  expect(gate(roundTrip, 0)?.reason).not.toContain('protected')
  expect(roundTrip.report.stopReason).toBe('verified')

  // The code under test rewrites the fixture after the suite's round trip and leaves it so.
  const leave = appendCode("import { writeFileSync } from 'node:fs'\ntry { writeFileSync('test/data/fixture.txt', 'evil') } catch {}")
  const left = await runAttack({
    isolation: 'auto',
    agentUser: user('wlfix2'),
    files: project(),
    inputs: { 'gate-command': `${ROUND_TRIP} && node test/run.mjs` },
    script: FIX + leave
  })
  expect(left.report.stopReason).not.toBe('verified')
  expect(gate(left, 0)?.reason).toContain('test/data/fixture.txt (left changed by the gate run')
})

test('a fixture the baseline never wrote, rewritten and put back by the candidate’s code, is tampering', async () => {
  // The candidate's code changes the fixture before the suite would read it and puts it back at exit.
  const sneak = [
    "import { readFileSync, writeFileSync } from 'node:fs'",
    "const f = 'test/data/fixture.txt'",
    "try { const was = readFileSync(f); writeFileSync(f, 'forged'); process.on('exit', () => writeFileSync(f, was)) } catch {}"
  ].join('\n')
  const r = await runAttack({ isolation: 'auto', agentUser: user('wlsneak'), files: project(), script: FIX + appendCode(sneak) })
  expect(r.report.stopReason).not.toBe('verified')
  expect(gate(r, 0)?.reason).toContain('test/data/fixture.txt (written by the gate run, which the baseline run on the base never did')
})

test('a test file replaced before the runner loads it (by code gate-setup runs) is tampering, named', async () => {
  // The candidate's build step swaps the protected test for one that always passes.
  const build = "import { rmSync, writeFileSync } from 'node:fs'\nrmSync('test/run.mjs')\nwriteFileSync('test/run.mjs', 'console.log(1)')"
  const r = await runAttack({
    isolation: 'auto',
    agentUser: user('wlswap'),
    files: { ...project(), 'scripts/build.mjs': "import '../src/plugin.mjs'\n", 'src/plugin.mjs': 'console.log("built")\n' },
    inputs: { 'gate-setup': 'node scripts/build.mjs', 'gate-command': 'node test/run.mjs' },
    script: `cat > src/plugin.mjs <<'JS'\n${build}\nJS\n`
  })
  expect(r.report.stopReason).not.toBe('verified')
  expect(gate(r, 0)?.reason).toContain('after gate-setup, protected files differ')
  expect(gate(r, 0)?.reason).toContain('test/run.mjs (written by the gate run: the runner loads it as a test or its configuration')
  expect(readFileSync(path.join(r.ws, 'test/run.mjs'), 'utf8')).toBe(attackProject()['test/run.mjs'])
})
