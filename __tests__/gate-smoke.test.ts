import { runAttack, tokenLeaks } from './helpers/gate-fixture.js'

test('an honest agent is verified through the protected gate (dedicated user)', async () => {
  const r = await runAttack({ isolation: 'auto', agentUser: 'loopgate-agent-smoke', script: "sed -i 's/a - b/a + b/' src/math.mjs\nid -un > whoami.txt\n" })
  console.log(r.report.notes, r.report.run?.iterations.map((i) => [i.gate?.reason, i.rejected]), r.report.stopReason)
  expect(r.report.stopReason).toBe('verified')
  expect(tokenLeaks(r)).toEqual([])
})
