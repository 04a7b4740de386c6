/**
 * The gate's checkout is not the gate user's: only the folders a runner writes (build output,
 * reports, caches; see toolchain/runner-folders.ts) take new files, during gate-setup and the gate
 * command alike. Needs root (a separate gate user).
 */
import { runAttack } from './helpers/gate-fixture.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

/** Tries each write as the gate user and says what happened, in the gate's output. */
function writes(tag: string): string {
  const attempt = (name: string, target: string): string =>
    `{ echo 'export const planted = 1' > ${target} && echo ${tag}-${name}-WRITTEN; } 2>/dev/null || echo ${tag}-${name}-REFUSED`
  return [
    attempt('SRC', 'src/planted.mjs'),
    attempt('ROOT', 'planted.mjs'),
    attempt('TESTS', 'test/planted.mjs'),
    attempt('BUILD', 'build/out.mjs'),
    attempt('DIST', 'dist/out.mjs')
  ].join('; ')
}

const user = (name: string): string => `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-${name}`

test('the gate command cannot add a file to a source folder, the root or a test folder; it can write a build folder', async () => {
  const r = await runAttack({
    isolation: 'auto',
    agentUser: user('wfcmd'),
    inputs: { 'gate-command': `${writes('CMD')}; node test/run.mjs` },
    script: FIX
  })
  expect(r.report.stopReason).toBe('verified')
  const out = r.report.run?.iterations[0].gate?.outputTail ?? ''
  for (const name of ['SRC', 'ROOT', 'TESTS']) expect(out).toContain(`CMD-${name}-REFUSED`)
  for (const name of ['BUILD', 'DIST']) expect(out).toContain(`CMD-${name}-WRITTEN`)
})

test('gate-setup cannot add a file to a source folder or the root either; it can write build output and install into node_modules', async () => {
  const r = await runAttack({
    isolation: 'auto',
    agentUser: user('wfsetup'),
    inputs: {
      'gate-setup': `${writes('SETUP')}; touch node_modules/minicheck/installed && echo SETUP-DEPS-WRITTEN`,
      'gate-command': 'test -f build/out.mjs && test ! -e src/planted.mjs && test ! -e planted.mjs && node test/run.mjs'
    },
    script: FIX
  })
  expect(r.report.stopReason).toBe('verified')
  const out = r.report.run?.iterations[0].gate?.outputTail ?? ''
  for (const name of ['SRC', 'ROOT', 'TESTS']) expect(out).toContain(`SETUP-${name}-REFUSED`)
  for (const name of ['BUILD', 'DIST', 'DEPS']) expect(out).toContain(`SETUP-${name}-WRITTEN`)
})
