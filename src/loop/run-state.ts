import { Breakers } from './breakers.js'
import { usd } from '../format.js'
import type { StopReason } from './stop-reasons.js'
import type { EngineConfig, EngineDeps, GateVerdict, IterationRecord, RunOutcome } from './engine-types.js'

/** What the loop carries from one iteration to the next. */
export interface LoopRun {
  readonly config: EngineConfig
  readonly deps: EngineDeps
  readonly signal: AbortSignal
  readonly report: (line: string) => void
  readonly breakers: Breakers
  readonly startedAt: number
  readonly startCommit: string
  readonly iterations: IterationRecord[]
  headCommit: string
  evidence: string[]
  lastVerdict: GateVerdict | null
  lastGatedCommit: string | null
  claimedDone: number
  gateAgreed: number
}

/** The run's start: breakers armed, the worst case said out loud and logged. */
export async function startRun(config: EngineConfig, deps: EngineDeps): Promise<LoopRun> {
  const report = deps.report ?? (() => undefined)
  const breakers = new Breakers({
    noProgressLimit: config.noProgressLimit,
    sameFailureLimit: config.sameFailureLimit,
    agentFailureLimit: config.agentFailureLimit ?? 3,
    tamperLimit: config.tamperLimit ?? 2
  })
  if (config.seedFingerprint !== undefined) breakers.seedFingerprint(config.seedFingerprint)
  const startedAt = deps.clock.now()
  deps.progress.ensure()
  const startCommit = await deps.workspace.head()

  const maxCalls = Math.min(config.maxIterations, Math.floor(config.spendCeilingUsd / config.callBudgetUsd + 1e-9))
  report(
    `Worst-case spend for this run: ${usd(config.spendCeilingUsd)} (spend-ceiling-usd). A call starts only while spent + call-budget-usd (${usd(config.callBudgetUsd)}) ≤ ${usd(config.spendCeilingUsd)}, so at most ${maxCalls} calls; a call that reports no cost is charged its full budget.`
  )
  if (deps.meteredAtWire) {
    report(
      `Spend is metered at the wire (${deps.meteredAtWire}): before a model request is relayed its worst case is reserved (its input at one token per 4 bytes, its output cap at the output rate, the cap lowered to fit; no cap reserves all that is left) and it is refused when that does not fit; each answer is charged the usage the model API reports, read to its end even when the agent hangs up. So a call, the run and the rolling window end at most one response over call-budget-usd, spend-ceiling-usd and period-ceiling-usd, and only by what its input estimate missed.`
    )
  }
  deps.log.write({
    type: 'run-start',
    runId: config.runId,
    startCommit,
    worstCaseUsd: config.spendCeilingUsd,
    meteredAtWire: deps.meteredAtWire ?? null,
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
  return {
    config,
    deps,
    signal: deps.signal ?? new AbortController().signal,
    report,
    breakers,
    startedAt,
    startCommit,
    iterations: [],
    headCommit: startCommit,
    evidence: [...(config.initialEvidence ?? [])],
    lastVerdict: null,
    lastGatedCommit: null,
    claimedDone: 0,
    gateAgreed: 0
  }
}

/** The one stop of the run: its reason as the progress file's last line, in the log, in the outcome. */
export function finishRun(run: LoopRun, stopReason: StopReason, verifiedCommit: string | null = null): RunOutcome {
  const { deps, iterations } = run
  deps.progress.appendStop(stopReason)
  const outcome: RunOutcome = {
    stopReason,
    iterations,
    spentUsd: deps.ledger.spentUsd,
    startCommit: run.startCommit,
    headCommit: run.headCommit,
    verifiedCommit,
    lastVerdict: run.lastVerdict,
    lastEvidence: run.evidence,
    claimedDone: run.claimedDone,
    gateAgreed: run.gateAgreed,
    startedAt: run.startedAt,
    endedAt: deps.clock.now()
  }
  deps.log.write({
    type: 'stop',
    stopReason,
    iterations: iterations.length,
    spentUsd: deps.ledger.spentUsd,
    verifiedCommit,
    headCommit: run.headCommit,
    claimedDone: run.claimedDone,
    gateAgreed: run.gateAgreed
  })
  run.report(`Stopped: ${stopReason} after ${iterations.length} iteration(s), ${usd(deps.ledger.spentUsd)} spent.`)
  return outcome
}
