import type { GateVerdict } from './types.js'

const MAX_EVIDENCE_FAILURES = 20

export const usd = (n: number): string => `$${n.toFixed(2)}`

export function describeVerdict(verdict: GateVerdict): string {
  if (verdict.passed) return `gate passed (${verdict.reason})`
  const fp = verdict.fingerprint ? ` [${verdict.fingerprint}]` : ''
  const count = verdict.failures.length > 0 ? `, ${verdict.failures.length} failing` : ''
  return `gate failed (${verdict.reason})${fp}${count}`
}

/** What the next prompt says about a failing gate: the reason, the failing tests, else the output's end. */
export function failureEvidence(verdict: GateVerdict): string[] {
  const lines = [`the protected gate failed: ${verdict.reason}${verdict.fingerprint ? ` (fingerprint ${verdict.fingerprint})` : ''}`]
  for (const failure of verdict.failures.slice(0, MAX_EVIDENCE_FAILURES)) {
    lines.push(`failing: ${failure.id}${failure.message ? ` — ${failure.message}` : ''}`)
  }
  if (verdict.failures.length > MAX_EVIDENCE_FAILURES) {
    lines.push(`… and ${verdict.failures.length - MAX_EVIDENCE_FAILURES} more failing tests`)
  }
  if (verdict.failures.length === 0 && verdict.outputTail.trim()) {
    lines.push(`gate output (end): ${verdict.outputTail.trim().split('\n').slice(-8).join(' | ').slice(0, 1500)}`)
  }
  return lines
}
