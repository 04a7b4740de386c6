import type { Refusal } from '../isolation/egress-log.js'
import type { IterationRecord, RunOutcome } from '../loop/engine-types.js'
import type { StopReason } from '../loop/stop-reasons.js'
import type { CommitAuthor } from '../settings.js'
import type { GitRepository } from '../git/repository.js'
import type { GateSettings, LoopSettings, PublishSettings, StateSettings, TaskSettings, WorkspaceSettings } from '../settings.js'
import type { FileChange } from './changes.js'

/**
 * What a publisher reads: where the work goes (publishing's own settings), and what its bodies show
 * of the run (the task, the loop id, the gate command, the spend ceiling and iteration limit, the
 * workspace and its progress file).
 */
export type PublisherSettings = PublishSettings &
  WorkspaceSettings &
  Pick<StateSettings, 'loopId'> &
  Pick<TaskSettings, 'prompt' | 'promptSource'> &
  Pick<GateSettings, 'gateCommand' | 'progressFile'> &
  Pick<LoopSettings, 'maxIterations' | 'spendCeilingUsd'>

export interface PublishResult {
  pullRequestUrl?: string
  issueUrl?: string
  commentUrl?: string
  /** The branch verified work was pushed to, and where unfinished work went. */
  branch?: string
  wipBranch?: string
  /** The commit the WIP branch holds on GitHub, when its commits were created there (signed) rather than pushed. */
  wipHead?: string
  /** The attempt log artifact. */
  logUrl?: string
  /** Files written instead of publishing (dry run). */
  files: string[]
  notes: string[]
  /** Publishing failed (the work itself was pushed first when it could be); the step fails with this. */
  error?: string
}

/** A dependency upgrade (task: dependency-upgrade), for the pull request's title, body and branch. */
export interface UpgradePublishInfo {
  name: string
  from: string
  to: string
  kind: string
  /** loopgate's own commit of the bump. */
  bumpCommit: string
  /** The manifest and lockfile the bump commit changed. */
  bumpFiles: string[]
  /** The upgrade's own work branch: one pull request per upgrade. */
  branch: string
  /** What the agent changed beyond the bump: the files changed after the bump commit, with their line counts. */
  changedAfterBump: FileChange[]
  /** Tests that failed on the bump commit and passed when the gate ran again there: flaky, not the upgrade's failure. */
  flakyOnBump?: string[]
}

export interface PublishContext {
  settings: PublisherSettings
  /** Set for a dependency upgrade. */
  upgrade?: UpgradePublishInfo
  outcome: RunOutcome
  /** The workspace's repository the work was committed in, as loopgate holds it. */
  repository: GitRepository
  /** The commit the protected tests came from, and what it was resolved from (`origin/HEAD`, `base-ref v2`, …). */
  protectedBase?: { sha: string; source: string }
  runDir: string
  logFile: string
  progressText: string
  /** Every connection the run's sandboxes refused. */
  networkRefusals?: Refusal[]
}

/** A run that ends before the loop: nothing is spent. */
export interface PreflightStop {
  stopReason: StopReason
  notes: string[]
}

export interface Publisher {
  /** Checked before any spend (events, review capacity); a stop ends the run with no iteration. */
  preflight?(settings: PublisherSettings): Promise<PreflightStop | null>
  /** The identity loopgate's commits are authored by when `commit-author` is not set (the token's own). */
  commitAuthor?(): Promise<CommitAuthor>
  /** For the engine's onIteration: progress shown while the run goes (a PR's progress comment). */
  onIteration?: (record: IterationRecord) => void
  /** For the run's progress beat (a line saying what is in progress): shown where the publisher shows progress, as often as it allows. */
  onProgress?: (line: string) => void
  publish(ctx: PublishContext): Promise<PublishResult>
}
