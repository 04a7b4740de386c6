import type { AgentResult } from '../agents/types.js'
import { emptyResult } from '../agents/types.js'
import type { AttemptLog } from './attempt-log.js'
import { Breakers } from './breakers.js'
import type { Ledger } from './ledger.js'
import type { ProgressFile } from './progress.js'
import { gateEvidence } from './gate-evidence.js'
import { buildPrompt } from './prompt.js'
import type { StopReason } from './stop-reasons.js'
import type { AgentRunner, CallGuard, Clock, DiffStat, GateVerdict, Gate, Workspace } from './types.js'

export interface EngineConfig {
  runId: string
  task: string
  maxIterations: number
  callBudgetUsd: number
  spendCeilingUsd: number
  callTimeoutMs: number
  timeLimitMs: number
  noProgressLimit: number
  sameFailureLimit: number
  agentFailureLimit?: number
  tamperLimit?: number
  progressFileName: string
  /** Rolling ceiling across runs: the window's spend before this run started. */
  period?: { ceilingUsd: number; spentBeforeUsd: number }
  /** Evidence carried over from an earlier run (resume). */
  initialEvidence?: string[]
  /** The last failure fingerprint of an earlier run (resume). */
  seedFingerprint?: string | null
}

export interface EngineDeps {
  clock: Clock
  agent: AgentRunner
  workspace: Workspace
  gate: Gate
  guards: CallGuard[]
  ledger: Ledger
  log: AttemptLog
  progress: ProgressFile
  signal?: AbortSignal
  report?: (line: string) => void
  /** Called after each iteration is logged (the CLI's progress line). */
  onIteration?: (record: IterationRecord) => void
}

export interface IterationRecord {
  iteration: number
  startedAt: number
  endedAt: number
  agent: AgentResult
  chargedUsd: number
  spentUsd: number
  commit: string | null
  changedFiles: string[]
  stat: DiffStat
  gate: GateVerdict | null
  /** False when the tree was unchanged and the previous verdict stands. */
  gateRan: boolean
  rejected: string[]
  tampered: boolean
  evidence: string[]
  decision: string
}

export interface RunOutcome {
  stopReason: StopReason
  iterations: IterationRecord[]
  spentUsd: number
  startCommit: string
  headCommit: string
  verifiedCommit: string | null
  lastVerdict: GateVerdict | null
  lastEvidence: string[]
  claimedDone: number
  gateAgreed: number
  startedAt: number
  endedAt: number
}

export function describeVerdict(verdict: GateVerdict): string {
  if (verdict.passed) return `gate passed (${verdict.reason})`
  const fp = verdict.fingerprint ? ` [${verdict.fingerprint}]` : ''
  const count = verdict.failures.length > 0 ? `, ${verdict.failures.length} failing` : ''
  return `gate failed (${verdict.reason})${fp}${count}`
}

const usd = (n: number): string => `$${n.toFixed(2)}`

/**
 * The bounded outer loop. Each iteration: admission → agent call → guards → loopgate's commit →
 * gate → breakers → log. Nothing the agent writes decides when it stops.
 */
