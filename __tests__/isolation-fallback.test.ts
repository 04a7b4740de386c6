/** The fallback path: no separate agent user (forced), the run goes on and says isolation is weak. */
import { existsSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { FAKE_TOKEN, gitIn, runAttack, tokenLeaks, type AttackResult } from './helpers/gate-fixture.js'
import { needs } from './helpers/needs-tools.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"
const marker = (name: string): string => `/tmp/loopgate-fallback-${process.pid}-${name}`
const weak = (script: string, inputs?: Record<string, string>): Promise<AttackResult> => runAttack({ isolation: 'weak', script, inputs })

afterAll(() => {
  for (const name of ['hook', 'filter', 'outlive']) rmSync(marker(name), { force: true })
})

test('the run goes on and the summary says, in one line, that isolation is weak and why', async () => {
  const r = await weak(`${FIX}id -u > uid.txt\n`)
  expect(r.report.stopReason).toBe('verified')
  const note = r.report.notes.find((n) => n.startsWith('isolation is weak'))
  expect(note).toMatch(/LOOPGATE_ISOLATION=weak.*process environment/)
  expect(note?.includes('\n')).toBe(false)
  expect(readFileSync(path.join(r.ws, 'uid.txt'), 'utf8').trim()).toBe(String(process.getuid?.()))
  expect(tokenLeaks(r)).toEqual([])
})

test('LOOPGATE_ISOLATION=weak in the runner environment forces the fallback too', async () => {
  const r = await runAttack({ isolation: 'auto', env: { LOOPGATE_ISOLATION: 'weak' }, script: FIX })
  expect(r.report.notes.some((n) => n.startsWith('isolation is weak'))).toBe(true)
})

test('editing a protected test is still reverted and stops the run', async () => {
  const r = await weak(`sed -i 's/add(2, 3), 5)/add(2, 3), -1)/' test/run.mjs\n`)
  expect(r.report.stopReason).toBe('protected-tampering')
  expect(gitIn(r.ws, ['show', 'HEAD:test/run.mjs'])).toContain('add(2, 3), 5)')
  expect(tokenLeaks(r)).toEqual([])
})

test('patching node_modules still does not fool the gate (a full pristine copy per gate run)', async () => {
  const r = await weak(`echo 'export function check(n){console.log("✓ "+n)}; export function done(){}' > node_modules/minicheck/index.mjs\n`)
  expect(r.report.run?.verifiedCommit).toBeNull()
  expect(r.report.run?.iterations[0].gate?.passed).toBe(false)
})

test('the environment and .git/config hold no token', async () => {
  const r = await weak(`${FIX}env > loot.txt; cat .git/config >> loot.txt\n`)
  const loot = readFileSync(path.join(r.ws, 'loot.txt'), 'utf8')
  expect(loot).not.toContain(FAKE_TOKEN)
  expect(loot).not.toMatch(/GITHUB_TOKEN|INPUT_|ACTIONS_|extraheader/)
  expect(tokenLeaks(r)).toEqual([])
})

test('planted hooks and filters never run in loopgate’s git', async () => {
  const r = await weak(
    `${FIX}printf '#!/bin/sh\\ntouch ${marker('hook')}\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit\ncp .git/hooks/pre-commit .git/hooks/post-commit\necho '* filter=evil' > .gitattributes\ngit config filter.evil.clean "sh -c 'touch ${marker('filter')}; cat'"\n`
  )
  expect(r.report.stopReason).toBe('verified')
  expect(existsSync(marker('hook'))).toBe(false)
  expect(existsSync(marker('filter'))).toBe(false)
})

needs('setsid').test('a process that escapes the group (setsid, nohup) is still killed by its call marker', async () => {
  const r = await weak(`${FIX}(setsid nohup bash -c 'sleep 2; touch ${marker('outlive')}' > /dev/null 2>&1 &)\n`)
  await new Promise((resolve) => setTimeout(resolve, 3000))
  expect(existsSync(marker('outlive'))).toBe(false)
  expect(r.report.stopReason).toBe('verified')
})

test('gate-time code that patches the checkout’s node_modules is undone before the next gate run', async () => {
  const patcher = [
    "import { writeFileSync, statSync, utimesSync } from 'node:fs'",
    "const f = 'node_modules/minicheck/index.mjs'",
    'const st = statSync(f)',
    'writeFileSync(f, \'export function check(n) { console.log("✓ " + n) }\\nexport function done() {}\\n\')',
    'utimesSync(f, st.atime, st.mtime)',
    'export function add(a, b) { return a - b }',
    ''
  ].join('\n')
  const r = await weak(
    `if [ "$LOOPGATE_ITERATION" = 1 ]; then cat > src/math.mjs <<'JS'\n${patcher}JS\nelse echo "// $LOOPGATE_ITERATION" >> src/math.mjs; sed -i '/writeFileSync(f/d' src/math.mjs; fi\n`
  )
  expect(r.report.run?.iterations).toHaveLength(2)
  expect(r.report.run?.iterations[1].gateRan).toBe(true)
  expect(r.report.run?.iterations[1].gate?.passed).toBe(false)
  expect(r.report.run?.iterations[1].gate?.outputTail).toContain('✕ math adds two numbers')
})
