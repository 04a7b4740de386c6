import { usd } from '../format.js'
import { failingTestsSection, iterationsTable, stopSection } from '../report/markdown.js'
import { attemptSections } from './attempt-details.js'
import { fitBody, logLine, marker, newestRows, quoteTask, refusalText, unfinishedWork, type BodyExtras } from './body-parts.js'
import { type LoopHistory } from '../state/schema.js'
import { decisionFor, givenUpReason, retryCommand } from './decision.js'
import { flakySection } from './flaky-section.js'
import { networkSection } from './network-section.js'
import { codeBlock, codeSpan } from '../report/inert.js'
import { cleanTitle } from './title.js'
import type { PublishContext } from './publisher-types.js'

/** The task part of an escalation's title is cut at a word under this many characters. */
const TITLE_TASK_MAX = 59

/** `loopgate: <the task's first words, or package@version> — <stop reason>`. */
export function escalationTitle(ctx: PublishContext, extras: BodyExtras = {}): string {
  const what = ctx.upgrade
    ? cleanTitle(`${ctx.upgrade.name}@${ctx.upgrade.to}`, TITLE_TASK_MAX)
    : cleanTitle(ctx.settings.prompt.trim().split('\n')[0] ?? '', TITLE_TASK_MAX) || cleanTitle(`loop ${ctx.settings.loopId}`, TITLE_TASK_MAX)
  return `loopgate: ${what} — ${extras.refusal ? 'publishing refused' : ctx.outcome.stopReason}`
}

/** The agent's whole reason for asking for a person, quoted as its words. */
function giveUpQuote(ctx: PublishContext): string {
  if (ctx.outcome.stopReason !== 'agent-gave-up') return ''
  const reason = givenUpReason(ctx.outcome)
  return reason
    ? `**The agent's reason**, in its own words:\n\n${codeBlock(reason, 'text')}`
    : "**The agent's reason:** none given (its give-up file was empty)."
}

/** What changed since the loop's previous run, for a body that later runs update. */
function sinceLastRun(ctx: PublishContext, history: LoopHistory | undefined): string {
  const last = history?.last
  if (!last) return ''
  const { outcome } = ctx
  const same =
    last.stopReason === outcome.stopReason
      ? `stopped again with \`${outcome.stopReason}\``
      : `stopped with \`${outcome.stopReason}\` (the previous run: ${codeSpan(last.stopReason)})`
  return `**Since the previous run** (ended ${last.endedAt}, ${last.iterations} iteration(s), ${usd(last.spentUsd)}): this run ${same} after ${outcome.iterations.length} iteration(s), ${usd(outcome.spentUsd)}.`
}

/**
 * The escalation issue: the one decision asked of the maintainer and the command that resumes the
 * loop first, then which control fired, the last failure, the unfinished work, and each attempt.
 */
export function escalationBody(ctx: PublishContext, extras: BodyExtras = {}): string {
  const { settings, outcome } = ctx
  const { rows, note } = newestRows(outcome.iterations)
  const compare = extras.repoUrl && extras.wipBranch ? { repoUrl: extras.repoUrl, startCommit: outcome.startCommit } : undefined
  return fitBody(
    [
      marker(settings.loopId),
      extras.refusal ? '## loopgate needs a person: the verified work was not published' : `## loopgate needs a person: \`${outcome.stopReason}\``,
      extras.refusal ? '' : `**Decision:** ${decisionFor(ctx)}`,
      extras.refusal ? '' : retryCommand(settings.commentCommand),
      giveUpQuote(ctx),
      extras.refusal ? refusalText(extras.refusal) : stopSection(outcome.stopReason),
      sinceLastRun(ctx, extras.history),
      failingTestsSection(outcome),
      flakySection(outcome.iterations),
      networkSection(ctx.networkRefusals),
      extras.refusal ? '' : unfinishedWork(ctx, extras),
      `**Spend:** ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling over ${outcome.iterations.length} iteration(s).`,
      extras.history
        ? `**Spend so far across runs of this loop:** ${usd(extras.history.spentUsd + outcome.spentUsd)} over ${extras.history.runs + 1} run(s) (this one included).`
        : '',
      quoteTask(ctx),
      '### Attempts',
      attemptSections(outcome.iterations, extras.attemptChanges, compare),
      '### All attempts',
      note,
      iterationsTable(rows),
      logLine(ctx, extras)
    ]
      .filter(Boolean)
      .join('\n\n')
  )
}
