import { usd } from '../format.js'
import { compactIterationsTable, failingTestsSection, iterationsTable, outputTailBlock, stopSection } from '../report/markdown.js'
import type { IterationRecord } from '../loop/types.js'
import type { ChangeSummary } from './changes.js'
import { codeBlock, codeSpan, plainLine } from './inert.js'
import { agentSummary, cleanTitle } from './title.js'
import type { PublishContext, PublisherSettings } from './types.js'

/** GitHub refuses a PR / issue / comment body longer than this. */
export const BODY_LIMIT = 65536
/** Room kept for the cut note. */
const CUT_NOTE_ROOM = 200

/** What the publisher learned while publishing, for the bodies. */
export interface BodyExtras {
  /** The attempt log artifact (or the workflow run page). */
  logUrl?: string
  /** The files the published change touches, from loopgate's own git (null: git could not tell). */
  changes?: ChangeSummary | null
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

/**
 * A body never beyond BODY_LIMIT: a longer one is cut at a line, with a note. Nothing agent-written
 * turns active by the cut (it is inert text, in spans and fences, wherever it is cut).
 */
export function fitBody(body: string): string {
  if (body.length <= BODY_LIMIT) return body
  const room = BODY_LIMIT - CUT_NOTE_ROOM
  const at = body.lastIndexOf('\n', room)
  return `${body.slice(0, at > 0 ? at : room)}\n\n… (cut to fit GitHub's body limit; the attempt log has everything)`
}

/** Where the attempt log is: the run's artifact by URL, the workflow run, or (a local run) its file. */
function logLine(ctx: PublishContext, extras: BodyExtras): string {
  const url = extras.logUrl
  if (url && /\/artifacts\/\d+$/.test(url))
    return `**Attempt log:** [the run's artifact](${url}) (\`attempts.jsonl\`, one JSON line per event, with the progress notes).`
  if (url) return `**Attempt log:** in the artifacts of [the workflow run](${url}).`
  return `**Attempt log:** ${codeSpan(ctx.logFile)}.`
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
  return `${bump}\n\n${changed}`
}

/** The task is shown as text: it may have come from an event (an issue or a comment someone wrote). */
function quoteTask(ctx: PublishContext): string {
  if (ctx.upgrade) return `### Dependency upgrade\n\n${upgradeSection(ctx, ctx.upgrade)}`
  return `**Task** (${codeSpan(ctx.settings.promptSource)}):\n\n${codeBlock(ctx.settings.prompt.trim().slice(0, 4000), 'text')}`
}

const count = (n: number | null): string => (n === null ? 'binary' : String(n))

/** The files the change touches with their +/−, as loopgate's git counts them. */
function filesTable(changes: ChangeSummary | null | undefined): string {
  if (changes === undefined) return ''
  if (changes === null) return "_The changed files could not be listed; see the pull request's files._"
  const { files } = changes
  if (files.length === 0) return '_No file changed._'
  const plus = files.reduce((n, f) => n + (f.insertions ?? 0), 0)
  const minus = files.reduce((n, f) => n + (f.deletions ?? 0), 0)
  const rows = files
    .slice(0, MAX_LISTED_FILES)
    .map((f) => `| ${codeSpan(f.path, { inTable: true, max: 200 })} | ${count(f.insertions)} | ${count(f.deletions)} |`)
  if (files.length > MAX_LISTED_FILES) rows.push(`| … and ${files.length - MAX_LISTED_FILES} more | | |`)
  return [
    `${files.length} file(s), +${plus}/−${minus}, from \`${changes.from.slice(0, 12)}\` to \`${changes.to.slice(0, 12)}\`:`,
    '',
    '| file | + | − |',
    '|---|--:|--:|',
    ...rows
  ].join('\n')
}

/** How much of the agent's final message a body quotes. */
const CLAIM_LINES = 25
const CLAIM_CHARS = 2000

/** The agent's final message (the newest one it gave), quoted as its claim: a fenced block in a block quote. */
function agentClaim(iterations: IterationRecord[]): string {
  const text = [...iterations]
    .reverse()
    .find((r) => (r.agent.finalText ?? '').trim())
    ?.agent.finalText?.trim()
  if (!text) return "**The agent's summary:** it gave none."
  let quoted = text.split(/\r?\n/).slice(0, CLAIM_LINES).join('\n')
  if (quoted.length > CLAIM_CHARS) quoted = quoted.slice(0, CLAIM_CHARS)
  if (quoted.length < text.length) quoted += '\n… (cut)'
  return `**The agent's summary**, in its own words: its claim, which loopgate does not check (the gate below is what was verified).\n\n${codeBlock(quoted, 'text').replace(/^/gm, '> ')}`
}

function whatChanged(ctx: PublishContext, extras: BodyExtras): string {
  return [
    '### What changed',
    ctx.upgrade ? upgradeSection(ctx, ctx.upgrade) : '',
    filesTable(extras.changes),
    ctx.upgrade && ctx.outcome.iterations.length === 0 ? '' : agentClaim(ctx.outcome.iterations)
  ]
    .filter(Boolean)
    .join('\n\n')
}

/** The gate command, what it ran, and the base its protected tests came from. */
function verification(ctx: PublishContext): string {
  const { settings, outcome } = ctx
  const v = outcome.lastVerdict
  const base = ctx.protectedBase ? ` from the base \`${ctx.protectedBase.sha.slice(0, 12)}\` (${codeSpan(ctx.protectedBase.source)})` : ' from the base'
  const counts = v?.testsRun !== undefined ? `, ${v.testsRun} test(s) run${v.skipped ? `, ${v.skipped} skipped` : ''}` : ''
  const result = v ? `${v.passed ? 'passed' : 'failed'} (${codeSpan(v.reason)}${counts}) in ${(v.durationMs / 1000).toFixed(1)} s` : 'passed'
  const tail = v?.outputTail.trim()
  const output = tail ? `\n\n<details><summary>Gate output (end)</summary>\n\n${outputTailBlock(tail)}\n</details>` : ''
  return [
    '### Verification',
    `The protected gate ${codeSpan(settings.gateCommand)} ${result} on commit \`${outcome.verifiedCommit}\`, in a clean checkout with the protected tests${base}. The agent claimed done ${outcome.claimedDone} time(s); the gate agreed ${outcome.gateAgreed} time(s).${output}`
  ].join('\n\n')
}

/** Iteration rows a body shows: the newest ones. */
const BODY_ROWS = 50

function newestRows(iterations: IterationRecord[]): { rows: IterationRecord[]; note: string } {
  const rows = iterations.slice(-BODY_ROWS)
  return { rows, note: rows.length < iterations.length ? `_The last ${rows.length} of ${iterations.length} iterations:_` : '' }
}

const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]{0,213}$/
const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]{1,80})?$/

