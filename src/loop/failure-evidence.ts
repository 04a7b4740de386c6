import type { GateVerdict } from './engine-types.js'

const MAX_EVIDENCE_FAILURES = 20
/** Room for failure messages in one prompt; beyond it a failure keeps its first line. */
const MESSAGE_BUDGET_CHARS = 12_000

/** A message as an indented-code-safe fence (a message containing ``` gets a longer fence). */
function fenced(message: string): string {
  const longest = Math.max(2, ...[...message.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}\n${message}\n${fence}`
}

/**
 * What the next prompt learns from a failed gate: the reason and fingerprint, then each failing
 * test with its assertion message and diff (bounded), or the end of the output when no test was read.
 */
export function failureEvidence(verdict: GateVerdict): string[] {
  const lines = [`the protected gate failed: ${verdict.reason}${verdict.fingerprint ? ` (fingerprint ${verdict.fingerprint})` : ''}`]
  let budget = MESSAGE_BUDGET_CHARS
  for (const failure of verdict.failures.slice(0, MAX_EVIDENCE_FAILURES)) {
    const message = failure.message.trim()
    if (!message) {
      lines.push(`failing: ${failure.id}`)
    } else if (!message.includes('\n') && message.length <= 200) {
      lines.push(`failing: ${failure.id} — ${message}`)
      budget -= message.length
    } else if (message.length <= budget) {
      lines.push(`failing: ${failure.id}\n${fenced(message)}`)
      budget -= message.length
    } else {
      lines.push(`failing: ${failure.id} — ${message.split('\n')[0].slice(0, 200)} (message cut)`)
    }
  }
  if (verdict.failures.length > MAX_EVIDENCE_FAILURES) {
    lines.push(`… and ${verdict.failures.length - MAX_EVIDENCE_FAILURES} more failing tests`)
  }
  if (verdict.failures.length === 0 && verdict.outputTail.trim()) {
    const tail = verdict.outputTail
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
      .trim()
      .split('\n')
      .slice(-30)
      .join('\n')
      .slice(-3000)
    lines.push(`gate output (end):\n${fenced(tail)}`)
  }
  return lines
}
