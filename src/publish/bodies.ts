import { readFileSync } from 'node:fs'
import { failingTestsSection, iterationsTable, outputTailBlock, spendChart, stopSection } from '../report/markdown.js'
import type { Settings } from '../inputs.js'
import type { IterationRecord } from '../loop/types.js'
import { codeBlock, codeSpan, inert, plainLine } from './inert.js'
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
  /** Why unfinished work was not pushed (a failed or refused push, a dry run). */
  wipNote?: string
  /** The verified work was not pushed because it would rewrite a pull request branch's history. */
  refusal?: { branch: string; startHead: string; commit: string }
  /** The work was pushed with the workflow's GITHUB_TOKEN, whose pushes start no workflows. */
  pushedWithWorkflowToken?: boolean
  /** The loop's earlier runs, from its state (for the escalation issue's overview). */
  history?: LoopHistory
}

/** What the loop's state says of its earlier runs. */
export interface LoopHistory {
  runs: number
  spentUsd: number
}

/** One line for a pull request GitHub runs no workflows on (pushed with GITHUB_TOKEN). */
export const NO_CI_LINE =
  "**CI:** pushed with the workflow's `GITHUB_TOKEN`, so GitHub starts no workflows for this pull request; close and reopen it to run them, or give loopgate a GitHub App token (`github-token`)."


export function marker(loopId: string): string {
  return `<!-- loopgate:loop-id=${loopId} -->`
}

function fullLogPointer(ctx: PublishContext, extras: BodyExtras): string {
  return extras.logUrl ? `[the full log](${extras.logUrl})` : `the full log (workflow artifact \`loopgate-${ctx.settings.loopId}\`, file \`${ctx.logFile}\`)`
}

/** The attempt log in a collapsed section, cut to `budget` characters with a link to the full log. */
function attemptLog(ctx: PublishContext, extras: BodyExtras, budget: number): string {
  let log = ''
  try {
    log = readFileSync(ctx.logFile, 'utf8')
  } catch {
    return ''
  }
  // Neutralized before measuring: the neutralized text is what has to fit.
  log = inert(log)
  const room = Math.max(0, budget)
  const cut = log.length > room
  const text = cut ? `${log.slice(0, log.lastIndexOf('\n', room) > 0 ? log.lastIndexOf('\n', room) : room)}\n… (cut to fit GitHub's body limit)` : log
  const note = cut ? `\n\nThe log was cut to fit; read ${fullLogPointer(ctx, extras)}.` : ''
  return `<details><summary>Attempt log (JSON Lines)</summary>\n\n${codeBlock(text, 'json')}\n</details>${note}`
}

/** Joins the head and the collapsed log, never beyond BODY_LIMIT. */
export function fitBody(head: string, ctx: PublishContext, extras: BodyExtras): string {
  const boundedHead = head.length > BODY_LIMIT / 2 ? `${head.slice(0, BODY_LIMIT / 2)}\n\n… (cut)` : head
  const body = `${boundedHead}\n\n${attemptLog(ctx, extras, BODY_LIMIT - boundedHead.length - LOG_WRAPPER)}`
  return body.length > BODY_LIMIT ? body.slice(0, BODY_LIMIT) : body
}

const MAX_LISTED_FILES = 100

/** A dependency upgrade: what loopgate bumped, and what the agent had to change beyond it. */
function upgradeSection(ctx: PublishContext, upgrade: NonNullable<PublishContext['upgrade']>): string {
  const verified = ctx.outcome.stopReason === 'verified'
  const bump = `Bumps ${codeSpan(upgrade.name)} from ${codeSpan(upgrade.from)} to ${codeSpan(upgrade.to)} (a ${upgrade.kind} upgrade). loopgate made the bump itself with the package manager, before any agent call: commit \`${upgrade.bumpCommit}\` (${upgrade.bumpFiles.map((f) => codeSpan(f)).join(', ')}).`
  const files = upgrade.changedAfterBump
  const changed =
    files.length === 0
      ? ctx.outcome.iterations.length === 0
        ? '**Changes beyond the manifest and lockfile:** none. The bump alone passes the gate, so no agent was called.'
        : '**Changes beyond the manifest and lockfile:** none.'
      : [
          `**${verified ? 'What the agent had to change' : 'What the agent changed'} beyond the manifest and lockfile** (${files.length} file(s)):`,
          ...files.slice(0, MAX_LISTED_FILES).map((f) => `- ${codeSpan(f)}`),
          ...(files.length > MAX_LISTED_FILES ? [`- … and ${files.length - MAX_LISTED_FILES} more`] : [])
        ].join('\n')
  return `### Dependency upgrade\n\n${bump}\n\n${changed}`
}

