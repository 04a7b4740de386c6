import { rerunFailing, type RerunPorts } from '../src/gate/flaky-rerun.js'
import type { GateVerdict } from '../src/loop/engine-types.js'
import { verdictFingerprint } from '../src/gate/reports/fingerprint.js'

/**
 * How the iteration's verdict is made from the rerun: the whole gate command again on the same
 * commit (the same selection and order), whose verdict stands; the tests failing again are rerun
 * alone on the base's tree, and a failure of the base's never lets it pass; a rerun that named
 * nothing tells nothing apart.
 */

function verdict(over: Partial<GateVerdict>): GateVerdict {
  return { passed: false, reason: 'exit 1', exitCode: 1, timedOut: false, failures: [], fingerprint: 'f', outputTail: '', durationMs: 1, ...over }
}

const failing = (...ids: string[]) => ({
  failures: ids.map((id) => ({ id, message: `${id} failed` })),
  failedIds: ids
})

/** Ports whose runs answer from `answers`: the same commit's first, then the base's. */
function ports(answers: GateVerdict[], base: string | null = 'b4se'): RerunPorts & { asked: { commit: string; base: boolean; only: readonly string[] }[] } {
  const asked: { commit: string; base: boolean; only: readonly string[] }[] = []
  return {
    command: 'node --test',
    base,
    asked,
    run: (commit, onBase, only) => {
      asked.push({ commit, base: onBase, only })
      return Promise.resolve(answers.shift()!)
    }
  }
}

const whole = (over: Partial<GateVerdict>) => verdict(over)
const narrowed = (over: Partial<GateVerdict>) => verdict({ narrowedBy: 'node:test, x', ...over })

describe('the verdict after the rerun', () => {
  test('the same command passing on the same commit: its verdict, the failing tests of the first flaky', async () => {
    const first = verdict({ ...failing('coin'), passedIds: ['a', 'b'] })
    const p = ports([whole({ passed: true, reason: 'exit 0', exitCode: 0, fingerprint: null, passedIds: ['a', 'b', 'coin'] })])
    const r = await rerunFailing({ commit: 'c0mmit', first, only: ['coin'] }, p)
    expect(r.verdict).toMatchObject({ passed: true, fingerprint: null, failures: [], flaky: ['coin'], passedIds: ['a', 'b', 'coin'] })
    expect(r.verdict.rerun?.how).toContain('the whole gate command again, the same selection and order')
    // The same selection: nothing narrowed on the commit.
    expect(p.asked).toEqual([{ commit: 'c0mmit', base: false, only: [] }])
  })

  test('a test failing only after another ran in the same process fails the same command again: not flaky', async () => {
    const first = verdict({ ...failing('mul'), passedIds: ['add'] })
    const p = ports([whole({ ...failing('mul'), passedIds: ['add'] }), narrowed({ passed: true, reason: 'exit 0', exitCode: 0, passedIds: ['mul'] })])
    const r = await rerunFailing({ commit: 'c', first, only: ['mul'] }, p)
    expect(r.passed).toEqual([])
    expect(r.verdict.passed).toBe(false)
    expect(r.verdict.failures.map((f) => f.id)).toEqual(['mul'])
    expect(r.verdict.flaky).toBeUndefined()
  })

  test('a first run failed for more than its tests (fewer than the baseline): the rerun that does so too fails', async () => {
    const first = verdict({ ...failing('coin'), reason: 'exit 1; fewer tests than the baseline (3 < 4)' })
    const r = await rerunFailing(
      { commit: 'c', first, only: ['coin'] },
      ports([whole({ reason: 'exit 0; fewer tests than the baseline (3 < 4)', passedIds: ['coin'] })])
    )
    expect(r.verdict.passed).toBe(false)
    expect(r.verdict.failures).toEqual([])
    expect(r.verdict.flaky).toEqual(['coin'])
  })

  test('a test failing again, and on the base: out of the failures and the fingerprint, and the gate still fails', async () => {
    const first = verdict(failing('clock', 'task'))
    const p = ports([whole({ ...failing('clock', 'task'), passedIds: [] }), narrowed({ ...failing('clock'), passedIds: [] })])
    const r = await rerunFailing({ commit: 'c', first, only: ['clock'] }, p)
    expect(r.failingOnBase).toEqual(['clock'])
    expect(r.verdict.passed).toBe(false)
    expect(r.verdict.failures.map((f) => f.id)).toEqual(['task'])
    expect(r.verdict.fingerprint).toBe(verdictFingerprint([{ id: 'task', message: 'task failed' }], 'exit 1', ''))
    expect(p.asked[1]).toEqual({ commit: 'b4se', base: true, only: ['clock'] })
  })

  test('only a failure of the base’s left: the verdict fails, with no failure of the agent’s to give it', async () => {
    const first = verdict(failing('clock'))
    const r = await rerunFailing({ commit: 'c', first, only: ['clock'] }, ports([whole(failing('clock')), narrowed(failing('clock'))]))
    expect(r.verdict).toMatchObject({ passed: false, failures: [], failingOnBase: ['clock'] })
  })

  test('a rerun that crashed without a report names nothing flaky and nothing the base’s', async () => {
    const first = verdict(failing('coin'))
    const crashed = whole({ reason: 'exit 1; no report at loopgate’s report file' })
    const r = await rerunFailing({ commit: 'c', first, only: ['coin'] }, ports([crashed, narrowed({ reason: 'exit 1; no report' })]))
    expect(r).toMatchObject({ passed: [], failingOnBase: [] })
    expect(r.verdict.passed).toBe(false)
  })

  test('a test the rerun skipped is not flaky', async () => {
    const first = verdict(failing('coin'))
    const r = await rerunFailing(
      { commit: 'c', first, only: ['coin'] },
      ports([whole({ passed: true, reason: 'exit 0', passedIds: [], skippedIds: ['coin'] }), narrowed({ passedIds: [] })])
    )
    expect(r.passed).toEqual([])
  })
})
