import { readFileSync } from 'node:fs'
import type { IterationRecord, RunOutcome } from '../loop/engine.js'
import { STOP_EXPLANATIONS, type StopReason } from '../loop/stop-reasons.js'

const usd = (n: number): string => `$${n.toFixed(2)}`

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function gateCell(record: IterationRecord): string {
  const g = record.gate
  if (!g) return '—'
  const base = g.passed ? '✅ passed' : `❌ ${g.reason}${g.fingerprint ? ` \`${g.fingerprint}\`` : ''}`
  return record.gateRan ? base : `${base} (unchanged)`
}

export function iterationsTable(iterations: IterationRecord[]): string {
  if (iterations.length === 0) return '_No agent call was made._'
  const rows = iterations.map((r) =>
    [
      String(r.iteration),
      cell(r.agent.status === 'claimed-done' ? 'claimed done' : `${r.agent.status}: ${r.agent.reason}`),
      `${usd(r.chargedUsd)} (${r.agent.costSource})`,
      String(r.agent.turns),
      r.changedFiles.length === 0 ? 'none' : `${r.changedFiles.length} (+${r.stat.insertions}/−${r.stat.deletions})`,
      cell(gateCell(r)),
      cell(r.rejected.length > 0 ? r.rejected.join('; ') : ''),
      usd(r.spentUsd),
      r.decision
    ].join(' | ')
  )
  return [
    '| # | agent | cost | turns | files | gate | rejected | spent | decision |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`)
  ].join('\n')
}

export function stopSection(reason: StopReason): string {
  const e = STOP_EXPLANATIONS[reason]
  return `**Stop reason: \`${reason}\`.** ${e.what}\n\n**What you can do:** ${e.action}`
}

export function failingTestsSection(outcome: RunOutcome): string {
  const v = outcome.lastVerdict
  if (!v || v.passed) return ''
  let room = 8000
  const lines = v.failures.slice(0, 50).map((f) => {
    const [first = '', ...rest] = f.message.trim().split('\n')
    const head = `- \`${cell(f.id)}\`${first ? ` — ${cell(first)}` : ''}`
    const more = rest.join('\n').replace(/^\n+/, '')
    if (!more || more.length > room) return head
    room -= more.length
    return `${head}\n\n${more.replace(/^/gm, '      ')}\n`
  })
  if (v.failures.length > 50) lines.push(`- … and ${v.failures.length - 50} more`)
  return [
    `### Last gate failure ${v.fingerprint ? `\`${v.fingerprint}\`` : ''}`,
    `${v.reason}${v.failures.length ? `, ${v.failures.length} failing test(s):` : ''}`,
    ...lines
  ].join('\n')
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

/** The summary of a run that stopped before the loop (a skip, review capacity, a refused event). */
export function preLoopSummary(reason: StopReason, loopId: string, notes: string[]): string {
  return [`## loopgate: ${reason}`, stopSection(reason), `Loop \`${loopId}\` · no agent call was made · nothing was spent.`, ...notes]
    .filter((s) => s !== '')
    .join('\n\n')
}

export interface SummaryContext {
  loopId: string
  spendCeilingUsd: number
  logFile: string
  logUrl?: string
  notes?: string[]
}

/** The step summary's limit is 1 MiB; the log gets a bounded share of it. */
const SUMMARY_LOG_LIMIT = 256 * 1024

/** The attempt log, collapsed, so it stays readable in the summary even when publishing failed. */
export function summaryLog(logFile: string): string {
  let text: string
  try {
    text = readFileSync(logFile, 'utf8')
  } catch {
    return ''
  }
  if (text.trim() === '') return ''
  const cut = text.length > SUMMARY_LOG_LIMIT
  const shown = (cut ? text.slice(-SUMMARY_LOG_LIMIT) : text).replace(/```/g, '`\u200b``')
  return `<details><summary>Attempt log${cut ? ' (the end; the whole log is in the artifact)' : ''}</summary>\n\n\`\`\`json\n${shown}\n\`\`\`\n</details>`
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
    ctx.logUrl ? `Attempt log: [workflow artifact](${ctx.logUrl}) · \`${ctx.logFile}\`` : `Attempt log: \`${ctx.logFile}\``,
    summaryLog(ctx.logFile)
  ]
    .filter((s) => s !== '')
    .join('\n\n')
}
