/** Runs one /proc attack through executeRun in a process whose own environment holds the token. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { FAKE_TOKEN as _unused, runAttack, tokenLeaks } from './gate-fixture.js'

const token = process.env.GITHUB_TOKEN ?? ''
const parentHasToken = readFileSync(`/proc/${process.pid}/environ`, 'latin1').includes(token)
const r = await runAttack({
  isolation: (process.env.LOOPGATE_TEST_ISOLATION as 'auto' | 'weak') ?? 'auto',
  agentUser: process.env.LOOPGATE_TEST_USER,
  env: { GITHUB_TOKEN: token, 'INPUT_GITHUB-TOKEN': token },
  script: "sed -i 's/a - b/a + b/' src/math.mjs\n{ cat /proc/$PPID/environ; for p in /proc/[0-9]*; do cat $p/environ; done; } > loot-proc.txt 2>&1\necho done\n"
})
void _unused
const loot = readFileSync(path.join(r.ws, 'loot-proc.txt'), 'latin1')
const leaks = tokenLeaks(r).concat(loot.includes(token) ? ['loot-proc.txt'] : [])
process.stdout.write(`${JSON.stringify({ loot: loot.slice(0, 20000), leaks, stopReason: r.report.stopReason, parentHasToken })}\n`)
