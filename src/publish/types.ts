import type { IterationRecord, RunOutcome } from '../loop/engine.js'
import type { StopReason } from '../loop/stop-reasons.js'
import type { Settings } from '../inputs.js'

export interface PublishResult {
  pullRequestUrl?: string
  issueUrl?: string
  commentUrl?: string
  /** The branch verified work was pushed to, and where unfinished work went. */
  branch?: string
  wipBranch?: string
  /** The attempt log artifact. */
  logUrl?: string
  /** Files written instead of publishing (dry run). */
  files: string[]
  notes: string[]
  /** Publishing failed (the work itself was pushed first when it could be); the step fails with this. */
  error?: string
}

export interface PublishContext {
  settings: Settings
  outcome: RunOutcome
  runDir: string
  logFile: string
  progressText: string
}

/** A run that ends before the loop: nothing is spent. */
export interface PreflightStop {
  stopReason: StopReason
  notes: string[]
}

export interface Publisher {
  /** Checked before any spend (events, review capacity); a stop ends the run with no iteration. */
  preflight?(settings: Settings): Promise<PreflightStop | null>
  /** For the engine's onIteration: progress shown while the run goes (a PR's progress comment). */
  onIteration?: (record: IterationRecord) => void
  publish(ctx: PublishContext): Promise<PublishResult>
}
