import type { EngineDeps, Gate, GateVerdict } from '../loop/engine-types.js'
import type { AttemptLog, BaselineEntry } from '../records/attempt-log.js'

/** The bump's verdict once the flaky rule has judged it, the tests it found flaky, and what the log says. */
interface BumpJudgement {
  verdict: GateVerdict
  flaky: string[]
  notes: string[]
}

/**
 * The flaky rule on loopgate's bump, before the agent is asked to fix anything: a gate that failed
 * on the bumped tree runs once more on the same commit. A failing test that passes there is flaky:
 * named, never the agent's task, not the upgrade's failure. A passing rerun stands as the bump's
 * verdict (the bump alone passes).
 */
export async function judgeTheBump(gate: Pick<Gate, 'run'>, commit: string, verdict: GateVerdict): Promise<BumpJudgement> {
  const unchanged: BumpJudgement = { verdict, flaky: [], notes: [] }
  if (verdict.passed || verdict.gateBroken || verdict.timedOut || verdict.exitCode === null || verdict.failures.length === 0) return unchanged
  const failing = verdict.failures.map((f) => f.id)
  const rerun = await gate.run(commit, 0)
  const still = new Set(rerun.failures.map((f) => f.id))
  // A rerun that failed without naming its tests tells nothing apart.
  if (!rerun.passed && still.size === 0) return { ...unchanged, notes: [`rerun of the bump's failing tests on the same commit: ${rerun.reason}`] }
  const flaky = failing.filter((id) => !still.has(id))
  const notes = [
    `rerun on the bump commit of its failing tests (${failing.join(', ')}): ${rerun.passed ? 'passed' : rerun.reason}${flaky.length ? `; flaky: ${flaky.join(', ')}` : ''}`
  ]
  return { verdict: { ...rerun, ...(flaky.length ? { flaky } : {}) }, flaky, notes }
}

/**
 * The bump's verdict for the loop (null: no baseline was taken): the flaky rule's judgement,
 * logged with the rerun's verdict, and the flaky tests taken out of the baseline's failures, so
 * the loop's own flaky rule reruns them if they fail again.
 */
export async function judgeBumpForLoop(deps: EngineDeps, commit: string, verdict: GateVerdict | null): Promise<BumpJudgement | null> {
  if (!verdict) return null
  const judged = await judgeTheBump(deps.gate, commit, verdict)
  if (judged.notes.length === 0) return judged
  const v = judged.verdict
  const entry: BaselineEntry = {
    type: 'baseline',
    base: commit,
    commit,
    passed: v.passed,
    reason: v.reason,
    rerun: true,
    flaky: judged.flaky,
    notes: judged.notes
  }
  if (!v.passed) Object.assign(entry, { exitCode: v.exitCode, failures: v.failures.slice(0, 50), fingerprint: v.fingerprint })
  const log: Pick<AttemptLog, 'write'> = deps.log
  log.write(entry)
  if (judged.flaky.length) {
    const gate = deps.gate
    const flaky = new Set(judged.flaky)
    const rerun = gate.rerun?.bind(gate)
    deps.gate = {
      run: (c, i) => gate.run(c, i),
      baselineFailures: () => (gate.baselineFailures ? gate.baselineFailures() : [])?.filter((id) => !flaky.has(id)) ?? null,
      ...(rerun ? { rerun } : {})
    }
  }
  return judged
}
