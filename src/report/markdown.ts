import { usd } from '../format.js'
import { readFileSync } from 'node:fs'
import type { IterationRecord, RunOutcome } from '../loop/engine-types.js'
import { stopReasonEntry, type StopReason } from '../loop/stop-reasons.js'
import { codeBlock, codeSpan } from './inert.js'

/** Agent-controlled text inside a table cell. */
function agentCell(text: string, max = 300): string {
  return codeSpan(text, { inTable: true, max })
}

function gateCell(record: IterationRecord): string {
  const g = record.gate
  if (!g) return '—'
  const base = g.passed ? '✅ passed' : `❌ ${agentCell(g.reason)}${g.fingerprint ? ` ${agentCell(g.fingerprint)}` : ''}`
  return record.gateRan ? base : `${base} (unchanged)`
}

export function iterationsTable(iterations: IterationRecord[]): string {
  if (iterations.length === 0) return '_No agent call was made._'
  const rows = iterations.map((r) =>
    [
      String(r.iteration),
      r.agent.status === 'claimed-done' ? 'claimed done' : `${r.agent.status}: ${agentCell(r.agent.reason)}`,
      `${usd(r.chargedUsd)} (${r.agent.costSource})`,
      String(r.agent.turns),
      r.changedFiles.length === 0 ? 'none' : `${r.changedFiles.length} (+${r.stat.insertions}/−${r.stat.deletions})`,
      gateCell(r),
      r.rejected.map((item) => agentCell(item)).join('; '),
      usd(r.spentUsd),
      agentCell(r.decision, 80)
    ].join(' | ')
  )
  return [
    '| # | agent | cost | turns | files | gate | rejected | spent | decision |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`)
  ].join('\n')
}

/** The iterations in few columns, for a pull request body: what each call did and what the gate said. */
export function compactIterationsTable(iterations: IterationRecord[]): string {
  if (iterations.length === 0) return '_No agent call was made._'
  const rows = iterations.map((r) =>
    [
      String(r.iteration),
      r.agent.status === 'claimed-done' ? 'claimed done' : `${r.agent.status}: ${agentCell(r.agent.reason, 80)}`,
      r.changedFiles.length === 0 ? 'none' : `${r.changedFiles.length} (+${r.stat.insertions}/−${r.stat.deletions})`,
      gateCell(r),
      usd(r.chargedUsd)
    ].join(' | ')
  )
  return ['| # | agent | files | gate | cost |', '|---|---|---|---|---|', ...rows.map((r) => `| ${r} |`)].join('\n')
}

export function stopSection(reason: StopReason): string {
  const e = stopReasonEntry(reason)
  return `**Stop reason: \`${reason}\`.** ${e.what}\n\n**What you can do:** ${e.action}`
}

/** How much of the gate's output a body shows when no failing test was parsed from it. */
const OUTPUT_TAIL_LINES = 40
const OUTPUT_TAIL_CHARS = 3000

/** The end of the gate's output (escape codes stripped by the code block), at most a few lines. */
export function outputTailBlock(output: string): string {
  const lines = output.replace(/\s+$/, '').split('\n').slice(-OUTPUT_TAIL_LINES).join('\n')
  return codeBlock(lines.length > OUTPUT_TAIL_CHARS ? lines.slice(-OUTPUT_TAIL_CHARS) : lines)
}

/** A one-line message inline; a longer one (an assertion's diff) as a code block inside the list item. */
function failureMessage(message: string): string {
  const text = message.replace(/\s+$/, '')
  if (!text) return ''
  if (!text.includes('\n')) return ` — ${codeSpan(text, { max: 1000 })}`
  const lines = text.split('\n').slice(0, 20).join('\n').slice(0, 2000)
  return `\n\n${codeBlock(lines).replace(/^/gm, '  ')}\n`
}

export function failingTestsSection(outcome: RunOutcome): string {
  const v = outcome.lastVerdict
  if (!v || v.passed) return ''
  const lines = v.failures.slice(0, 50).map((f) => `- ${codeSpan(f.id, { max: 300 })}${failureMessage(f.message)}`)
  if (v.failures.length > 50) lines.push(`- … and ${v.failures.length - 50} more`)
  const parts = [
    `### Last gate failure${v.fingerprint ? ` ${codeSpan(v.fingerprint)}` : ''}`,
    `${codeSpan(v.reason)}${v.failures.length ? `, ${v.failures.length} failing test(s):` : ''}`,
    ...lines
  ]
  if (v.failures.length === 0 && v.outputTail.trim()) parts.push('', 'No failing test was parsed from the output; its end:', '', outputTailBlock(v.outputTail))
  return parts.join('\n')
}

