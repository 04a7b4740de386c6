/**
 * The gate's checkout is not the gate user's, but each gate run writes into a layer of its own
 * over it (see write-layer.ts): a source folder, the root and the runner's folders take new files
 * during gate-setup and the gate command alike, and none of them reaches the next run; a new file
 * in a test folder is a write to a protected path, which fails the candidate's verdict. Needs root
 * (a separate gate user, overlayfs in a mount namespace).
 */
import { runAttack } from './helpers/gate-fixture.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

/** Tries each write as the gate user and says what happened, in the gate's output. */
function writes(tag: string, names = ['SRC', 'ROOT', 'BUILD', 'DIST']): string {
  const targets: Record<string, string> = {
    SRC: 'src/planted.mjs',
    ROOT: 'planted.mjs',
    TESTS: 'test/planted.mjs',
    BUILD: 'build/out.mjs',
    DIST: 'dist/out.mjs'
  }
  const attempt = (name: string): string =>
    `{ echo 'export const planted = 1' > ${targets[name]} && echo ${tag}-${name}-WRITTEN; } 2>/dev/null || echo ${tag}-${name}-REFUSED`
  return names.map(attempt).join('; ')
}

/** Nothing an earlier gate run wrote is there when a run starts. */
const NOTHING_LEFT = 'test ! -e src/planted.mjs && test ! -e planted.mjs && test ! -e build/out.mjs && test ! -e dist/out.mjs'

const user = (name: string): string => `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-${name}`

test('the gate command writes a source folder, the root and build folders in its own layer; the next run sees none of it', async () => {
  const r = await runAttack({
    isolation: 'auto',
    agentUser: user('wfcmd'),
    // The runner's own packages are not the run's to replace (without gate-setup they are the pristine copy).
    inputs: {
      'gate-command': `${NOTHING_LEFT} && { ${writes('CMD')}; { rm -f node_modules/minicheck/index.mjs 2>/dev/null && echo CMD-NM-WRITTEN; } || echo CMD-NM-REFUSED; } && node test/run.mjs`
    },
    script: FIX
  })
  expect(r.report.stopReason).toBe('verified')
  const out = r.report.run?.iterations[0].gate?.outputTail ?? ''
  for (const name of ['SRC', 'ROOT', 'BUILD', 'DIST']) expect(out).toContain(`CMD-${name}-WRITTEN`)
  expect(out).toContain('CMD-NM-REFUSED')
})

test('gate-setup writes build output, the root and node_modules for the command of its run; a file it adds to a test folder fails the verdict', async () => {
  const setup = `${NOTHING_LEFT} && { ${writes('SETUP')}; } && touch node_modules/minicheck/installed && echo SETUP-DEPS-WRITTEN`
  const r = await runAttack({
    isolation: 'auto',
    agentUser: user('wfsetup'),
    inputs: {
      'gate-setup': setup,
      // The command looks for what the setup wrote without naming it (a file the command names is protected).
      'gate-command': 'ls build src node_modules/minicheck | grep -c "out.mjs\\|planted.mjs\\|installed" | grep -qx 3 && node test/run.mjs'
    },
    script: FIX
  })
  expect(r.report.stopReason).toBe('verified')
  const out = r.report.run?.iterations[0].gate?.outputTail ?? ''
  for (const name of ['SRC', 'ROOT', 'BUILD', 'DIST', 'DEPS']) expect(out).toContain(`SETUP-${name}-WRITTEN`)

  const planted = await runAttack({
    isolation: 'auto',
    agentUser: user('wfsetup2'),
    inputs: { 'gate-setup': writes('SETUP', ['TESTS']), 'gate-command': 'node test/run.mjs' },
    script: FIX
  })
  expect(planted.report.stopReason).not.toBe('verified')
  expect(planted.report.run?.iterations[0].gate?.reason).toContain(
    'after gate-setup, protected files differ from the base in the clean checkout: test/planted.mjs (written by the gate run'
  )
})
