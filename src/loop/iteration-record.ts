import { usd } from '../format.js'
import { describeVerdict } from './verdict-text.js'
import type { CallResult } from './call.js'
import type { Judgement } from './judge.js'
import type { LoopRun } from './run-state.js'
import type { EngineConfig, IterationRecord, LoopLogEntry } from './engine-types.js'

/** One iteration as the loop ran it: its agent call and how it was judged. */
interface IterationRun {
  run: LoopRun
  iteration: number
  call: CallResult
  judged: Judgement
}

/** The iteration's record: one attempt-log entry, one progress line, the evidence for the next call. */
export function recordIteration({ run, iteration, call, judged }: IterationRun): IterationRecord {
  const { deps } = run
  const result = call.result
  const record: IterationRecord = {
    iteration,
    startedAt: call.startedAt,
    endedAt: deps.clock.now(),
    agent: result,
    chargedUsd: call.chargedUsd,
    spentUsd: deps.ledger.spentUsd,
    commit: judged.change.commit,
    changedFiles: judged.change.changedFiles,
    stat: judged.change.stat,
    gate: judged.verdict,
    gateRan: judged.gateRan,
    rejected: judged.rejected,
    tampered: call.tampered,
    protectedPaths: call.protectedPaths,
    evidence: judged.evidence,
    decision: judged.decision ?? 'continue'
  }
  run.iterations.push(record)
  deps.log.write(iterationEntry({ run, record, call, judged }))
  deps.progress.append(progressLine(record, run.config))
  if (deps.onIteration) deps.onIteration(record)
  else run.report(progressLine(record, run.config))
  run.evidence = judged.evidence
  return record
}

/** A recorded iteration with the call and the judgement it was made from. */
interface RecordedIteration {
  run: LoopRun
  record: IterationRecord
  call: CallResult
  judged: Judgement
}

/** The agent's result as the attempt log keeps it (its output cut to a tail). */
function agentEntry(result: CallResult['result']): Record<string, unknown> {
  return {
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
    warnings: result.warnings,
    wire: result.wire ?? null,
    providerFailure: result.providerFailure ?? null
  }
}

/** The attempt log's entry of one iteration: the agent's result, the commit, the verdict, the breakers. */
function iterationEntry({ run, record, call, judged }: RecordedIteration): Extract<LoopLogEntry, { type: 'iteration' }> {
  const { deps, breakers } = run
  const verdict = judged.verdict
  const iteration = record.iteration
  return {
    type: 'iteration',
    iteration,
    startedAt: new Date(call.startedAt).toISOString(),
    durationMs: record.endedAt - call.startedAt,
    agent: agentEntry(call.result),
    spentUsd: deps.ledger.spentUsd,
    commit: judged.change.commit,
    flipsCommit: judged.flipsCommit,
    diff: { ...judged.change.stat, changedFiles: judged.change.changedFiles.slice(0, 200) },
    gate: verdict
      ? {
          ran: judged.gateRan,
          passed: verdict.passed,
          reason: verdict.reason,
          exitCode: verdict.exitCode,
          timedOut: verdict.timedOut,
          fingerprint: verdict.fingerprint,
          flaky: verdict.flaky ?? [],
          ...(verdict.failingOnBase?.length ? { failingOnBase: verdict.failingOnBase } : {}),
          ...(verdict.rerun ? { rerun: verdict.rerun } : {}),
          ...(verdict.wrote ? { wrote: verdict.wrote } : {}),
          failures: verdict.failures.slice(0, 200),
          testsRun: verdict.testsRun ?? null,
          skipped: verdict.skipped ?? null,
          durationMs: verdict.durationMs,
          outputTail: verdict.outputTail.slice(-4000)
        }
      : null,
    rejected: judged.rejected,
    tampered: call.tampered,
    notes: judged.notes,
    breakers: {
      emptyInARow: breakers.emptyInARow,
      sameFailureInARow: breakers.sameFailureInARow,
      agentFailuresInARow: breakers.agentFailuresInARow,
      tamperings: breakers.tamperings
    },
    decision: record.decision
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