export async function runLoop(config: EngineConfig, deps: EngineDeps): Promise<RunOutcome> {
  const { clock, ledger, log, progress } = deps
  const report = deps.report ?? (() => undefined)
  const signal = deps.signal ?? new AbortController().signal
  const startedAt = clock.now()
  const breakers = new Breakers({
    noProgressLimit: config.noProgressLimit,
    sameFailureLimit: config.sameFailureLimit,
    agentFailureLimit: config.agentFailureLimit ?? 3,
    tamperLimit: config.tamperLimit ?? 2
  })
  if (config.seedFingerprint !== undefined) breakers.seedFingerprint(config.seedFingerprint)

  progress.ensure()
  const startCommit = await deps.workspace.head()
  let headCommit = startCommit
  const iterations: IterationRecord[] = []
  let evidence = [...(config.initialEvidence ?? [])]
  let lastVerdict: GateVerdict | null = null
  let lastGatedCommit: string | null = null
  let claimedDone = 0
  let gateAgreed = 0

  const maxCalls = Math.min(config.maxIterations, Math.floor(config.spendCeilingUsd / config.callBudgetUsd + 1e-9))
  const worstCase = `Worst-case spend for this run: ${usd(config.spendCeilingUsd)} (spend-ceiling-usd). A call starts only while spent + call-budget-usd (${usd(config.callBudgetUsd)}) ≤ ${usd(config.spendCeilingUsd)}, so at most ${maxCalls} calls; a call that reports no cost is charged its full budget.`
  report(worstCase)
  log.write({
    type: 'run-start',
    runId: config.runId,
    startCommit,
    worstCaseUsd: config.spendCeilingUsd,
    limits: {
      maxIterations: config.maxIterations,
      callBudgetUsd: config.callBudgetUsd,
      spendCeilingUsd: config.spendCeilingUsd,
      callTimeoutMs: config.callTimeoutMs,
      timeLimitMs: config.timeLimitMs,
      noProgressLimit: config.noProgressLimit,
      sameFailureLimit: config.sameFailureLimit,
      period: config.period ?? null
    }
  })

  const finish = (stopReason: StopReason, verifiedCommit: string | null = null): RunOutcome => {
    progress.appendStop(stopReason)
    const outcome: RunOutcome = {
      stopReason,
      iterations,
      spentUsd: ledger.spentUsd,
      startCommit,
      headCommit,
      verifiedCommit,
      lastVerdict,
      lastEvidence: evidence,
      claimedDone,
      gateAgreed,
      startedAt,
      endedAt: clock.now()
    }
    log.write({
      type: 'stop',
      stopReason,
      iterations: iterations.length,
      spentUsd: ledger.spentUsd,
      verifiedCommit,
      headCommit,
      claimedDone,
      gateAgreed
    })
    report(`Stopped: ${stopReason} after ${iterations.length} iteration(s), ${usd(ledger.spentUsd)} spent.`)
    return outcome
  }

  const admit = (iteration: number): StopReason | null => {
    if (signal.aborted) return 'cancelled'
    if (iteration > config.maxIterations) return 'max-iterations'
    if (clock.now() - startedAt >= config.timeLimitMs) return 'time-limit'
    if (ledger.spentUsd + config.callBudgetUsd > config.spendCeilingUsd + 1e-9) return 'spend-ceiling'
    if (config.period && config.period.spentBeforeUsd + ledger.spentUsd + config.callBudgetUsd > config.period.ceilingUsd + 1e-9) {
      return 'period-ceiling'
    }
    return null
  }

  for (let iteration = 1; ; iteration++) {
    const refused = admit(iteration)
    if (refused) {
      log.write({ type: 'admission', iteration, refused, spentUsd: ledger.spentUsd })
      return finish(refused)
    }
    const iterationStart = clock.now()
    for (const guard of deps.guards) await guard.beforeCall?.(iteration)
    const prompt = buildPrompt({
      task: config.task,
      progress: progress.read(),
      evidence,
      iteration,
      maxIterations: config.maxIterations,
      progressFile: config.progressFileName
    })
    const remaining = config.timeLimitMs - (clock.now() - startedAt)
    const timeoutMs = Math.max(1, Math.min(config.callTimeoutMs, remaining))

    ledger.begin(iteration, config.callBudgetUsd)
    let result: AgentResult
    try {
      result = await deps.agent.run(iteration, prompt, timeoutMs, signal)
    } catch (err) {
      result = emptyResult({ status: 'failed', reason: `adapter error: ${(err as Error).message}` })
    }
    const reportedCost = result.costSource === 'worst-case' ? undefined : result.costUsd
    const charged = ledger.charge(iteration, reportedCost, result.costSource)
    result = { ...result, costUsd: charged.usd, costSource: charged.source }
    if (result.status === 'claimed-done') claimedDone++

    const rejected: string[] = []
    const notes: string[] = []
    let tampered = false
    for (const guard of deps.guards) {
      const r = await guard.afterCall(iteration)
      rejected.push(...r.rejected)
      notes.push(...(r.notes ?? []))
      tampered ||= r.tampered
    }

    const change = await deps.workspace.commitIteration(config.runId, iteration)
    if (change.commit) headCommit = change.commit
    const emptyDiff = change.changedFiles.length === 0
    const cancelledNow = signal.aborted

    let verdict: GateVerdict | null = lastVerdict
    let gateRan = false
    if (!cancelledNow && headCommit !== lastGatedCommit) {
      verdict = await deps.gate.run(headCommit, iteration)
      lastGatedCommit = headCommit
      gateRan = true
    }
    lastVerdict = verdict
    let flipsRejected = false
    for (const guard of deps.guards) {
      const r = await guard.afterGate?.(iteration, gateRan ? verdict : null)
      if (r && r.rejected.length > 0) {
        rejected.push(...r.rejected)
        flipsRejected = true
      }
    }
    const changedSinceStart = headCommit !== startCommit && (await deps.workspace.hasChangesSince(startCommit))
    const agentFailed = result.status !== 'claimed-done'

    const nextEvidence: string[] = []
    if (agentFailed) nextEvidence.push(`the agent call ended without success: ${result.reason}`)
    nextEvidence.push(...rejected)
    if (emptyDiff) nextEvidence.push('the last iteration changed no files')
    if (verdict && !verdict.passed) nextEvidence.push(...gateEvidence(verdict))
    if (verdict?.passed && !changedSinceStart) nextEvidence.push('the gate passes but nothing has been changed yet')

    let decision: StopReason | null = null
    const verified = !cancelledNow && verdict?.passed === true && changedSinceStart && !flipsRejected
    if (cancelledNow) decision = 'cancelled'
    else if (verified) decision = 'verified'
    // cancellation (issue 6): a signal during the gate ends the run as cancelled, not as a breaker
    else if (signal.aborted) decision = 'cancelled'
    else if (verdict?.passed && !changedSinceStart && result.status === 'claimed-done') decision = 'nothing-to-do'
    const breaker = breakers.record({
      emptyDiff,
      agentFailed,
      tampered,
      fingerprint: gateRan && !emptyDiff ? (verdict?.fingerprint ?? null) : undefined
    })
    decision ??= breaker
    if (verified && result.status === 'claimed-done') gateAgreed++

    const record: IterationRecord = {
      iteration,
      startedAt: iterationStart,
      endedAt: clock.now(),
      agent: result,
      chargedUsd: charged.usd,
      spentUsd: ledger.spentUsd,
      commit: change.commit,
      changedFiles: change.changedFiles,
      stat: change.stat,
      gate: verdict,
      gateRan,
      rejected,
      tampered,
      evidence: nextEvidence,
      decision: decision ?? 'continue'
    }
    iterations.push(record)
    log.write({
      type: 'iteration',
      iteration,
      startedAt: new Date(iterationStart).toISOString(),
      durationMs: record.endedAt - iterationStart,
      agent: {
        status: result.status,
        reason: result.reason,
        exitCode: result.exitCode,
        signal: result.signal,
        costUsd: result.costUsd,
        costSource: result.costSource,
        turns: result.turns,
        tokens: result.tokens ?? null,
        sessionId: result.sessionId ?? null,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
        permissionDenials: result.permissionDenials,
        finalText: result.finalText.slice(0, 2000),
        outputTail: result.outputTail.slice(-4000),
        warnings: result.warnings
      },
      spentUsd: ledger.spentUsd,
      commit: change.commit,
      diff: { ...change.stat, changedFiles: change.changedFiles.slice(0, 200) },
      gate: verdict
        ? {
            ran: gateRan,
            passed: verdict.passed,
            reason: verdict.reason,
            exitCode: verdict.exitCode,
            timedOut: verdict.timedOut,
            fingerprint: verdict.fingerprint,
            failures: verdict.failures.slice(0, 200),
            testsRun: verdict.testsRun ?? null,
            skipped: verdict.skipped ?? null,
            durationMs: verdict.durationMs,
            outputTail: verdict.outputTail.slice(-4000)
          }
        : null,
      rejected,
      tampered,
      notes,
      breakers: {
        emptyInARow: breakers.emptyInARow,
        sameFailureInARow: breakers.sameFailureInARow,
        agentFailuresInARow: breakers.agentFailuresInARow,
        tamperings: breakers.tamperings
      },
      decision: record.decision
    })
    progress.append(progressLine(record, config))
    if (deps.onIteration) deps.onIteration(record)
    else report(progressLine(record, config))
    evidence = nextEvidence
    if (decision) return finish(decision, decision === 'verified' ? headCommit : null)
  }
}

export function progressLine(record: IterationRecord, config: Pick<EngineConfig, 'spendCeilingUsd'>): string {
  const a = record.agent
  const parts = [
    `iteration ${record.iteration}`,
    `agent ${a.status}${a.status === 'claimed-done' ? '' : ` (${a.reason})`}, ${usd(record.chargedUsd)} ${a.costSource}, ${a.turns} turns`,
    record.changedFiles.length === 0
      ? 'no files changed'
      : `${record.changedFiles.length} file(s) changed +${record.stat.insertions}/-${record.stat.deletions}`,
    record.gate ? (record.gateRan ? describeVerdict(record.gate) : `${describeVerdict(record.gate)} (unchanged tree)`) : 'gate not run'
  ]
  if (record.rejected.length > 0) parts.push(`${record.rejected.length} edit(s) rejected`)
  parts.push(`spent ${usd(record.spentUsd)} of ${usd(config.spendCeilingUsd)}`)
  return `- ${parts.join(' · ')}`
}
