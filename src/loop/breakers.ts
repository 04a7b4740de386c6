import type { StopReason } from './stop-reasons.js'

interface BreakerLimits {
  noProgressLimit: number
  sameFailureLimit: number
  agentFailureLimit: number
  tamperLimit: number
}

interface IterationSignals {
  /** The iteration's own diff was empty (progress and features files excluded). */
  emptyDiff: boolean
  /** The agent call failed (error, refusal, crash, timeout). */
  agentFailed: boolean
  /** A protected path was changed and reverted. */
  tampered: boolean
  /** Fingerprint of the gate run on this iteration's new tree; undefined when no gate ran on a new tree. */
  fingerprint?: string | null
}

/** Counts the in-a-row conditions that stop a loop which is no longer getting anywhere. */
export class Breakers {
  emptyInARow = 0
  agentFailuresInARow = 0
  tamperings = 0
  sameFailureInARow = 0
  private lastFingerprint: string | null = null

  constructor(private readonly limits: BreakerLimits) {}

  /** Records one iteration; returns the breaker that fired, if any. */
  record(signals: IterationSignals): StopReason | null {
    this.emptyInARow = signals.emptyDiff ? this.emptyInARow + 1 : 0
    this.agentFailuresInARow = signals.agentFailed ? this.agentFailuresInARow + 1 : 0
    if (signals.tampered) this.tamperings++
    if (signals.fingerprint !== undefined) {
      if (signals.fingerprint !== null && signals.fingerprint === this.lastFingerprint) this.sameFailureInARow++
      else this.sameFailureInARow = signals.fingerprint === null ? 0 : 1
      this.lastFingerprint = signals.fingerprint
    }
    if (this.tamperings >= this.limits.tamperLimit) return 'protected-tampering'
    if (this.agentFailuresInARow >= this.limits.agentFailureLimit) return 'agent-failure'
    if (this.sameFailureInARow >= this.limits.sameFailureLimit) return 'same-failure'
    if (this.emptyInARow >= this.limits.noProgressLimit) return 'no-progress'
    return null
  }

  /** Seeds the last fingerprint from a previous run (resume). */
  seedFingerprint(fingerprint: string | null): void {
    this.lastFingerprint = fingerprint
    this.sameFailureInARow = fingerprint ? 1 : 0
  }
}
