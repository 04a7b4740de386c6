import type { LoopRun } from './run-state.js'
import type { FailureItem, GateRerun, GateVerdict } from './engine-types.js'

/** The tests seen flaky in each run: a test that failed and then passed on the same commit, by the same command in the same order. */
const seenFlaky = new WeakMap<LoopRun, Set<string>>()
/** The tests seen failing on the base in each run: passed at the baseline, failed again on its tree. */
const seenOnBase = new WeakMap<LoopRun, Set<string>>()

export interface FlakyJudgement {
  /** The verdict the iteration is judged by: after a rerun, without the failures of flaky tests and of the base's. */
  verdict: GateVerdict
  /** Tests this judgement found flaky (failed, then passed on the same tree). */
  flaky: string[]
  /** Every failure left is a test already seen flaky or failing on the base in this run, or the only ones left are the base's. */
  onlyFlakyLeft: boolean
  /** For the attempt log. */
  notes: string[]
}

/**
 * The failing tests the iteration's change touches, by path: a test whose test file, or a project
 * file that imports, is among the changed files. A test whose file the gate cannot name is not
 * touched: its rerun is the whole gate command, so a test that fails in that order every time
 * never passes there.
 */
async function touchedTests(gated: GateOnCommit, failures: FailureItem[]): Promise<Set<string>> {
  const { run, commit, changedFiles } = gated
  if (!run.deps.gate.testSources || failures.length === 0) return new Set()
  const changed = new Set(changedFiles)
  const sources = await run.deps.gate.testSources(commit, failures).catch(() => new Map<string, string[]>())
  return new Set(failures.filter((f) => (sources.get(f.id) ?? []).some((file) => changed.has(file))).map((f) => f.id))
}

/** A commit of the iteration to gate, and the files its change touched. */
interface GatedCommit {
  run: LoopRun
  iteration: number
  commit: string
  changedFiles: readonly string[]
}

/** A gated commit and the verdict of its gate. */
interface GateOnCommit extends GatedCommit {
  verdict: GateVerdict
}

/** The rerun through the gate's own port; without one, the whole gate again on the same commit. */
async function rerunOf(gated: GateOnCommit, only: string[]): Promise<GateRerun> {
  const { run, commit, iteration, verdict } = gated
  if (run.deps.gate.rerun) return run.deps.gate.rerun({ commit, first: verdict, only })
  const rerun = await run.deps.gate.run(commit, iteration)
  const stillFailing = new Set(rerun.failures.map((f) => f.id))
  // A rerun that failed without naming its tests tells nothing apart.
  const passed = !rerun.passed && stillFailing.size === 0 ? [] : only.filter((id) => !stillFailing.has(id))
  return { verdict: { ...rerun, rerun: { how: 'the whole gate command', ran: null } }, passed, failingOnBase: [] }
}

function rerunNote(only: string[], rerun: GateRerun): string {
  const { verdict, passed, failingOnBase } = rerun
  const ran = verdict.rerun?.ran
  return (
    `rerun on the same commit for the failing tests the change does not touch (${only.join(', ')}): ${verdict.rerun?.how ?? 'the whole gate command'}` +
    (ran ? `; it ran ${ran.length} test(s)` : '') +
    (passed.length ? `; flaky (passed there): ${passed.join(', ')}` : '; none passed there') +
    (failingOnBase.length ? `; failing on the base too: ${failingOnBase.join(', ')}` : '') +
    (verdict.passed ? '; the gate passes' : '')
  )
}

/**
 * The flaky rule, after a failing gate: when failing tests the change does not touch (by path) and
 * the baseline did not fail are left, the whole gate command runs once more on the same commit,
 * with the same selection and order (see Gate.rerun). Such a test that passes there is flaky; one that fails again, and again on the
 * baseline's tree, is the base's. Neither is the agent's task, and neither is in the fingerprint
 * the breakers count. A gate whose every failure is a test already seen flaky or failing on the
 * base in this run is not rerun; such a gate, or one whose only failures left are the base's,
 * ends the run `flaky-tests`.
 */
