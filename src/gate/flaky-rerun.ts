import type { GateRerun, GateVerdict, RerunRequest } from '../loop/engine-types.js'
import { verdictFingerprint } from './reports/fingerprint.js'

/**
 * How the gate reruns tests: `only` alone on a commit (`base`: the baseline's tree, with the base's
 * protected files), its verdict's `narrowedBy` set when the runner could be told them.
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

/** `verdict` without the failures of `ids`; passing when `pass` and no failure is left. */
function without(verdict: GateVerdict, ids: readonly string[], pass: { passed: string[]; first: string } | null): GateVerdict {
  const gone = new Set(ids)
  const failures = verdict.failures.filter((f) => !gone.has(f.id))
  const failedIds = verdict.failedIds?.filter((id) => !gone.has(id))
  if (pass && failures.length === 0 && (failedIds?.length ?? 0) === 0) {
    const passedIds = verdict.passedIds ? [...verdict.passedIds, ...pass.passed] : undefined
    const reason = `exit 0 on the rerun of its failing tests alone (the first run: ${pass.first})`
    return { ...verdict, passed: true, reason, exitCode: 0, failures: [], failedIds, passedIds, fingerprint: null }
  }
  return { ...verdict, failures, failedIds, fingerprint: verdictFingerprint(failures, verdict.reason, verdict.outputTail) }
}

/**
 * The flaky rule's rerun: the asked-for tests alone on the same commit (the whole command when the
 * runner cannot be narrowed), then those failing again alone on the baseline's tree. A narrowed
 * rerun judges only the tests it ran, so the iteration keeps the first verdict without the tests
 * that passed there; it passes only when they were all its failures and nothing else failed it
 * (its reason is the command's exit alone: no count or base-test check). A whole-command rerun's
 * verdict stands, as a new gate run would.
 */
export async function rerunFailing(request: RerunRequest, ports: RerunPorts): Promise<GateRerun> {
  const { commit, first, only } = request
  const same = await ports.run(commit, false, only)
  const passed = passedIn(same, only)
  const failing = only.filter((id) => !passed.includes(id))
  let failingOnBase: string[] = []
  let baseHow = ''
  if (failing.length > 0 && ports.base && !same.reason.startsWith('cancelled')) {
    const base = await ports.run(ports.base, true, failing)
    failingOnBase = failedIn(base, failing)
    baseHow = `; on the baseline's tree ${base.narrowedBy ? `alone (${base.narrowedBy})` : 'with the whole gate command'}: ${failingOnBase.length ? `failing there too: ${failingOnBase.join(', ')}` : 'not failing there'}`
  }
  const how =
    (same.narrowedBy
      ? `the ${only.length} test(s) alone (${same.narrowedBy})`
      : `the whole gate command: loopgate cannot run single tests of \`${ports.command.slice(0, 200)}\``) + baseHow
  const judged = same.narrowedBy
    ? without(first, [...passed, ...failingOnBase], failingOnBase.length === 0 && /^exit [1-9]\d*$/.test(first.reason) ? { passed, first: first.reason } : null)
    : failingOnBase.length
      ? without(same, failingOnBase, null)
      : same
  const verdict: GateVerdict = {
    ...judged,
    rerun: { how, ran: ranIn(same) },
    ...(passed.length ? { flaky: passed } : {}),
    ...(failingOnBase.length ? { failingOnBase } : {})
  }
  return { verdict, passed, failingOnBase }
}
