import type { GateRerun, GateVerdict, RerunRequest } from '../loop/engine-types.js'
import { verdictFingerprint } from './reports/fingerprint.js'

/**
 * How the gate reruns tests on a commit (`base`: the baseline's tree, with the base's protected
 * files): `only` alone, its verdict's `narrowedBy` set when the runner could be told them; none
 * asked, the whole gate command.
 */
export interface RerunPorts {
  command: string
  /** The commit the baseline ran on, when known. */
  base: string | null
  run(commit: string, base: boolean, only: readonly string[]): Promise<GateVerdict>
}

/**
 * The asked-for tests that passed: listed as passed by the report; without one, absent from the
 * failures of a run that passed or named its failures (a run that named none tells nothing apart).
 */
function passedIn(verdict: GateVerdict, only: readonly string[]): string[] {
  if (verdict.passedIds) {
    const passed = new Set(verdict.passedIds)
    return only.filter((id) => passed.has(id))
  }
  if (!verdict.passed && verdict.failures.length === 0) return []
  const failing = new Set(verdict.failures.map((f) => f.id))
  return only.filter((id) => !failing.has(id))
}

function failedIn(verdict: GateVerdict, only: readonly string[]): string[] {
  const failing = new Set([...(verdict.failedIds ?? []), ...verdict.failures.map((f) => f.id)])
  return only.filter((id) => failing.has(id))
}

/** The tests a rerun ran (passed or failed), when its report lists them. */
function ranIn(verdict: GateVerdict): string[] | null {
  return verdict.passedIds ? [...verdict.passedIds, ...(verdict.failedIds ?? [])] : null
}

/** `verdict` without the failures of `ids` (the base's), its fingerprint made again. */
function without(verdict: GateVerdict, ids: readonly string[]): GateVerdict {
  const gone = new Set(ids)
  const failures = verdict.failures.filter((f) => !gone.has(f.id))
  const failedIds = verdict.failedIds?.filter((id) => !gone.has(id))
  return { ...verdict, failures, failedIds, fingerprint: verdictFingerprint(failures, verdict.reason, verdict.outputTail) }
}

/**
 * The flaky rule's rerun: the whole gate command once more on the same commit, with the same
 * selection and order (a test that fails only after another ran in the same process fails there
 * again), then the asked-for tests failing again alone on the baseline's tree. Its verdict stands,
 * as a new gate run's would, without the failures of the base's.
 */
export async function rerunFailing(request: RerunRequest, ports: RerunPorts): Promise<GateRerun> {
  const { commit, only } = request
  const same = await ports.run(commit, false, [])
  const passed = passedIn(same, only)
  const failing = only.filter((id) => !passed.includes(id))
  let failingOnBase: string[] = []
  let baseHow = ''
  if (failing.length > 0 && ports.base && !same.reason.startsWith('cancelled')) {
    const base = await ports.run(ports.base, true, failing)
    failingOnBase = failedIn(base, failing)
    baseHow = `; on the baseline's tree ${base.narrowedBy ? `alone (${base.narrowedBy})` : 'with the whole gate command'}: ${failingOnBase.length ? `failing there too: ${failingOnBase.join(', ')}` : 'not failing there'}`
  }
  const how = `the whole gate command again, the same selection and order (\`${ports.command.slice(0, 200)}\`)` + baseHow
  const judged = failingOnBase.length ? without(same, failingOnBase) : same
  const verdict: GateVerdict = {
    ...judged,
    rerun: { how, ran: ranIn(same) },
    ...(passed.length ? { flaky: passed } : {}),
    ...(failingOnBase.length ? { failingOnBase } : {})
  }
  return { verdict, passed, failingOnBase }
}