/** The task is shown as text: it may have come from an event (an issue or a comment someone wrote). */
function quoteTask(ctx: PublishContext): string {
  if (ctx.upgrade) return upgradeSection(ctx, ctx.upgrade)
  return `**Task** (${codeSpan(ctx.settings.promptSource)}):\n\n${codeBlock(ctx.settings.prompt.trim().slice(0, 4000), 'text')}`
}

function gateEvidence(ctx: PublishContext): string {
  const v = ctx.outcome.lastVerdict
  if (!v) return ''
  const counts = v.testsRun !== undefined ? `, ${v.testsRun} test(s) run${v.skipped ? `, ${v.skipped} skipped` : ''}` : ''
  const tail = v.outputTail.trim()
  const output = tail ? `\n\n<details><summary>Gate output (end)</summary>\n\n${outputTailBlock(tail)}\n</details>` : ''
  return `### Gate evidence\n\n${codeSpan(ctx.settings.gateCommand)} ${v.passed ? 'passed' : 'failed'} (${codeSpan(v.reason)}${counts}) in ${(v.durationMs / 1000).toFixed(1)} s, in a clean checkout with the protected tests from the base.${output}`
}

function logLine(ctx: PublishContext, extras: BodyExtras): string {
  return `Attempt log: ${extras.logUrl ? `[workflow artifact](${extras.logUrl})` : fullLogPointer(ctx, extras)}.`
}

const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]{0,213}$/
const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]{1,80})?$/