/**
 * The pull request's title names the change: the agent's `Summary:` line, else the task's first
 * line, cleaned of mentions, keywords, references, markers and markup. A dependency upgrade keeps
 * the title reviewers and tools know.
 */
export function pullRequestTitle(ctx: PublishContext): string {
  if (ctx.upgrade) {
    // Anything but a package name and versions is made inert.
    const { name, from, to } = ctx.upgrade
    const title = `chore(deps): bump ${name} from ${from} to ${to}`
    return NPM_NAME.test(name) && VERSION.test(from) && VERSION.test(to) ? title : plainLine(title, 200)
  }
  const summary = agentSummary(ctx.outcome.iterations)
  const fromSummary = summary ? cleanTitle(summary) : ''
  if (fromSummary) return fromSummary
  const task = cleanTitle(ctx.settings.prompt.trim().split('\n')[0] ?? '')
  return task || `Verified change (loop ${cleanTitle(ctx.settings.loopId, 40)})`
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

/**
 * The verified pull request: what changed (files, the agent's claim), the verification, the spend
 * and the iterations, the attempt log by link.
 */
export function pullRequestBody(ctx: PublishContext, extras: BodyExtras = {}): string {
  const { settings, outcome } = ctx
  const { rows, note } = newestRows(outcome.iterations)
  return fitBody(
    [
      marker(settings.loopId),
      `## loopgate: verified`,
      whatChanged(ctx, extras),
      ctx.upgrade ? '' : quoteTask(ctx),
      verification(ctx),
      '### Spend and iterations',
      `**Spend:** ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling over ${outcome.iterations.length} iteration(s).`,
      note,
      compactIterationsTable(rows),
      logLine(ctx, extras),
      extras.pushedWithWorkflowToken ? NO_CI_LINE : '',
      'A passing gate is only as trustworthy as the tests behind it: please read the change.'
    ]
      .filter(Boolean)
      .join('\n\n')
  )
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

/** A short comment for a run that updated an open PR / issue or worked on a PR branch. */
export function runComment(ctx: PublishContext, extras: BodyExtras, runLink?: string): string {
  const { settings, outcome } = ctx
  const { rows, note } = newestRows(outcome.iterations)
  const what = extras.refusal
    ? `verified \`${outcome.verifiedCommit}\` but did not publish it`
    : outcome.stopReason === 'verified'
      ? `verified \`${outcome.verifiedCommit}\`${extras.branch ? ` and pushed it to \`${extras.branch}\`` : ''}`
      : `stopped: \`${outcome.stopReason}\``
  return fitBody(
    [
      marker(settings.loopId),
      `loopgate${runLink ? ` ([workflow run](${runLink}))` : ''} ${what} after ${outcome.iterations.length} iteration(s), spending ${usd(outcome.spentUsd)} of ${usd(settings.spendCeilingUsd)}.`,
      extras.refusal ? refusalText(extras.refusal) : outcome.stopReason === 'verified' ? '' : stopSection(outcome.stopReason),
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

/** The progress comment while a run works on a pull request, updated after each iteration. */
export function progressBody(settings: PublisherSettings, iterations: IterationRecord[], runLink?: string): string {
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
