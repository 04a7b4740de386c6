import { failureEvidence } from './failure-evidence.js'
import { flakyEvidence, gateWithRerun, type FlakyJudgement } from './flaky.js'
import type { CallResult } from './call.js'
import type { LoopRun } from './run-state.js'
import type { StopReason } from './stop-reasons.js'
import type { GateVerdict, IterationChange } from './engine-types.js'

/** What loopgate made of one iteration: its commit, the gate's verdict, and the decision. */
export interface Judgement {
  change: IterationChange
  verdict: GateVerdict | null
  gateRan: boolean
  /** The commit the verdict is on. */
  judgedCommit: string
  flipsCommit: string | null
  rejected: string[]
  notes: string[]
  /** The evidence the next prompt carries. */
  evidence: string[]
  decision: StopReason | null
}

/** The iteration's judged commit and the verdict its held feature flips are judged by (null when cancelled). */
interface JudgedFlips {
  run: LoopRun
  iteration: number
  verdict: GateVerdict | null
  judgedCommit: string
}

/**
 * Feature flips never reach the iteration's commit: the guards hold them aside. After the gate,
 * each guard judges its held flips against the verdict on the judged commit, and loopgate commits
 * the features file with only the verified flips, alone, on top of it. So neither the commit the
 * gate judged nor any commit loopgate makes holds a flip the gate did not verify.
 */
async function recordVerifiedFlips({
  run,
  iteration,
  verdict,
  judgedCommit
}: JudgedFlips): Promise<{ rejected: string[]; notes: string[]; commit: string | null }> {
  const rejected: string[] = []
  const verified: string[] = []
  const notes: string[] = []
  for (const guard of run.deps.guards) {
    const r = await guard.afterGate?.(iteration, verdict)
    if (!r) continue
    rejected.push(...r.rejected)
    notes.push(...(r.notes ?? []))
    verified.push(...(r.verifiedFlips ?? []))
  }
  if (verified.length === 0) return { rejected, notes, commit: null }
  const commit = await run.deps.workspace.commitFeaturesFile(run.config.runId, iteration, judgedCommit)
  if (commit) notes.push(`feature flips verified on ${judgedCommit.slice(0, 12)}, recorded as ${commit.slice(0, 12)}: ${verified.join(', ')}`)
  return { rejected, notes, commit }
}

/**
 * Judging: loopgate commits what the agent changed, the protected gate runs on exactly that commit
 * (once per tree), verified flips are recorded, and the decision is taken — verified only when the
 * gate passes, the change set is not empty and every claimed flip was verified; else a breaker may
 * fire. The agent's own word counts for nothing here.
 */
export async function judge(run: LoopRun, iteration: number, call: CallResult): Promise<Judgement> {
  const { deps } = run
  const change = await deps.workspace.commitIteration(run.config.runId, iteration, call.changedPaths)
  if (change.commit) run.headCommit = change.commit
  const emptyDiff = change.changedFiles.length === 0
  const cancelledNow = run.signal.aborted
  // Asked while the gate runs (once it has begun); a flips commit on top changes only the features
  // file, which the comparison leaves out, so the answer holds for it too.
  const changedSince =
    run.headCommit !== run.startCommit
      ? new Promise<void>((resolve) => setImmediate(resolve)).then(() => deps.workspace.hasChangesSince(run.startCommit))
      : Promise.resolve(false)
  changedSince.catch(() => undefined)

  let verdict: GateVerdict | null = run.lastVerdict
  let gateRan = false
  let flaky: FlakyJudgement | null = null
  // Nothing new to judge: a call the provider failed that changed nothing, an agent that never started.
  const nothingToGate = (call.result.providerFailure !== undefined && emptyDiff) || call.result.notStarted !== undefined
  if (!cancelledNow && !nothingToGate && run.headCommit !== run.lastGatedCommit) {
    flaky = await gateWithRerun({ run, iteration, commit: run.headCommit, changedFiles: change.changedFiles })
    verdict = flaky.verdict
    run.lastGatedCommit = run.headCommit
    gateRan = true
  }
  const changedSinceStart = await changedSince
  run.lastVerdict = verdict
  // The verdict is on headCommit: gated just now, or unchanged since it was (none once cancelled).
  const judgedCommit = run.headCommit
  const flips = await recordVerifiedFlips({ run, iteration, verdict: run.signal.aborted ? null : verdict, judgedCommit })
  const rejected = [...call.rejected, ...flips.rejected]
  const notes = [...call.notes, ...(change.notes ?? []), ...(flaky?.notes ?? []), ...flips.notes]
  if (call.result.gaveUp) notes.push(`the agent asked for a person: ${call.result.gaveUp.reason.split('\n')[0].slice(0, 300) || 'no reason given'}`)
  if (flips.commit) run.headCommit = flips.commit
  const flipsRejected = flips.rejected.length > 0

  const evidence: string[] = []
  if (call.result.status !== 'claimed-done') evidence.push(`the agent call ended without success: ${call.result.reason}`)
  evidence.push(...rejected)
  if (emptyDiff) evidence.push('the last iteration changed no files')
  if (verdict && !verdict.passed) evidence.push(...failureEvidence(verdict))
  if (gateRan && verdict) evidence.push(...flakyEvidence(verdict))
  if (verdict?.passed && !changedSinceStart) evidence.push('the gate passes but nothing has been changed yet')

  let decision: StopReason | null = null
  const verified = !cancelledNow && verdict?.passed === true && changedSinceStart && !flipsRejected
  if (cancelledNow) decision = 'cancelled'
  // An agent that never started did nothing: the run stops before the next call.
  else if (call.result.notStarted !== undefined) decision = 'config-error'
  else if (verdict?.gateBroken) decision = 'gate-broken'
  else if (verified) decision = 'verified'
  // A signal during the gate ends the run as cancelled, not as a breaker.
  else if (run.signal.aborted) decision = 'cancelled'
  else if (verdict?.passed && !changedSinceStart && !flipsRejected && call.result.status === 'claimed-done') decision = 'nothing-to-do'
  // The agent's honest exit stops the loop before more is spent; a passing gate above still wins.
  else if (call.result.gaveUp) decision = 'agent-gave-up'
  // The provider's failure is not the agent's: it stops the run and never counts toward a breaker.
  else if (call.result.providerFailure) decision = 'provider-unavailable'
  else if (flaky?.onlyFlakyLeft) decision = 'flaky-tests'
  const breaker = call.result.providerFailure
    ? null
    : run.breakers.record({
        emptyDiff,
        agentFailed: call.result.status !== 'claimed-done',
        tampered: call.tampered,
        fingerprint: gateRan && !emptyDiff ? (verdict?.fingerprint ?? null) : undefined
      })
  decision ??= breaker
  if (verified && call.result.status === 'claimed-done') run.gateAgreed++
  return { change, verdict, gateRan, judgedCommit, flipsCommit: flips.commit, rejected, notes, evidence, decision }
}