/** A mermaid chart of the cumulative spend per iteration against the run's ceiling. */
export function spendChart(outcome: RunOutcome, ceilingUsd: number): string {
  if (outcome.iterations.length === 0) return ''
  const xs = outcome.iterations.map((r) => String(r.iteration))
  const spent = outcome.iterations.map((r) => r.spentUsd.toFixed(2))
  const top = Math.max(ceilingUsd, ...outcome.iterations.map((r) => r.spentUsd))
  return [
    '```mermaid',
    'xychart-beta',
    `  title "Cumulative spend (USD) against the ${usd(ceilingUsd)} ceiling"`,
    `  x-axis "iteration" [${xs.join(', ')}]`,
    `  y-axis "USD" 0 --> ${Number(top.toFixed(2))}`,
    `  bar [${spent.join(', ')}]`,
    `  line [${xs.map(() => ceilingUsd.toFixed(2)).join(', ')}]`,
    '```'
  ].join('\n')
}

/** The note that says why a run was skipped before any work (`skipped: …`), if it was. */
export function skipNote(notes: readonly string[]): string | undefined {
  return notes.find((n) => n.startsWith('skipped: '))
}

/**
 * The summary of a run that stopped before the loop (a skip, review capacity, a refused event). A
 * skip leads with why it was skipped, never with words that read as a passing gate.
 */
export function preLoopSummary(reason: StopReason, loopId: string, notes: string[]): string {
  const skip = skipNote(notes)
  const facts = `Loop \`${loopId}\` · no agent call was made · nothing was spent.`
  if (skip) {
    const rest = notes.filter((n) => n !== skip)
    return [`## loopgate: skipped`, `**Skipped:** ${skip.slice('skipped: '.length)}`, `Stop reason \`${reason}\` · ${facts}`, ...rest].join('\n\n')
  }
  return [`## loopgate: ${reason}`, stopSection(reason), facts, ...notes].filter((s) => s !== '').join('\n\n')
}

interface SummaryContext {
  loopId: string
  spendCeilingUsd: number
  logFile: string
  logUrl?: string
  notes?: string[]
}

/** The step summary's limit is 1 MiB; the log gets a bounded share of it. */
const SUMMARY_LOG_LIMIT = 256 * 1024

/** The attempt log, collapsed, so it stays readable in the summary even when publishing failed. */
function summaryLog(logFile: string): string {
  let text: string
  try {
    text = readFileSync(logFile, 'utf8')
  } catch {
    return ''
  }
  if (text.trim() === '') return ''
  const cut = text.length > SUMMARY_LOG_LIMIT
  const shown = cut ? text.slice(-SUMMARY_LOG_LIMIT) : text
  return `<details><summary>Attempt log${cut ? ' (the end; the whole log is in the artifact)' : ''}</summary>\n\n${codeBlock(shown, 'json')}\n</details>`
}

/** The attempt log by its artifact URL (or the workflow run's) when there is one; a runner path only without. */
function attemptLogLink(ctx: SummaryContext): string {
  if (!ctx.logUrl) return `Attempt log: \`${ctx.logFile}\``
  return /\/artifacts\/\d+$/.test(ctx.logUrl)
    ? `Attempt log: [the run's artifact](${ctx.logUrl})`
    : `Attempt log: in the artifacts of [the workflow run](${ctx.logUrl})`
}

export function runSummary(outcome: RunOutcome, ctx: SummaryContext): string {
  return [
    `## loopgate: ${outcome.stopReason}`,
    stopSection(outcome.stopReason),
    `Loop \`${ctx.loopId}\` · ${outcome.iterations.length} iteration(s) · spent ${usd(outcome.spentUsd)} of ${usd(ctx.spendCeilingUsd)} · the agent claimed done ${outcome.claimedDone} time(s), the gate agreed ${outcome.gateAgreed} time(s).`,
    ...(ctx.notes ?? []).map((n) => `> ${n}`),
    iterationsTable(outcome.iterations),
    spendChart(outcome, ctx.spendCeilingUsd),
    failingTestsSection(outcome),
    attemptLogLink(ctx),
    summaryLog(ctx.logFile)
  ]
    .filter((s) => s !== '')
    .join('\n\n')
}
