import type { CallGuard, GuardReport } from '../loop/engine-types.js'
import { refusalLine, type Refusal, type SandboxKind } from './egress-log.js'
import type { Sandbox } from './sandbox.js'

/** Refusals in words for the attempt log and the summary. */
export function refusalNotes(what: string, refused: readonly Refusal[]): string[] {
  if (refused.length === 0) return []
  return [`network refused ${what}: ${refused.map(refusalLine).join('; ')}`.slice(0, 4000)]
}

/** Each call's and each gate run's refusals, in the iteration's notes (the attempt log). */
export function egressGuard(sandbox: Sandbox): CallGuard {
  const report = (kind: SandboxKind): GuardReport => ({
    rejected: [],
    tampered: false,
    notes: refusalNotes(`during the ${kind === 'agent' ? 'call' : 'gate'}`, sandbox.log.since(kind))
  })
  return {
    afterCall: async () => report('agent'),
    afterGate: async () => report('gate')
  }
}
