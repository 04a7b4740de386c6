import type { Clock, GateVerdict, ProgressNotes, RunOutcome } from '../loop/engine-types.js'
import type { AttemptLog } from '../records/attempt-log.js'
import type { BotBump } from './bot-bump.js'

/** The bump, the head the gate passed on, its verdict, and where the run's records go. */
interface GatePassed {
  bump: BotBump
  head: string
  verdict: GateVerdict
  records: { log: Pick<AttemptLog, 'write'>; progress: ProgressNotes; clock: Clock }
}

/**
 * The protected gate already passes on the bot's head: what failed is not the gate (another job,
 * a flaky test), so the agent is not called and nothing is pushed.
 */
export function gatePassesOnTheBump({ bump, head, verdict, records }: GatePassed): RunOutcome {
  const at = records.clock.now()
  records.progress.ensure()
  records.progress.appendStop('nothing-to-do')
  records.log.write({
    type: 'stop',
    stopReason: 'nothing-to-do',
    message: `the protected gate passes on the bot's head ${bump.headCommit.slice(0, 12)}: the failed check is not the gate's; no agent call`,
    iterations: 0,
    spentUsd: 0,
    headCommit: head
  })
  return {
    stopReason: 'nothing-to-do',
    iterations: [],
    spentUsd: 0,
    startCommit: head,
    headCommit: head,
    verifiedCommit: null,
    lastVerdict: verdict,
    lastEvidence: [],
    claimedDone: 0,
    gateAgreed: 0,
    startedAt: at,
    endedAt: at
  }
}
