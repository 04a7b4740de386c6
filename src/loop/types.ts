import type { AgentResult } from '../agents/types.js'

export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

export interface DiffStat {
  files: number
  insertions: number
  deletions: number
}

/** What loopgate's own commit of one iteration recorded. */
export interface IterationChange {
  /** The iteration's commit, or null when the agent changed nothing (excluded files aside). */
  commit: string | null
  /** Files changed by this iteration, the progress and features files excluded. */
  changedFiles: string[]
  stat: DiffStat
}

/** The agent's workspace as loopgate's own (hardened) git sees it. */
export interface Workspace {
  head(): Promise<string>
  /** Stages and commits everything the agent changed, with loopgate's trailer (never the features file). */
  commitIteration(runId: string, iteration: number): Promise<IterationChange>
  /**
   * Commits the features file alone on top of HEAD: loopgate's record of the flips the gate
   * verified on `judged`. Null when the file is unchanged.
   */
  commitFeaturesFile(runId: string, iteration: number, judged: string): Promise<string | null>
  /** Whether HEAD differs from the run's starting commit, ignoring excluded files. */
  hasChangesSince(commit: string): Promise<boolean>
}

export interface FailureItem {
  id: string
  message: string
}

export interface GateVerdict {
  passed: boolean
  /** Why it passed or failed, in a few words: `exit 0`, `exit 1`, `timed out after 30 min`, … */
  reason: string
  exitCode: number | null
  timedOut: boolean
  failures: FailureItem[]
  /** Short hash of the sorted failures; null when the gate passed. */
  fingerprint: string | null
  testsRun?: number
  skipped?: number
  /** Ids of the tests that passed, when a report gave them (verifies feature flips). */
  passedIds?: string[]
  outputTail: string
  durationMs: number
}

export interface Gate {
  /** Runs the protected gate on exactly this commit. */
  run(commit: string, iteration: number): Promise<GateVerdict>
}

/** Checks after each agent call that may reject edits (protected paths, features file). */
export interface CallGuard {
  /** Called right after the agent call, before loopgate's commit. */
  afterCall(iteration: number): Promise<GuardReport>
  /**
   * Called after the gate with the verdict on the commit HEAD now is (null when no gate judged
   * it), e.g. to verify feature flips.
   */
  afterGate?(iteration: number, verdict: GateVerdict | null): Promise<GuardReport>
  /** Called before each call (e.g. to snapshot the features file). */
  beforeCall?(iteration: number): Promise<void>
}

export interface GuardReport {
  /** Human-readable rejections, fed to the next prompt as evidence. */
  rejected: string[]
  /** True when a protected path was tampered with (counts toward protected-tampering). */
  tampered: boolean
  /** Free-form notes for the log. */
  notes?: string[]
  /** Feature flips the gate verified, now written to the features file for loopgate to commit. */
  verifiedFlips?: string[]
}

export interface AgentRunner {
  run(iteration: number, prompt: string, timeoutMs: number, signal: AbortSignal): Promise<AgentResult>
}
