import { readFileSync } from 'node:fs'
import { needsEscalation } from '../loop/stop-reasons.js'
import { failingTestsSection, iterationsTable, spendChart, stopSection } from '../report/markdown.js'
import type { PublishContext } from './types.js'

const usd = (n: number): string => `$${n.toFixed(2)}`
/** GitHub refuses a PR / issue / comment body longer than this. */
export const BODY_LIMIT = 65536
/** Room kept for the collapsed block's wrapper and the cut note. */
const LOG_WRAPPER = 600

/** What the publisher learned while publishing, for the bodies. */
export interface BodyExtras {
  /** The attempt log artifact (or the workflow run page). */
  logUrl?: string
  /** The branch the verified work was pushed to. */
  branch?: string
  /** Where unfinished work was pushed. */
  wipBranch?: string
}

export function marker(loopId: string): string {
  return `<!-- loopgate:loop-id=${loopId} -->`
}

function fullLogPointer(ctx: PublishContext, extras: BodyExtras): string {
  return extras.logUrl ? `[the full log](${extras.logUrl})` : `the full log (workflow artifact \`loopgate-${ctx.settings.loopId}\`, file \`${ctx.logFile}\`)`
}

function fence(text: string): string {
  return text.replace(/```/g, '`\u200b``')
}

/** The attempt log in a collapsed section, cut to `budget` characters with a link to the full log. */
function attemptLog(ctx: PublishContext, extras: BodyExtras, budget: number): string {
  let log = ''
  try {
    log = readFileSync(ctx.logFile, 'utf8')
  } catch {
    return ''
  }
  const safe = fence(log)
  const room = Math.max(0, budget)
  const cut = safe.length > room
  const text = cut ? `${safe.slice(0, safe.lastIndexOf('\n', room) > 0 ? safe.lastIndexOf('\n', room) : room)}\n… (cut to fit GitHub's body limit)` : safe
  const note = cut ? `\n\nThe log was cut to fit; read ${fullLogPointer(ctx, extras)}.` : ''
  return `<details><summary>Attempt log (JSON Lines)</summary>\n\n\`\`\`json\n${text}\n\`\`\`\n</details>${note}`
}

/** Joins the head and the collapsed log, never beyond BODY_LIMIT. */
export function fitBody(head: string, ctx: PublishContext, extras: BodyExtras): string {
  const boundedHead = head.length > BODY_LIMIT / 2 ? `${head.slice(0, BODY_LIMIT / 2)}\n\n… (cut)` : head
  const body = `${boundedHead}\n\n${attemptLog(ctx, extras, BODY_LIMIT - boundedHead.length - LOG_WRAPPER)}`
  return body.length > BODY_LIMIT ? body.slice(0, BODY_LIMIT) : body
}

function quoteTask(ctx: PublishContext): string {
  return `**Task** (${ctx.settings.promptSource}):\n\n> ${ctx.settings.prompt.trim().slice(0, 4000).replace(/\n/g, '\n> ')}`
}

function gateEvidence(ctx: PublishContext): string {
  const v = ctx.outcome.lastVerdict
  if (!v) return ''
  const counts = v.testsRun !== undefined ? `, ${v.testsRun} test(s) run${v.skipped ? `, ${v.skipped} skipped` : ''}` : ''
  const tail = v.outputTail.trim()
  const output = tail ? `\n\n<details><summary>Gate output (end)</summary>\n\n\`\`\`\n${fence(tail.slice(-3000))}\n\`\`\`\n</details>` : ''
  return `### Gate evidence\n\n\`${ctx.settings.gateCommand}\` ${v.passed ? 'passed' : 'failed'} (${v.reason}${counts}) in ${(v.durationMs / 1000).toFixed(1)} s, in a clean checkout with the protected tests from the base.${output}`
}

function logLine(ctx: PublishContext, extras: BodyExtras): string {
  return `Attempt log: ${extras.logUrl ? `[workflow artifact](${extras.logUrl})` : fullLogPointer(ctx, extras)}.`
}

export function pullRequestTitle(ctx: PublishContext): string {
  const first = ctx.settings.prompt.trim().split('\n')[0].replace(/^#+\s*/, '').slice(0, 80)
  return `loopgate(${ctx.settings.loopId}): ${first || 'verified change'}`
}

export function escalationTitle(ctx: PublishContext): string {
  return `loopgate(${ctx.settings.loopId}) needs a person: ${ctx.outcome.stopReason}`
}

export function pullRequestBody(ctx: PublishContext, extras: BodyExtras = {}): string {
  const { settings, outcome } = ctx
  const head = [
    marker(settings.loopId),
    `## loopgate: verified`,
    quoteTask(ctx),
    `**Outcome:** the protected gate (\`${settings.gateCommand}\`) passed on commit \`${outcome.verifiedCommit}\` after ${outcome.iterations.length} iteration(s). The agent claimed done ${outcome.claimedDone} time(s); the gate agreed ${outcome.gateAgreed} time(s).`,
    `**Spend:** ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling.`,
    '### Iterations',
    iterationsTable(outcome.iterations),
    spendChart(outcome, settings.spendCeilingUsd),
    gateEvidence(ctx),
    logLine(ctx, extras),
    'A passing gate is only as trustworthy as the tests behind it: please read the change.'
  ]
    .filter(Boolean)
    .join('\n\n')
  return fitBody(head, ctx, extras)
}

export function escalationBody(ctx: PublishContext, extras: BodyExtras = {}): string {
  const { settings, outcome } = ctx
  const wip = extras.wipBranch
    ? `**Unfinished work** is on the branch \`${extras.wipBranch}\` (commit \`${outcome.headCommit}\`): resume from it instead of restarting.`
    : '**Unfinished work:** none (no commit was made beyond the start).'
  const head = [
    marker(settings.loopId),
    `## loopgate needs a person: \`${outcome.stopReason}\``,
    stopSection(outcome.stopReason),
    quoteTask(ctx),
    `**Spend:** ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling over ${outcome.iterations.length} iteration(s).`,
    wip,
    '### Attempts',
    iterationsTable(outcome.iterations),
    failingTestsSection(outcome),
    logLine(ctx, extras)
  ]
    .filter(Boolean)
    .join('\n\n')
  return fitBody(head, ctx, extras)
}

/** A short comment for a run that updated an open PR / issue or worked on a PR branch. */
export function runComment(ctx: PublishContext, extras: BodyExtras, runLink?: string): string {
  const { settings, outcome } = ctx
  const what =
    outcome.stopReason === 'verified'
      ? `verified \`${outcome.verifiedCommit}\`${extras.branch ? ` and pushed it to \`${extras.branch}\`` : ''}`
      : `stopped: \`${outcome.stopReason}\``
  const head = [
    marker(settings.loopId),
    `loopgate${runLink ? ` ([workflow run](${runLink}))` : ''} ${what} after ${outcome.iterations.length} iteration(s), spending ${usd(outcome.spentUsd)} of ${usd(settings.spendCeilingUsd)}.`,
    outcome.stopReason === 'verified' ? '' : stopSection(outcome.stopReason),
    outcome.stopReason !== 'verified' && extras.wipBranch ? `Unfinished work: \`${extras.wipBranch}\`.` : '',
    iterationsTable(outcome.iterations),
    failingTestsSection(outcome),
    logLine(ctx, extras)
  ]
    .filter(Boolean)
    .join('\n\n')
  return fitBody(head, ctx, extras)
}

export function wantsEscalation(ctx: PublishContext): boolean {
  return needsEscalation(ctx.outcome.stopReason)
}
