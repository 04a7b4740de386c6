import { runAttack, tokenLeaks } from './helpers/gate-fixture.js'

test('an honest agent is verified through the protected gate (dedicated user)', async () => {
  const r = await runAttack({
    isolation: 'auto',
    agentUser: `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-smoke`,
    script: "sed -i 's/a - b/a + b/' src/math.mjs\nid -un > whoami.txt\n"
  })
  expect(r.report.stopReason).toBe('verified')
  expect(r.report.run?.iterations[0].rejected).toEqual([])
  expect(r.report.run?.iterations[0].tampered).toBe(false)
  expect(tokenLeaks(r)).toEqual([])
})
