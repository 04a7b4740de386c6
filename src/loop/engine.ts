import { admit } from './admit.js'
import { callAgent } from './call.js'
import { judge } from './judge.js'
import { recordIteration } from './iteration-record.js'
import { finishRun, startRun } from './run-state.js'
import type { EngineConfig, EngineDeps, RunOutcome } from './engine-types.js'

/**
 * The bounded outer loop, in its four phases: admit (caps and ceilings, counted), call (one fresh
 * agent call, charged), judge (loopgate's commit, the protected gate, verified flips, breakers),
 * record (log, progress, evidence). Nothing the agent writes decides when it stops.
 */
export async function runLoop(config: EngineConfig, deps: EngineDeps): Promise<RunOutcome> {
  const run = await startRun(config, deps)
  for (let iteration = 1; ; iteration++) {
    const refused = admit(run, iteration)
    if (refused) {
      deps.log.write({ type: 'admission', iteration, refused, spentUsd: deps.ledger.spentUsd })
      return finishRun(run, refused)
    }
    const call = await callAgent(run, iteration)
    const judged = await judge(run, iteration, call)
    recordIteration({ run, iteration, call, judged })
    if (judged.decision) return finishRun(run, judged.decision, judged.decision === 'verified' ? judged.judgedCommit : null)
  }
}
