import { usd } from '../format.js'
import { compactIterationsTable, outputTailBlock } from '../report/markdown.js'
import type { IterationRecord } from '../loop/engine-types.js'
import { fitBody, logLine, marker, MAX_LISTED_FILES, newestRows, quoteTask, upgradeSection, type BodyExtras } from './body-parts.js'
import type { ChangeSummary } from './changes.js'
import { flakySection } from './flaky-section.js'
import { networkSection } from './network-section.js'
import { codeBlock, codeSpan, plainLine } from '../report/inert.js'
import { agentSummary, cleanTitle } from './title.js'
import type { PublishContext } from './publisher-types.js'

/** One line for a pull request GitHub runs no workflows on (pushed with GITHUB_TOKEN). */
export const NO_CI_LINE =
  "**CI:** pushed with the workflow's `GITHUB_TOKEN`, so GitHub starts no workflows for this pull request; close and reopen it to run them, or give loopgate a GitHub App token (`github-token`)."

const count = (n: number | null): string => (n === null ? 'binary' : String(n))

/** The files the change touches with their +/−, as loopgate's git counts them. */
export function filesTable(changes: ChangeSummary | null | undefined): string {
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

/**
 * What loopgate refused on the way to the verified change (tampering with protected paths, a
 * features file edited beyond flips, refused dependency changes), by iteration: a reviewer should
 * know the agent tried to switch the tests off, even though it was undone.
 */
function rejectedSection(iterations: IterationRecord[]): string {
  const lines = iterations.flatMap((r) => r.rejected.map((item) => `- iteration ${r.iteration}: ${codeSpan(item, { max: 600 })}`))
  if (lines.length === 0) return ''
  const shown = lines.slice(0, MAX_LISTED_FILES)
  if (lines.length > shown.length) shown.push(`- … and ${lines.length - shown.length} more (the attempt log has them all)`)
  return ['### What loopgate rejected on the way', 'Each was undone before the gate ran; the verified change does not contain it.', shown.join('\n')].join(
    '\n\n'
  )
}

const EXIT_CODE_CAVEAT =
  '**Weaker check:** this gate was judged by its exit code alone (`gate-report: exit-code`): loopgate read no test count and checked no test id, so a change that skips, removes or never reaches tests would pass it too.'

/** The gate command, what it ran, and the base its protected tests came from. */
function verification(ctx: PublishContext): string {
  const { settings, outcome } = ctx
  const v = outcome.lastVerdict
  const base = ctx.protectedBase ? ` from the base \`${ctx.protectedBase.sha.slice(0, 12)}\` (${codeSpan(ctx.protectedBase.source)})` : ' from the base'
  const counts = v?.testsRun !== undefined ? `, ${v.testsRun} test(s) run${v.skipped ? `, ${v.skipped} skipped` : ''}` : ''
  const result = v ? `${v.passed ? 'passed' : 'failed'} (${codeSpan(v.reason)}${counts}) in ${(v.durationMs / 1000).toFixed(1)} s` : 'passed'
  const tail = v?.outputTail.trim()
  const output = tail ? `\n\n<details><summary>Gate output (end)</summary>\n\n${outputTailBlock(tail)}\n</details>` : ''
  const exitCodeOnly = v?.exitCodeOnly ? `\n\n${EXIT_CODE_CAVEAT}` : ''
  return [
    '### Verification',
    `The protected gate ${codeSpan(settings.gateCommand)} ${result} on commit \`${outcome.verifiedCommit}\`, in a clean checkout with the protected tests${base}. The agent claimed done ${outcome.claimedDone} time(s); the gate agreed ${outcome.gateAgreed} time(s).${exitCodeOnly}${output}`
  ].join('\n\n')
}

const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]{0,213}$/
const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]{1,80})?$/

/**
 * The pull request's title names the change: the agent's `Summary:` line, else the task's first
 * line, cleaned of mentions, keywords, references, markers and markup. A dependency upgrade keeps
 * the title reviewers and tools know, marked `(major)` when the bump is a breaking one.
 */
export function pullRequestTitle(ctx: PublishContext): string {
  if (ctx.upgrade) {
    // Anything but a package name and versions is made inert.
    const { name, from, to, kind } = ctx.upgrade
    // A breaking bump says so where reviewers look first.
    const title = `chore(deps): bump ${name} from ${from} to ${to}${kind === 'major' ? ' (major)' : ''}`
    return NPM_NAME.test(name) && VERSION.test(from) && VERSION.test(to) ? title : plainLine(title, 200)
  }
  const summary = agentSummary(ctx.outcome.iterations)
  const fromSummary = summary ? cleanTitle(summary) : ''
  if (fromSummary) return fromSummary
  const task = cleanTitle(ctx.settings.prompt.trim().split('\n')[0] ?? '')
  return task || `Verified change (loop ${cleanTitle(ctx.settings.loopId, 40)})`
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
      rejectedSection(outcome.iterations),
      flakySection(outcome.iterations),
      networkSection(ctx.networkRefusals),
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
