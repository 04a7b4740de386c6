import { codeBlock, codeSpan } from '../report/inert.js'
import type { IterationRecord } from '../loop/engine-types.js'
import type { AttemptChanges } from './attempt-details.js'
import type { ChangeSummary } from './changes.js'
import type { PublishContext } from './publisher-types.js'
import type { LoopHistory } from '../state/schema.js'

/* What every body loopgate publishes shares: the loop's marker, the size limit, the extras the
 * publisher learned, the attempt log line, the task, the unfinished work and the newest rows. */

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
  /** The files each of the newest attempts changed (see attempt-details.ts). */
  attemptChanges?: AttemptChanges
  /** The repository's web address, for compare links to pushed work. */
  repoUrl?: string
}

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
export function logLine(ctx: PublishContext, extras: BodyExtras): string {
  const url = extras.logUrl
  if (url && /\/artifacts\/\d+$/.test(url))
    return `**Attempt log:** [the run's artifact](${url}) (\`attempts.jsonl\`, one JSON line per event, with the progress notes).`
  if (url) return `**Attempt log:** in the artifacts of [the workflow run](${url}).`
  return `**Attempt log:** ${codeSpan(ctx.logFile)}.`
}

export const MAX_LISTED_FILES = 100

/** A dependency upgrade: what loopgate bumped, and what the agent had to change beyond it. */
export function upgradeSection(ctx: PublishContext, upgrade: NonNullable<PublishContext['upgrade']>): string {
  const verified = ctx.outcome.stopReason === 'verified'
  const bump = `Bumps ${codeSpan(upgrade.name)} from ${codeSpan(upgrade.from)} to ${codeSpan(upgrade.to)} (a ${upgrade.kind} upgrade). loopgate made the bump itself with the package manager, before any agent call: commit \`${upgrade.bumpCommit}\` (${upgrade.bumpFiles.map((f) => codeSpan(f)).join(', ')}).`
  const files = upgrade.changedAfterBump
  const count = (n: number | null): string => (n === null ? 'binary' : String(n))
  const changed =
    files.length === 0
      ? ctx.outcome.iterations.length === 0
        ? '**Changes beyond the bump:** none. The bump alone passes the gate, so no agent was called.'
        : '**Changes beyond the bump:** none.'
      : [
          `**${verified ? 'What the agent had to change' : 'What the agent changed'} beyond the bump** (${files.length} file(s)):`,
          ...files.slice(0, MAX_LISTED_FILES).map((f) => `- ${codeSpan(f.path)} +${count(f.insertions)}/−${count(f.deletions)}`),
          ...(files.length > MAX_LISTED_FILES ? [`- … and ${files.length - MAX_LISTED_FILES} more`] : [])
        ].join('\n')
  const flaky = upgrade.flakyOnBump ?? []
  const flakyNote = flaky.length
    ? `\n\n**Flaky on the bump:** ${flaky
        .slice(0, 20)
        .map((id) => codeSpan(id, { max: 300 }))
        .join(
          ', '
        )}${flaky.length > 20 ? ` and ${flaky.length - 20} more` : ''}: each failed on the bumped tree, then passed when the gate ran again on the same commit. Not the upgrade's failure and never the agent's task.`
    : ''
  return `${bump}\n\n${changed}${flakyNote}`
}

/** The task is shown as text: it may have come from an event (an issue or a comment someone wrote). */
export function quoteTask(ctx: PublishContext): string {
  if (ctx.upgrade) return `### Dependency upgrade\n\n${upgradeSection(ctx, ctx.upgrade)}`
  return `**Task** (${codeSpan(ctx.settings.promptSource)}):\n\n${codeBlock(ctx.settings.prompt.trim().slice(0, 4000), 'text')}`
}

/** Iteration rows a body shows: the newest ones. */
const BODY_ROWS = 50

export function newestRows(iterations: IterationRecord[]): { rows: IterationRecord[]; note: string } {
  const rows = iterations.slice(-BODY_ROWS)
  return { rows, note: rows.length < iterations.length ? `_The last ${rows.length} of ${iterations.length} iterations:_` : '' }
}

export function refusalText(refusal: NonNullable<BodyExtras['refusal']>): string {
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
  if (outcome.headCommit === outcome.startCommit) {
    if (ctx.upgrade) return `**Unfinished work:** only loopgate's bump commit \`${ctx.upgrade.bumpCommit}\`; no attempt of the agent's was kept on top of it.`
    return '**Unfinished work:** none (no commit was made beyond the start).'
  }
  const commits = outcome.iterations.filter((r) => r.commit).length
  const made = `${commits} iteration commit(s), the last \`${outcome.headCommit}\` (started from \`${outcome.startCommit}\`)`
  return `**Unfinished work:** ${made}; not pushed to any branch: ${extras.wipNote ?? 'no push was made'}.`
}