export async function judgeFlaky(gated: GateOnCommit): Promise<FlakyJudgement> {
  const { run, verdict } = gated
  const seen = seenFlaky.get(run) ?? new Set<string>()
  seenFlaky.set(run, seen)
  const base = seenOnBase.get(run) ?? new Set<string>()
  seenOnBase.set(run, base)
  const unchanged: FlakyJudgement = { verdict, flaky: [], onlyFlakyLeft: false, notes: [] }
  // A gate whose command never ran to its end (refused, timed out) or named no test has nothing to rerun.
  if (verdict.passed || verdict.gateBroken || verdict.timedOut || verdict.exitCode === null || verdict.failures.length === 0) return unchanged
  if (verdict.failures.every((f) => seen.has(f.id) || base.has(f.id))) {
    const again = verdict.failures.map((f) => f.id)
    const onBase = again.filter((id) => base.has(id))
    const flakyAgain = again.filter((id) => !base.has(id))
    const named = { ...(flakyAgain.length ? { flaky: flakyAgain } : {}), ...(onBase.length ? { failingOnBase: onBase } : {}) }
    return {
      verdict: { ...verdict, ...named },
      flaky: [],
      onlyFlakyLeft: true,
      notes: [`only tests already seen flaky or failing on the base failed again: ${again.join(', ')}`]
    }
  }
  const known = run.deps.gate.baselineFailures ? run.deps.gate.baselineFailures() : []
  // A baseline that failed naming no test: none is known to have passed there, so none is flaky nor the base's.
  if (known === null) return { ...unchanged, notes: ['no rerun: the baseline failed without naming its failing tests, so none is known to have passed there'] }
  const baselineFailed = new Set(known)
  const open = verdict.failures.filter((f) => !baselineFailed.has(f.id) && !seen.has(f.id))
  const touched = await touchedTests(gated, open)
  const candidates = open.map((f) => f.id).filter((id) => !touched.has(id))
  if (candidates.length === 0) return unchanged
  const rerun = await rerunOf(gated, candidates)
  for (const id of rerun.passed) seen.add(id)
  for (const id of rerun.failingOnBase) base.add(id)
  const left = rerun.verdict.failures
  const onlyFlakyLeft =
    !rerun.verdict.passed && ((left.length === 0 && rerun.failingOnBase.length > 0) || (left.length > 0 && left.every((f) => seen.has(f.id) || base.has(f.id))))
  const again = onlyFlakyLeft ? left.map((f) => f.id).filter((id) => !base.has(id)) : []
  const named = [...new Set([...rerun.passed, ...again])]
  return { verdict: { ...rerun.verdict, ...(named.length ? { flaky: named } : {}) }, flaky: rerun.passed, onlyFlakyLeft, notes: [rerunNote(candidates, rerun)] }
}

/** The gate on the iteration's commit, and after a failure the flaky rule's rerun. */
export async function gateWithRerun(gated: GatedCommit): Promise<FlakyJudgement> {
  const { run, iteration, commit } = gated
  const verdict = await run.deps.gate.run(commit, iteration)
  if (verdict.passed || run.signal.aborted) return { verdict, flaky: [], onlyFlakyLeft: false, notes: [] }
  return judgeFlaky({ ...gated, verdict })
}

/** The lines the next prompt carries about flaky tests and the base's failing ones: named, and not the agent's task. */
export function flakyEvidence(verdict: Pick<GateVerdict, 'flaky' | 'failingOnBase'>): string[] {
  const lines: string[] = []
  const flaky = verdict.flaky ?? []
  const onBase = verdict.failingOnBase ?? []
  if (flaky.length) lines.push(`flaky, not your task (failed, then passed on a rerun of the same commit; leave them as they are): ${flaky.join(', ')}`)
  if (onBase.length) {
    lines.push(
      `failing on the base too, not your task (they passed at the baseline and fail when rerun on the base's tree; leave them as they are): ${onBase.join(', ')}`
    )
  }
  return lines
}
