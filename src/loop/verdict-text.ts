import type { GateVerdict } from './engine-types.js'

export function describeVerdict(verdict: GateVerdict): string {
  if (verdict.passed) return `gate passed (${verdict.reason})`
  const fp = verdict.fingerprint ? ` [${verdict.fingerprint}]` : ''
  const count = verdict.failures.length > 0 ? `, ${verdict.failures.length} failing` : ''
  return `gate failed (${verdict.reason})${fp}${count}`
}
