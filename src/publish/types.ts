import type { RunOutcome } from '../loop/engine.js'
import type { Settings } from '../inputs.js'

export interface PublishResult {
  pullRequestUrl?: string
  issueUrl?: string
  commentUrl?: string
  /** Files written instead of publishing (dry run). */
  files: string[]
  notes: string[]
}

export interface PublishContext {
  settings: Settings
  outcome: RunOutcome
  runDir: string
  logFile: string
  progressText: string
}

export interface Publisher {
  publish(ctx: PublishContext): Promise<PublishResult>
}
