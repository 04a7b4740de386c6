import { usd } from '../format.js'
import type { IterationRecord } from '../loop/engine-types.js'
import type { FileChange } from './changes.js'
import type { GitRepository } from '../git/repository.js'
import { codeBlock, codeSpan } from '../report/inert.js'

/** The files each attempt changed, by iteration, from loopgate's own commits. */
export type AttemptChanges = Map<number, FileChange[]>

/** How many of the newest attempts an escalation details (the table lists them all). */
export const DETAILED_ATTEMPTS = 10
const FILES_PER_ATTEMPT = 20
const MESSAGE_LINES = 6
const MESSAGE_CHARS = 800

/**
 * What each of the newest attempts changed: the diff of its commit against the commit before it
 * (the previous attempt's, else the start), all read in one git process. An attempt without a
 * commit changed nothing kept; when git cannot tell, the attempts are described by their records.
 */
export async function attemptChanges(repository: GitRepository, startCommit: string, iterations: IterationRecord[]): Promise<AttemptChanges> {
  const newest = new Set(iterations.slice(-DETAILED_ATTEMPTS).map((r) => r.iteration))
  const pairs: { iteration: number; from: string; to: string }[] = []
  let previous = startCommit
  for (const record of iterations) {
    if (!record.commit) continue
    if (newest.has(record.iteration)) pairs.push({ iteration: record.iteration, from: previous, to: record.commit })
    previous = record.commit
  }
  const found = await repository.diffNumstats(pairs).catch(() => null)
  return new Map(found ? pairs.map((p, i) => [p.iteration, found[i]]) : [])
}

const count = (n: number | null): string => (n === null ? 'binary' : String(n))

function filesLine(record: IterationRecord, files: FileChange[] | undefined): string {
  if (files === undefined) {
    return record.changedFiles.length === 0
      ? 'Files: none changed.'
      : `Files: ${record.changedFiles.length} (+${record.stat.insertions}/−${record.stat.deletions}).`
  }
  if (files.length === 0) return 'Files: none changed.'
  const shown = files.slice(0, FILES_PER_ATTEMPT).map((f) => `${codeSpan(f.path, { max: 200 })} +${count(f.insertions)}/−${count(f.deletions)}`)
  if (files.length > FILES_PER_ATTEMPT) shown.push(`… and ${files.length - FILES_PER_ATTEMPT} more`)
  return `Files: ${shown.join(', ')}.`
}

function verdictLine(record: IterationRecord): string {
  const g = record.gate
  if (!g) return 'Gate: not run.'
  if (g.passed) return 'Gate: passed.'
  const first = g.failures[0]
  const failure = first
    ? `; first failure ${codeSpan(first.id, { max: 200 })}${first.message ? `: ${codeSpan(first.message.split('\n')[0], { max: 300 })}` : ''}`
    : ''
  return `Gate: failed (${codeSpan(g.reason, { max: 100 })})${failure}${record.gateRan ? '' : ' (tree unchanged, the verdict before stands)'}.`
}

/** The agent's last message, inert and cut to a few lines. */
function lastMessage(record: IterationRecord): string {
  const text = (record.agent.finalText ?? '').trim()
  if (!text) return "The agent's last message: none."
  let cut = text.split(/\r?\n/).slice(0, MESSAGE_LINES).join('\n')
  if (cut.length > MESSAGE_CHARS) cut = cut.slice(0, MESSAGE_CHARS)
  if (cut.length < text.length) cut += '\n… (cut)'
  return `The agent's last message:\n\n${codeBlock(cut, 'text')}`
}

/** Where an attempt's work can be seen: a compare view from the start to its commit, when the commits were pushed. */
interface CompareLink {
  repoUrl: string
  startCommit: string
}

/** One attempt as a maintainer reads it: verdict, files, link, cost, what the agent said, what was rejected. */
function attemptSection(record: IterationRecord, files: FileChange[] | undefined, compare?: CompareLink): string {
  const link = compare && record.commit ? ` · [the work at this attempt](${compare.repoUrl}/compare/${compare.startCommit}...${record.commit})` : ''
  const agent = record.agent.status === 'claimed-done' ? 'claimed done' : `${record.agent.status}: ${codeSpan(record.agent.reason, { max: 200 })}`
  const lines = [
    `#### Attempt ${record.iteration}`,
    `Cost ${usd(record.chargedUsd)} · agent ${agent}${link}`,
    verdictLine(record),
    filesLine(record, files),
    ...record.rejected.map((r) => `Rejected: ${codeSpan(r, { max: 400 })}`),
    lastMessage(record)
  ]
  return lines.join('\n\n')
}

/** The newest attempts, one section each. */
export function attemptSections(iterations: IterationRecord[], changes: AttemptChanges | undefined, compare?: CompareLink): string {
  const shown = iterations.slice(-DETAILED_ATTEMPTS)
  if (shown.length === 0) return '_No agent call was made._'
  const note = shown.length < iterations.length ? `_The last ${shown.length} of ${iterations.length} attempts; the table below lists them all._\n\n` : ''
  return note + shown.map((r) => attemptSection(r, changes?.get(r.iteration), compare)).join('\n\n')
}
