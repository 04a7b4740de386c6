import type { IterationRecord, RunOutcome } from '../loop/engine-types.js'
import type { StopReason } from '../loop/stop-reasons.js'
import { failingOnBase, flakyTests } from './flaky-section.js'
import { codeSpan } from '../report/inert.js'
import type { PublishContext } from './publisher-types.js'

/** The protected paths the agent changed, newest attempt first, as the tamper guard found them. */
export function protectedPathsTouched(iterations: IterationRecord[]): string[] {
  return [...new Set([...iterations].reverse().flatMap((record) => record.protectedPaths))]
}

/** The reason the agent gave in its give-up file, in the newest iteration that has one ('' when the file was empty). */
export function givenUpReason(outcome: RunOutcome): string | undefined {
  return [...outcome.iterations].reverse().find((r) => r.agent.gaveUp)?.agent.gaveUp?.reason
}

/** The first failing test of the last verdict, as code; null when none was read. */
function firstFailure(outcome: RunOutcome): string | null {
  const failure = outcome.lastVerdict?.failures[0]
  return failure ? codeSpan(failure.id, { max: 200 }) : null
}

const quoted = (items: string[], max = 3): string =>
  items
    .slice(0, max)
    .map((p) => codeSpan(p, { max: 200 }))
    .join(', ') + (items.length > max ? ` and ${items.length - max} more` : '')

/**
 * The one decision a maintainer is asked to make, from the stop reason and what the attempts show.
 * Each names the choice in the maintainer's terms: what to change in the base, or what to tell
 * the agent on a retry.
 */
export function decisionFor(ctx: PublishContext): string {
  const { outcome } = ctx
  const reason: StopReason = outcome.stopReason
  const failing = firstFailure(outcome)
  const n = outcome.iterations.length
  switch (reason) {
    case 'protected-tampering': {
      const paths = protectedPathsTouched(outcome.iterations)
      const what = paths.length ? quoted(paths) : 'protected tests or test configuration'
      return `the task needs ${what} changed, which the agent may not do: change it in the base, or retry with what the agent is missing.`
    }
    case 'same-failure':
      return `${failing ?? 'the gate'} failed the same way after new changes: fix or quarantine it in the base if it is wrong or flaky, or retry with the context the agent is missing.`
    case 'max-iterations':
      return `${n} attempts did not pass the gate${failing ? ` (still failing: ${failing})` : ''}: retry with a narrower task or the missing context, or raise \`max-iterations\` if each attempt made progress.`
    case 'spend-ceiling':
    case 'period-ceiling':
      return `the budget ran out with the gate still failing${failing ? ` (${failing})` : ''}: raise \`${reason === 'spend-ceiling' ? 'spend-ceiling-usd' : 'period-ceiling-usd'}\` to let it go on, or narrow the task.`
    case 'time-limit':
      return `the run reached \`time-limit-minutes\` with the gate still failing: raise it (below the job's timeout), or split the task.`
    case 'no-progress':
      return 'the agent changed nothing in several attempts in a row: check that it can run the tools it needs, or retry with a more specific task.'
    case 'agent-failure': {
      const last = outcome.iterations.at(-1)?.agent.reason
      return `the agent's process failed call after call${last ? ` (${codeSpan(last, { max: 200 })})` : ''}: check the API key, the model and the agent output in the attempt log, then retry.`
    }
    case 'cancelled':
      return 'the run was cancelled before it finished: retry to resume from the unfinished work.'
    case 'agent-gave-up': {
      const reason = givenUpReason(outcome)
      return `the agent asked for a person: ${reason ? codeSpan(reason.replace(/\s+/g, ' '), { max: 300 }) : 'it gave no reason'}. Decide whether the task, the base or the tests must change, then retry with your answer.`
    }
    case 'provider-unavailable': {
      const said = outcome.iterations.at(-1)?.agent.providerFailure?.message
      return `the model provider kept refusing or failing the agent's requests${said ? ` (${codeSpan(said, { max: 300 })})` : ' (rate limit, overload or exhausted quota)'}: wait for its limits to reset, or raise the quota or credit of the account, then retry.`
    }
    case 'flaky-tests': {
      const onBase = failingOnBase(outcome.iterations)
      const flaky = flakyTests(outcome.iterations)
      if (onBase.length === 0) {
        return `only flaky tests were failing at the end (each failed, then passed on the same commit): quarantine or fix ${flaky.length ? quoted(flaky, 5) : 'them'} in the base, then retry.`
      }
      const alsoFlaky = flaky.length ? `, and quarantine or fix the flaky ${quoted(flaky, 5)}` : ''
      return `the tests left failing fail on the base too (${quoted(onBase, 5)}; they passed at the baseline): fix them in the base${alsoFlaky}, then retry.`
    }
    case 'gate-broken':
      return 'the gate does not run on the base itself: fix `gate-setup` or `gate-command` (the attempt log shows what failed), then retry.'
    default:
      return `the loop stopped with \`${reason}\`: decide whether to retry with more context or to take the task over.`
  }
}

/** The comment that resumes the loop with the maintainer's words. */
export function retryCommand(commentCommand: string): string {
  return `**To resume:** comment \`${commentCommand} retry <what changed or what the agent is missing>\` on this issue; the next run starts from the unfinished work with your words as new evidence.`
}
