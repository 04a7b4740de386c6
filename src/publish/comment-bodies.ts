import { usd } from '../format.js'
import { needsEscalation } from '../loop/stop-reasons.js'
import type { IterationRecord } from '../loop/engine-types.js'
import { decisionFor } from './decision.js'
import { failingTestsSection, iterationsTable, stopSection } from '../report/markdown.js'
import { fitBody, logLine, marker, newestRows, refusalText, unfinishedWork, type BodyExtras } from './body-parts.js'
import type { PublishContext, PublisherSettings } from './publisher-types.js'
import { filesTable } from './pull-request-body.js'

/** A short comment for a run that updated an open PR / issue or worked on a PR branch. */
export function runComment(ctx: PublishContext, extras: BodyExtras, runLink?: string): string {
  const { settings, outcome } = ctx
  const { rows, note } = newestRows(outcome.iterations)
  const escalates = needsEscalation(outcome.stopReason)
  const what = extras.refusal
    ? `verified \`${outcome.verifiedCommit}\` but did not publish it`
    : outcome.stopReason === 'verified'
      ? `verified \`${outcome.verifiedCommit}\`${extras.branch ? ` and pushed it to \`${extras.branch}\`` : ''}`
      : `stopped: \`${outcome.stopReason}\``
  return fitBody(
    [
      marker(settings.loopId),
      `loopgate${runLink ? ` ([workflow run](${runLink}))` : ''} ${what} after ${outcome.iterations.length} iteration(s), spending ${usd(outcome.spentUsd)} of ${usd(settings.spendCeilingUsd)}.`,
      escalates && !extras.refusal ? `**Decision:** ${decisionFor(ctx)}` : '',
      escalates && !extras.refusal
        ? `**To resume:** comment \`${settings.commentCommand} <what changed or what the agent is missing>\` on this pull request.`
        : '',
      extras.refusal ? refusalText(extras.refusal) : outcome.stopReason === 'verified' ? '' : stopSection(outcome.stopReason),
      // What the verified work changed, as pushed onto the pull request's branch.
      outcome.stopReason === 'verified' && extras.branch ? filesTable(extras.changes) : '',
      failingTestsSection(outcome),
      outcome.stopReason !== 'verified' ? unfinishedWork(ctx, extras) : '',
      note,
      iterationsTable(rows),
      logLine(ctx, extras)
    ]
      .filter(Boolean)
      .join('\n\n')
  )
}

/** Rows shown in the progress comment: the newest ones. */
const PROGRESS_ROWS = 50

/** The progress comment while a run works on a pull request, updated after each iteration (and with `now`, what is in progress). */
export function progressBody(settings: PublisherSettings, iterations: IterationRecord[], { runLink, now }: { runLink?: string; now?: string } = {}): string {
  const spent = iterations.at(-1)?.spentUsd ?? 0
  const shown = iterations.slice(-PROGRESS_ROWS)
  return [
    marker(settings.loopId),
    `loopgate${runLink ? ` ([workflow run](${runLink}))` : ''} is working on this pull request: ${iterations.length} of at most ${settings.maxIterations} iteration(s), ${usd(spent)} of ${usd(settings.spendCeilingUsd)} spent.`,
    shown.length < iterations.length ? `_The last ${shown.length} iterations:_` : '',
    iterationsTable(shown),
    now ? `_Now: ${now.replace(/^… /, '')}_` : '',
    '_This comment is updated as the run goes and ends with its outcome._'
  ]
    .filter(Boolean)
    .join('\n\n')
}

/** The comment that closes the loop's escalation issue once a later run verified. */
export function closingComment(loopId: string, verified: { pullRequestUrl?: string; branch?: string; commit: string | null }, runLink?: string): string {
  const where = verified.pullRequestUrl
    ? `pull request ${verified.pullRequestUrl}`
    : verified.branch
      ? `the branch \`${verified.branch}\``
      : 'no branch (on-success is none)'
  return [
    marker(loopId),
    `A later run of this loop${runLink ? ` ([workflow run](${runLink}))` : ''} passed the protected gate${verified.commit ? ` on commit \`${verified.commit}\`` : ''}: the work is in ${where}. Closing this escalation; reopen it if the problem is not solved.`
  ].join('\n\n')
}
