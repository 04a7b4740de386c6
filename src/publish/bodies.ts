import { readFileSync } from 'node:fs'
import { needsEscalation } from '../loop/stop-reasons.js'
import { failingTestsSection, iterationsTable, stopSection } from '../report/markdown.js'
import type { PublishContext } from './types.js'

const usd = (n: number): string => `$${n.toFixed(2)}`
export const BODY_LIMIT = 65536

function attemptLog(ctx: PublishContext, budget: number): string {
  let log = ''
  try {
    log = readFileSync(ctx.logFile, 'utf8')
  } catch {
    return ''
  }
  const cut = log.length > budget
  const text = cut ? `${log.slice(0, Math.max(0, budget))}\n… (cut; the full log is in the workflow artifact)` : log
  return `<details><summary>Attempt log (JSON Lines)</summary>\n\n\`\`\`json\n${text.replace(/```/g, '`\u200b``')}\n\`\`\`\n</details>`
}

function withLog(head: string, ctx: PublishContext): string {
  const room = BODY_LIMIT - head.length - 400
  return `${head}\n\n${attemptLog(ctx, room)}`
}

export function marker(loopId: string): string {
  return `<!-- loopgate:loop-id=${loopId} -->`
}

export function pullRequestBody(ctx: PublishContext): string {
  const { settings, outcome } = ctx
  const head = [
    marker(settings.loopId),
    `## loopgate: verified`,
    `**Task** (${settings.promptSource}):\n\n> ${settings.prompt.trim().slice(0, 4000).replace(/\n/g, '\n> ')}`,
    `The protected gate (\`${settings.gateCommand}\`) passed on commit \`${outcome.verifiedCommit}\` after ${outcome.iterations.length} iteration(s). Spent ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling.`,
    '### Iterations',
    iterationsTable(outcome.iterations),
    'A passing gate is only as trustworthy as the tests behind it: please read the change.'
  ].join('\n\n')
  return withLog(head, ctx)
}

export function escalationBody(ctx: PublishContext): string {
  const { settings, outcome } = ctx
  const head = [
    marker(settings.loopId),
    `## loopgate needs a person: ${outcome.stopReason}`,
    stopSection(outcome.stopReason),
    `**Task** (${settings.promptSource}):\n\n> ${settings.prompt.trim().slice(0, 4000).replace(/\n/g, '\n> ')}`,
    `Spent ${usd(outcome.spentUsd)} of the ${usd(settings.spendCeilingUsd)} ceiling over ${outcome.iterations.length} iteration(s).`,
    '### Attempts',
    iterationsTable(outcome.iterations),
    failingTestsSection(outcome)
  ]
    .filter(Boolean)
    .join('\n\n')
  return withLog(head, ctx)
}

export function wantsEscalation(ctx: PublishContext): boolean {
  return needsEscalation(ctx.outcome.stopReason)
}
