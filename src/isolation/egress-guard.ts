import type { CallGuard, GuardReport } from '../loop/engine-types.js'
import { refusalLine, type Refusal, type SandboxKind } from './egress-log.js'
import type { Sandbox } from './sandbox.js'

/** Refusals in words for the attempt log and the summary. */
export function refusalNotes(what: string, refused: readonly Refusal[]): string[] {
  if (refused.length === 0) return []
  return [`network refused ${what}: ${refused.map(refusalLine).join('; ')}`.slice(0, 4000)]
}

/** Each call's and each gate run's refusals, and what a call left running, in the iteration's notes (the attempt log). */
export function egressGuard(sandbox: Sandbox): CallGuard {
  const report = (kind: SandboxKind): GuardReport => ({
    rejected: [],
    tampered: false,
    notes: refusalNotes(`during the ${kind === 'agent' ? 'call' : 'gate'}`, sandbox.log.since(kind))
  })
  return {
    afterCall: async () => {
      await sandbox.reported('agent')
      const r = report('agent')
      // The call's PID namespace ended with it, and with it whatever the agent left running.
      const left = sandbox.leftovers('agent')
      return left ? { ...r, notes: [...(r.notes ?? []), `${left} leftover agent process(es) killed`] } : r
    },
    afterGate: async () => {
      await sandbox.reported('gate')
      return report('gate')
    }
  }
}
