import type { CallGuard, GuardReport } from '../loop/engine-types.js'
import { refusalLine, type Refusal, type SandboxKind } from './egress-log.js'
import type { Sandbox, WeakWatch } from './sandbox.js'

/** What a namespace that could not run its packet watcher names less, in words. */
const WEAK: Record<WeakWatch, string> = {
  sockets:
    'refused connections were named from closed sockets (`ss`; no packet watcher: the system has no `python3` or it cannot open a packet socket): a blocking connect is listed without its port, a UDP datagram nothing answered without its destination',
  counter:
    'refused connections and UDP datagrams nothing answered were only counted (neither the packet watcher nor `ss` could run): listed without their destination'
}

/** Refusals in words for the attempt log and the summary. */
export function refusalNotes(what: string, refused: readonly Refusal[]): string[] {
  if (refused.length === 0) return []
  return [`network refused ${what}: ${refused.map(refusalLine).join('; ')}`.slice(0, 4000)]
}

/** Each call's and each gate run's refusals, and what a call left running, in the iteration's notes (the attempt log). */
export function egressGuard(sandbox: Sandbox): CallGuard {
  const report = (kind: SandboxKind): GuardReport => {
    const weak = sandbox.weakWatch(kind)
    return {
      rejected: [],
      tampered: false,
      notes: [...refusalNotes(`during the ${kind === 'agent' ? 'call' : 'gate'}`, sandbox.log.since(kind)), ...(weak ? [`${kind}: ${WEAK[weak]}`] : [])]
    }
  }
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