export function pullRequestTitle(ctx: PublishContext): string {
  if (ctx.upgrade) {
    // The title reviewers and tools know; anything but a package name and versions is made inert.
    const { name, from, to } = ctx.upgrade
    const title = `chore(deps): bump ${name} from ${from} to ${to}`
    return NPM_NAME.test(name) && VERSION.test(from) && VERSION.test(to) ? title : plainLine(title, 200)
  }
  const first = plainLine(ctx.settings.prompt.trim().split('\n')[0].replace(/^#+\s*/, ''), 80)
  return `loopgate(${ctx.settings.loopId}): ${first || 'verified change'}`
}

export function escalationTitle(ctx: PublishContext, extras: BodyExtras = {}): string {
  return `loopgate(${ctx.settings.loopId}) needs a person: ${extras.refusal ? 'publishing refused' : ctx.outcome.stopReason}`
}

function refusalText(refusal: NonNullable<BodyExtras['refusal']>): string {
  return (
    `**Publishing refused.** The verified commit \`${refusal.commit}\` does not descend from \`${refusal.startHead}\`, the head of ${codeSpan(refusal.branch)} when the run began: ` +
    `pushing it would rewrite the pull request's history and drop its authors' commits. Nothing was pushed. Read the change before doing anything with it.`
  )
}

/** Where the unfinished work is, said truthfully: on the WIP branch, only in the run's commits, or nowhere. */
export function unfinishedWork(ctx: PublishContext, extras: BodyExtras): string {
  const { outcome } = ctx
  if (extras.wipBranch) {
    return `**Unfinished work** is on the branch \`${extras.wipBranch}\` (commit \`${outcome.headCommit}\`): resume from it instead of restarting.`
  }
  if (outcome.headCommit === outcome.startCommit) return '**Unfinished work:** none (no commit was made beyond the start).'
  const commits = outcome.iterations.filter((r) => r.commit).length
  const made = `${commits} iteration commit(s), the last \`${outcome.headCommit}\` (started from \`${outcome.startCommit}\`)`
  return `**Unfinished work:** ${made}; not pushed to any branch: ${extras.wipNote ?? 'no push was made'}.`
}

export function pullRequestBody(ctx: PublishContext, extras: BodyExtras = {}): string {
  const { settings, outcome } = ctx
  const head = [
    marker(settings.loopId),
    `## loopgate: verified`,
    quoteTask(ctx),
    `**Outcome:** the protected gate (${codeSpan(settings.gateCommand)}) passed on commit \`${outcome.verifiedCommit}\` after ${outcome.iterations.length} iteration(s). The agent claimed done ${outcome.claimedDone} time(s); the gate agreed ${outcome.gateAgreed} time(s).`,
    `**Spend:** ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling.`,
    '### Iterations',
    iterationsTable(outcome.iterations),
    spendChart(outcome, settings.spendCeilingUsd),
    gateEvidence(ctx),
    logLine(ctx, extras),
    extras.pushedWithWorkflowToken ? NO_CI_LINE : '',
    'A passing gate is only as trustworthy as the tests behind it: please read the change.'
  ]
    .filter(Boolean)
    .join('\n\n')
  return fitBody(head, ctx, extras)
}

export function escalationBody(ctx: PublishContext, extras: BodyExtras = {}): string {
  const { settings, outcome } = ctx
  const head = [
    marker(settings.loopId),
    extras.refusal ? '## loopgate needs a person: the verified work was not published' : `## loopgate needs a person: \`${outcome.stopReason}\``,
    extras.refusal ? refusalText(extras.refusal) : stopSection(outcome.stopReason),
    quoteTask(ctx),
    `**Spend:** ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling over ${outcome.iterations.length} iteration(s).`,
    extras.history ? `**Spend so far across runs of this loop:** ${usd(extras.history.spentUsd + outcome.spentUsd)} over ${extras.history.runs + 1} run(s) (this one included).` : '',
    extras.refusal ? '' : unfinishedWork(ctx, extras),
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
  const what = extras.refusal
    ? `verified \`${outcome.verifiedCommit}\` but did not publish it`
    : outcome.stopReason === 'verified'
      ? `verified \`${outcome.verifiedCommit}\`${extras.branch ? ` and pushed it to \`${extras.branch}\`` : ''}`
      : `stopped: \`${outcome.stopReason}\``
  const head = [
    marker(settings.loopId),
    `loopgate${runLink ? ` ([workflow run](${runLink}))` : ''} ${what} after ${outcome.iterations.length} iteration(s), spending ${usd(outcome.spentUsd)} of ${usd(settings.spendCeilingUsd)}.`,
    extras.refusal ? refusalText(extras.refusal) : outcome.stopReason === 'verified' ? '' : stopSection(outcome.stopReason),
    outcome.stopReason !== 'verified' ? unfinishedWork(ctx, extras) : '',
    iterationsTable(outcome.iterations),
    failingTestsSection(outcome),
    logLine(ctx, extras)
  ]
    .filter(Boolean)
    .join('\n\n')
  return fitBody(head, ctx, extras)
}

/** Rows shown in the progress comment: the newest ones. */
const PROGRESS_ROWS = 50

/** The progress comment while a run works on a pull request, updated after each iteration. */
export function progressBody(settings: Settings, iterations: IterationRecord[], runLink?: string): string {
  const spent = iterations.at(-1)?.spentUsd ?? 0
  const shown = iterations.slice(-PROGRESS_ROWS)
  return [
    marker(settings.loopId),
    `loopgate${runLink ? ` ([workflow run](${runLink}))` : ''} is working on this pull request: ${iterations.length} of at most ${settings.maxIterations} iteration(s), ${usd(spent)} of ${usd(settings.spendCeilingUsd)} spent.`,
    shown.length < iterations.length ? `_The last ${shown.length} iterations:_` : '',
    iterationsTable(shown),
    '_This comment is updated as the run goes and ends with its outcome._'
  ]
    .filter(Boolean)
    .join('\n\n')
}

/** The comment that closes the loop's escalation issue once a later run verified. */
export function closingComment(loopId: string, verified: { pullRequestUrl?: string; branch?: string; commit: string | null }, runLink?: string): string {
  const where = verified.pullRequestUrl ? `pull request ${verified.pullRequestUrl}` : verified.branch ? `the branch \`${verified.branch}\`` : 'no branch (on-success is none)'
  return [
    marker(loopId),
    `A later run of this loop${runLink ? ` ([workflow run](${runLink}))` : ''} passed the protected gate${verified.commit ? ` on commit \`${verified.commit}\`` : ''}: the work is in ${where}. Closing this escalation; reopen it if the problem is not solved.`
  ].join('\n\n')
}
