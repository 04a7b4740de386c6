import type { LoopRun } from './run-state.js'
import type { GateVerdict } from './engine-types.js'

/** The tests seen flaky in each run: a test that failed and then passed on the same commit. */
const seenFlaky = new WeakMap<LoopRun, Set<string>>()

export interface FlakyJudgement {
  /** The verdict the iteration is judged by: the rerun's, when there was one. */
  verdict: GateVerdict
  /** Tests this judgement found flaky (failed, then passed on the same tree). */
  flaky: string[]
  /** Every failure left is a test already seen flaky in this run, failing again. */
  onlyFlakyLeft: boolean
  /** For the attempt log. */
  notes: string[]
}

/** The tests the earlier gates of this run found flaky. */
export function flakySeen(run: LoopRun): string[] {
  return [...(seenFlaky.get(run) ?? [])]
}

/** A failing test the iteration's change touches: its id or message names a file the change changed. */
function touched(failure: { id: string; message: string }, changedFiles: readonly string[]): boolean {
  return changedFiles.some((file) => failure.id.includes(file) || failure.message.includes(file))
}

/** A commit of the iteration to gate, and the files its change touched. */
export interface GatedCommit {
  run: LoopRun
  iteration: number
  commit: string
  changedFiles: readonly string[]
}

/** A gated commit and the verdict of its gate. */
export interface GateOnCommit extends GatedCommit {
  verdict: GateVerdict
}

/**
 * The flaky rule, after a failing gate: the failing tests the change does not touch and the
 * baseline did not fail are rerun once on the same commit (a fresh clean checkout, the same gate
 * user, the whole gate command). One that passes there is flaky: never the agent's task, out of
 * the fingerprint the breakers count. A passing rerun stands as the verdict. A gate whose every
 * failure is a test already seen flaky in this run is not rerun: the run ends `flaky-tests`.
 */
export async function judgeFlaky({ run, iteration, commit, verdict, changedFiles }: GateOnCommit): Promise<FlakyJudgement> {
  const seen = seenFlaky.get(run) ?? new Set<string>()
  seenFlaky.set(run, seen)
  const unchanged: FlakyJudgement = { verdict, flaky: [], onlyFlakyLeft: false, notes: [] }
  // A gate whose command never ran to its end (refused, timed out) or named no test has nothing to rerun.
  if (verdict.passed || verdict.gateBroken || verdict.timedOut || verdict.exitCode === null || verdict.failures.length === 0) return unchanged
  if (verdict.failures.every((f) => seen.has(f.id))) {
    const again = verdict.failures.map((f) => f.id)
    return { verdict: { ...verdict, flaky: again }, flaky: [], onlyFlakyLeft: true, notes: [`only tests already seen flaky failed again: ${again.join(', ')}`] }
  }
  const baselineFailed = new Set(run.deps.gate.baselineFailures?.() ?? [])
  const candidates = verdict.failures.filter((f) => !baselineFailed.has(f.id) && !touched(f, changedFiles) && !seen.has(f.id)).map((f) => f.id)
  if (candidates.length === 0) return unchanged
  const rerun = await run.deps.gate.run(commit, iteration)
  const stillFailing = new Set(rerun.failures.map((f) => f.id))
  // A rerun that failed without naming its tests tells nothing apart.
  if (!rerun.passed && stillFailing.size === 0) return { ...unchanged, notes: [`rerun of ${candidates.join(', ')} on the same commit: ${rerun.reason}`] }
  const flaky = candidates.filter((id) => !stillFailing.has(id))
  for (const id of flaky) seen.add(id)
  const notes = [
    `rerun on the same commit of the failing tests the change does not touch (${candidates.join(', ')}): ${rerun.passed ? 'passed' : rerun.reason}` +
      (flaky.length ? `; flaky: ${flaky.join(', ')}` : '')
  ]
  const onlyFlakyLeft = !rerun.passed && rerun.failures.length > 0 && rerun.failures.every((f) => seen.has(f.id))
  const named = [...new Set([...flaky, ...(onlyFlakyLeft ? rerun.failures.map((f) => f.id) : [])])]
  return { verdict: { ...rerun, ...(named.length ? { flaky: named } : {}) }, flaky, onlyFlakyLeft, notes }
}

/** The gate on the iteration's commit, and after a failure the flaky rule's rerun. */
export async function gateWithRerun(gated: GatedCommit): Promise<FlakyJudgement> {
  const { run, iteration, commit } = gated
  const verdict = await run.deps.gate.run(commit, iteration)
  if (verdict.passed || run.signal.aborted) return { verdict, flaky: [], onlyFlakyLeft: false, notes: [] }
  return judgeFlaky({ ...gated, verdict })
}

/** The lines the next prompt carries about flaky tests: named, and not the agent's task. */
export function flakyEvidence(flaky: readonly string[]): string[] {
  if (flaky.length === 0) return []
  return [`flaky, not your task (failed, then passed on a rerun of the same commit; leave them as they are): ${flaky.join(', ')}`]
}
