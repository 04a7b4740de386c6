import type { AgentResult } from '../agent-result.js'
import { emptyResult } from '../agent-result.js'
import { callSpendLimit } from './admit.js'
import { buildPrompt } from './prompt.js'
import type { LoopRun } from './run-state.js'

/** One agent call and what the guards made of it. */
export interface CallResult {
  startedAt: number
  result: AgentResult
  chargedUsd: number
  rejected: string[]
  notes: string[]
  tampered: boolean
  /** The protected paths the guards restored after the call. */
  protectedPaths: string[]
  /** The paths a guard's status check found changed after the call (see GuardReport.changedPaths). */
  changedPaths?: string[]
}

/**
 * The call: a fresh prompt (task, progress notes, the last evidence), the agent under the per-call
 * timeout (never past the run's time limit) and the spend limit the metering proxy holds it to, the
 * charge in the ledger (what the proxy relayed; off the proxy, a call without a cost report is
 * charged its budget), then the guards' checks of what it changed.
 */
export async function callAgent(run: LoopRun, iteration: number): Promise<CallResult> {
  const { config, deps } = run
  const startedAt = deps.clock.now()
  for (const guard of deps.guards) await guard.beforeCall?.(iteration)
  const prompt = buildPrompt({
    task: config.task,
    progress: deps.progress.read(),
    evidence: run.evidence,
    iteration,
    maxIterations: config.maxIterations,
    progressFile: config.progressFileName,
    packageDir: config.packageDir
  })
  const remaining = config.timeLimitMs - (deps.clock.now() - run.startedAt)
  const timeoutMs = Math.max(1, Math.min(config.callTimeoutMs, remaining))

  deps.ledger.begin(iteration, config.callBudgetUsd)
  let result: AgentResult
  try {
    result = await deps.agent.run({ iteration, prompt, timeoutMs, signal: run.signal, limit: callSpendLimit(run) })
  } catch (err) {
    result = emptyResult({ status: 'failed', reason: `adapter error: ${(err as Error).message}` })
  }
  // A process that never started (spawn ENOENT / EACCES) ran no model call: it is charged nothing.
  const reportedCost = result.notStarted ? 0 : result.costSource === 'worst-case' ? undefined : result.costUsd
  const charged = deps.ledger.charge({ iteration, usd: reportedCost, source: result.notStarted ? 'not-started' : result.costSource })
  result = { ...result, costUsd: charged.usd, costSource: charged.source }
  if (result.status === 'claimed-done') run.claimedDone++

  const rejected: string[] = []
  const notes: string[] = []
  let tampered = false
  const protectedPaths: string[] = []
  let changedPaths: string[] | undefined
  for (const guard of deps.guards) {
    const r = await guard.afterCall(iteration)
    rejected.push(...r.rejected)
    notes.push(...(r.notes ?? []))
    tampered ||= r.tampered
    protectedPaths.push(...(r.protectedPaths ?? []))
    if (r.changedPaths) changedPaths = [...new Set([...(changedPaths ?? []), ...r.changedPaths])]
  }
  return { startedAt, result, chargedUsd: charged.usd, rejected, notes, tampered, protectedPaths, changedPaths }
}
