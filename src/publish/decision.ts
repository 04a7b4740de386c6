import type { IterationRecord, RunOutcome } from '../loop/engine-types.js'
import { stopReasonEntry, type AttemptFacts } from '../loop/stop-reasons.js'
import { failingOnBase, flakyTests } from './flaky-section.js'
import { codeSpan } from '../report/inert.js'
import type { PublishContext } from './publisher-types.js'

/** The protected paths the agent changed, newest attempt first, as the tamper guard found them. */
function protectedPathsTouched(iterations: IterationRecord[]): string[] {
  return [...new Set([...iterations].reverse().flatMap((record) => record.protectedPaths ?? []))]
}

/** The reason the agent gave in its give-up file, in the newest iteration that has one ('' when the file was empty). */
export function givenUpReason(outcome: RunOutcome): string | undefined {
  return [...outcome.iterations].reverse().find((r) => r.agent.gaveUp)?.agent.gaveUp?.reason
}

/** A few items as code, and how many more there are; null for none. */
const quoted = (items: string[], max: number): string | null =>
  items.length
    ? items
        .slice(0, max)
        .map((p) => codeSpan(p, { max: 200 }))
        .join(', ') + (items.length > max ? ` and ${items.length - max} more` : '')
    : null

/** What the attempts showed, each text quoted as inert code for the decision's words. */
function attemptFacts(outcome: RunOutcome): AttemptFacts {
  const failure = outcome.lastVerdict?.failures[0]
  const last = outcome.iterations.at(-1)?.agent
  const gaveUp = givenUpReason(outcome)
  return {
    attempts: outcome.iterations.length,
    firstFailure: failure ? codeSpan(failure.id, { max: 200 }) : null,
    protectedPaths: quoted(protectedPathsTouched(outcome.iterations), 3),
    agentFailure: last?.reason ? codeSpan(last.reason, { max: 200 }) : null,
    gaveUpReason: gaveUp ? codeSpan(gaveUp.replace(/\s+/g, ' '), { max: 300 }) : null,
    providerSaid: last?.providerFailure?.message ? codeSpan(last.providerFailure.message, { max: 300 }) : null,
    flaky: quoted(flakyTests(outcome.iterations), 5),
    failingOnBase: quoted(failingOnBase(outcome.iterations), 5)
  }
}

/** The one decision a maintainer is asked to make: the stop reason's words, from what the attempts show. */
export function decisionFor(ctx: PublishContext): string {
  return stopReasonEntry(ctx.outcome.stopReason).decision(attemptFacts(ctx.outcome))
}

/** The comment that resumes the loop with the maintainer's words. */
export function retryCommand(commentCommand: string): string {
  return `**To resume:** comment \`${commentCommand} retry <what changed or what the agent is missing>\` on this issue; the next run starts from the unfinished work with your words as new evidence.`
}
