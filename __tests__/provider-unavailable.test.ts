import { readFileSync } from 'node:fs'
import { runLoop } from '../src/loop/engine.js'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { decisionFor } from '../src/publish/decision.js'
import type { PublishContext } from '../src/publish/publisher-types.js'
import { fakeWorld } from '../__fixtures__/engine-fakes.js'

const overloaded = { status: 529, message: 'status 529: overloaded: Overloaded' }

function iterationEntries(logFile: string): Array<{ breakers: Record<string, number>; agent: { providerFailure: unknown } }> {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'iteration')
}

describe("a call that ended on the provider's failure", () => {
  it('stops the run provider-unavailable at once, with no gate run on the unchanged tree', async () => {
    const w = fakeWorld([{ status: 'failed', files: [], cost: 0, providerFailure: overloaded }], { agentFailureLimit: 3, noProgressLimit: 1 })
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('provider-unavailable')
    expect(exitCodeFor(out.stopReason)).toBe(26)
    expect(out.iterations).toHaveLength(1)
    expect(w.gateRuns).toEqual([])
    const [entry] = iterationEntries(w.deps.log.file)
    expect(entry.agent.providerFailure).toEqual(overloaded)
    expect(entry.breakers).toEqual(expect.objectContaining({ emptyInARow: 0, agentFailuresInARow: 0 }))
  })

  it('is not counted by the same-failure breaker, though its changes failed the same way again', async () => {
    const w = fakeWorld([
      { files: ['a.js'], gate: 'fail', failure: 'x', cost: 0.1 },
      { status: 'failed', files: ['a.js'], gate: 'fail', failure: 'x', cost: 0.1, providerFailure: overloaded }
    ])
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('provider-unavailable')
    expect(out.iterations).toHaveLength(2)
    expect(iterationEntries(w.deps.log.file)[1].breakers.sameFailureInARow).toBe(1)
  })

  it('still verifies when the changes made before the failure pass the gate', async () => {
    const w = fakeWorld([{ status: 'failed', files: ['a.js'], gate: 'pass', cost: 0.1, providerFailure: overloaded }])
    const out = await runLoop(w.config, w.deps)
    expect(out.stopReason).toBe('verified')
  })

  it("the escalation's decision quotes the provider's message and says to wait or raise the quota", async () => {
    const w = fakeWorld([{ status: 'failed', files: [], cost: 0, providerFailure: overloaded }], { agentFailureLimit: 3 })
    const out = await runLoop(w.config, w.deps)
    const decision = decisionFor({ outcome: out } as unknown as PublishContext)
    expect(decision).toContain('status 529: overloaded: Overloaded')
    expect(decision).toMatch(/wait for its limits to reset, or raise the quota/)
  })
})
