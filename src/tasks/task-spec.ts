import type { DependencyReferenceOptions } from '../gate/dependencies/dependency-trust.js'
import type { Clock, GateVerdict, ProgressNotes, RunOutcome } from '../loop/engine-types.js'
import type { AttemptLog } from '../records/attempt-log.js'
import type { Settings, Task } from '../settings.js'
import type { UpgradeReady } from '../upgrade/prepare.js'
import type { BotBump } from '../bot-pr/bot-bump.js'

/** `prompt` for a task given as `prompt` or `prompt-file`, else the `task` input's value. */
export type TaskName = 'prompt' | Task

/** What the run prepared before the loop: loopgate's own bump, or a dependency bot's. */
export interface TaskWork {
  upgrade: UpgradeReady | null
  botBump?: BotBump
}

/** The gate's verdict on the bump, the head it passed on, and where the run's records go. */
export interface PassingBump {
  head: string
  verdict: GateVerdict
  records: { log: Pick<AttemptLog, 'write'>; progress: ProgressNotes; clock: Clock }
}

/** How the protected baseline is taken for a task. */
export interface BaselinePlan {
  /** Runs alongside the first agent call: no decision waits on it. */
  alongside: boolean
  /** Runs on loopgate's bump commit (the base is the bump's parent). */
  onBump: boolean
  /** A resumed run's baseline runs on the base its unfinished work started from. */
  fromResumedBase: boolean
}

/**
 * Every fact the run reads of one task, in one descriptor: a folder `src/tasks/<name>/` whose
 * `index.ts` exports it, and one line in the registry (task-registry.ts).
 */
export interface TaskSpec {
  name: TaskName
  /** The task's words when loopgate writes the prompt itself; none when the user's prompt is the task. */
  prompt?: string
  baseline: BaselinePlan
  /** The commit whose verdict decides whether the agent is called at all (a bump); none: the loop always runs. */
  bumpCommit(work: TaskWork): string | undefined
  /** The dependencies the gate trusts: the task's bump, else the tree a resumed run's work began from. */
  dependencyReference(work: TaskWork, resumedBase: string | undefined): DependencyReferenceOptions
  /** The run's outcome when the gate already passes on the bump, with no agent call; none: the loop runs. */
  passingBump?(work: TaskWork, passed: PassingBump): RunOutcome | undefined
  /** The task the loop gives the agent, from the settings and the bump's verdict (null: no baseline was taken). */
  loopTask(work: TaskWork, settings: Settings, bumpVerdict: GateVerdict | null): string
}
