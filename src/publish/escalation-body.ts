import { usd } from '../format.js'
import { failingTestsSection, iterationsTable, stopSection } from '../report/markdown.js'
import { fitBody, logLine, marker, newestRows, quoteTask, refusalText, unfinishedWork, type BodyExtras } from './body-parts.js'
import type { PublishContext } from './types.js'

export function escalationTitle(ctx: PublishContext, extras: BodyExtras = {}): string {
  return `loopgate(${ctx.settings.loopId}) needs a person: ${extras.refusal ? 'publishing refused' : ctx.outcome.stopReason}`
}

/** The escalation issue: which control fired and what to change, the last failure, then the attempts. */
export function escalationBody(ctx: PublishContext, extras: BodyExtras = {}): string {
  const { settings, outcome } = ctx
  const { rows, note } = newestRows(outcome.iterations)
  return fitBody(
    [
      marker(settings.loopId),
      extras.refusal ? '## loopgate needs a person: the verified work was not published' : `## loopgate needs a person: \`${outcome.stopReason}\``,
      extras.refusal ? refusalText(extras.refusal) : stopSection(outcome.stopReason),
      failingTestsSection(outcome),
      extras.refusal ? '' : unfinishedWork(ctx, extras),
      `**Spend:** ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling over ${outcome.iterations.length} iteration(s).`,
      extras.history
        ? `**Spend so far across runs of this loop:** ${usd(extras.history.spentUsd + outcome.spentUsd)} over ${extras.history.runs + 1} run(s) (this one included).`
        : '',
      quoteTask(ctx),
      '### Attempts',
      note,
      iterationsTable(rows),
      logLine(ctx, extras)
    ]
      .filter(Boolean)
      .join('\n\n')
  )
}
