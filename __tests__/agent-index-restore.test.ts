/**
 * After loopgate puts a protected file back, the agent's own index says the same: its `git status`
 * is clean for the restored path, and a later `git rm` of it finds it.
 */
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { attackProject, runAttack } from './helpers/gate-fixture.js'

const USER = `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-idx`
const base = attackProject()

/** Call 1 removes the protected test with `git rm` and fixes nothing; call 2 records what its git says of the restored file. */
const script = (out: string): string =>
  [
    'if [ "$LOOPGATE_ITERATION" = 1 ]; then',
    '  git rm -q test/run.mjs',
    '  echo "before $(git status --porcelain -- test/run.mjs | tr "\\n" " ")" > ' + out,
    'else',
    '  echo "after [$(git status --porcelain -- test/run.mjs src/math.mjs | tr "\\n" " ")]" >> ' + out,
    '  if git rm -q --cached test/run.mjs 2>>' + out + '; then echo "rm: ok" >> ' + out + '; else echo "rm: failed" >> ' + out + '; fi',
    'fi',
    ''
  ].join('\n')

test('a protected file loopgate restored is in the agent’s index again: clean status, `git rm` finds it', async () => {
  const out = path.join('/tmp', `loopgate-index-${process.pid}.txt`)
  const r = await runAttack({ isolation: 'auto', agentUser: USER, script: script(out), env: {} })
  expect(r.report.run?.iterations[0].tampered).toBe(true)
  expect(readFileSync(path.join(r.ws, 'test/run.mjs'), 'utf8')).toBe(base['test/run.mjs'])
  const seen = readFileSync(out, 'utf8')
  expect(seen).toContain('before D ')
  expect(seen).toContain('after []')
  expect(seen).toContain('rm: ok')
  rmSync(out, { force: true })
})
