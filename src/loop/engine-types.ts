import type { AgentResult, CostSource, SpendLimit } from '../agent-result.js'
import type { StopReason } from './stop-reasons.js'
import type { LoopLimits } from '../settings.js'

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
  /** What loopgate left out of the commit, in a line each (nested repositories, workflow files). */
  notes?: string[]
  /** Protected paths loopgate put back to the base's bytes in the workspace before the commit. */
  restored?: string[]
}

/** The agent's workspace as loopgate's own (hardened) git sees it. */
export interface Workspace {
  head(): Promise<string>
  /**
   * Stages and commits everything the agent changed, with loopgate's trailer (never the features
   * file). `changed` is what a guard's `git status` after the call already reported (every path
   * that differs from HEAD): given, the work tree is not scanned again.
   */
  commitIteration(runId: string, iteration: number, changed?: readonly string[]): Promise<IterationChange>
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
  /** Judged by the exit code alone (`gate-report: exit-code`): no count or test id was read. */
  exitCodeOnly?: boolean
  skipped?: number
  /** Ids of the tests that passed, when a report gave them (verifies feature flips). */
  passedIds?: string[]
  /** Ids of the tests that failed, and of those skipped, when a report gave them (the baseline's protected tests). */
  failedIds?: string[]
  skippedIds?: string[]
  outputTail: string
  durationMs: number
  /** Set when the gate could not run on the base at all (a baseline that ran alongside the first call). */
  gateBroken?: string
  /** Tests found flaky on this commit: failed, then passed when rerun on the same tree. */
  flaky?: string[]
  /** Tests that passed at the baseline, failed here, and failed again when rerun on the baseline's tree: the base's. */
  failingOnBase?: string[]
  /** What the run wrote in its copy-on-write layer (or why it had none), for the attempt log. */
  wrote?: string
  /** Set when this run ran only some tests (the flaky rule's rerun): the runner and its filter. */
  narrowedBy?: string
  /** The flaky rule's rerun of this gate: how it ran (the tests alone, or the whole command and why) and the tests it ran, when its report says. */
  rerun?: { how: string; ran: string[] | null }
}

/** The flaky rule's rerun, asked after a failing gate: these tests of `first`, once, on `commit`. */
export interface RerunRequest {
  commit: string
  first: GateVerdict
  only: readonly string[]
}

/** What the rerun found, and the verdict the iteration is judged by. */
export interface GateRerun {
  /** The first verdict without the failures that passed on the rerun or are the base's (passing when those were all); the rerun's own when it ran the whole command. */
  verdict: GateVerdict
  /** Asked-for tests that passed on the rerun. */
  passed: string[]
  /** Asked-for tests that failed again, and then on the baseline's tree too. */
  failingOnBase: string[]
}

export interface Gate {
  /** Runs the protected gate on exactly this commit. */
  run(commit: string, iteration: number): Promise<GateVerdict>
  /**
   * The ids of the tests the baseline failed: the task, never flaky. Null when the baseline failed
   * without naming its failures: then no test is known to have passed there, and none is rerun.
   */
  baselineFailures?(): string[] | null
  /**
   * Runs the whole gate command again on the same commit (the same selection and order), and the
   * asked-for tests failing again there on the baseline's tree. Without it the whole gate reruns.
   */
  rerun?(request: RerunRequest): Promise<GateRerun>
  /**
   * Per failing test, the files it depends on at `commit`: its test file (by its id or its failure's
   * location) and the project files that imports. A test whose file is unknown is left out.
   */
  testSources?(commit: string, failures: readonly FailureItem[]): Promise<Map<string, string[]>>
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
  /** The protected paths found changed and restored from the base, as the guard found them. */
  protectedPaths?: string[]
  /** Free-form notes for the log. */
  notes?: string[]
  /** Feature flips the gate verified, now written to the features file for loopgate to commit. */
  verifiedFlips?: string[]
  /**
   * Every path that differed from HEAD (working tree or index) when the guard looked, from one
   * `git status` after the agent's processes ended: loopgate's commit stages these.
   */
  changedPaths?: string[]
}

/** One agent call the engine asks for: its iteration, prompt, time, cancellation and spend limit. */
interface AgentCallRequest {
  iteration: number
  prompt: string
  timeoutMs: number
  signal: AbortSignal
  /** What the call may spend at most (its budget, or less under the run's ceilings); enforced where the call is metered at the wire. */
  limit?: SpendLimit
}

export interface AgentRunner {
  run(request: AgentCallRequest): Promise<AgentResult>
}

/** One charge against the open call: the reported cost (absent when unknown) and its source. */
interface SpendCharge {
  iteration: number
  usd: number | undefined
  source: CostSource
}

/** The run's spend ledger, as the loop uses it (records/ledger.ts writes it to disk). */
interface SpendLedger {
  readonly spentUsd: number
  begin(iteration: number, budgetUsd: number): void
  /** Charges the open call; a missing cost is charged the call's full budget. */
  charge(charge: SpendCharge): { usd: number; source: CostSource }
}

/** Fields an entry carries besides those its kind names: JSON the summary and the artifact show as written. */
export interface LogDetails {
  [field: string]: unknown
}

/** The attempt log's entries the loop writes, one kind per event. */
export type LoopLogEntry =
  | (LogDetails & { type: 'run-start'; runId: string; startCommit: string; worstCaseUsd: number; meteredAtWire: string | null })
  | { type: 'admission'; iteration: number; refused: StopReason; spentUsd: number }
  | (LogDetails & { type: 'iteration'; iteration: number; spentUsd: number; commit: string | null })
  | (LogDetails & { type: 'stop'; stopReason: StopReason; spentUsd: number })

/** The attempt log, one entry per event. */
interface RunLog {
  write(entry: LoopLogEntry): void
}

/** The notes carried between fresh-context iterations (the progress file). */
export interface ProgressNotes {
  ensure(): void
  read(): string
  append(line: string): void
  appendStop(reason: StopReason): void
}

export interface EngineConfig extends LoopLimits {
  runId: string
  task: string
  agentFailureLimit?: number
  tamperLimit?: number
  progressFileName: string
  /** The folder of the repository the agent and the gate work in (one package of a monorepo), when not the top. */
  packageDir?: string
  /** Rolling ceiling across runs: the window's spend before this run started. */
  period?: { ceilingUsd: number; spentBeforeUsd: number }
  /** Evidence carried over from an earlier run (resume). */
  initialEvidence?: string[]
  /** The last failure fingerprint of an earlier run (resume). */
  seedFingerprint?: string | null
}

/** The ports the loop runs on: every effect is one of these. */
export interface EngineDeps {
  clock: Clock
  agent: AgentRunner
  workspace: Workspace
  gate: Gate
  guards: CallGuard[]
  ledger: SpendLedger
  log: RunLog
  progress: ProgressNotes
  signal?: AbortSignal
  report?: (line: string) => void
  /** Called after each iteration is logged (the CLI's progress line). */
  onIteration?: (record: IterationRecord) => void
  /** Set when every model request of the agent passes loopgate's metering proxy: which API, in a few words. */
  meteredAtWire?: string
}

export interface IterationRecord {
  iteration: number
  startedAt: number
  endedAt: number
  agent: AgentResult
  chargedUsd: number
  spentUsd: number
  commit: string | null
  changedFiles: string[]
  stat: DiffStat
  gate: GateVerdict | null
  /** False when the tree was unchanged and the previous verdict stands. */
  gateRan: boolean
  rejected: string[]
  tampered: boolean
  /** The protected paths the agent changed in this attempt (each restored from the base); none when absent. */
  protectedPaths?: string[]
  evidence: string[]
  decision: string
}

export interface RunOutcome {
  stopReason: StopReason
  iterations: IterationRecord[]
  spentUsd: number
  startCommit: string
  /** The last commit loopgate made: on `verified`, verifiedCommit or its record of verified feature flips on top. */
  headCommit: string
  /** The commit the gate judged and passed. */
  verifiedCommit: string | null
  lastVerdict: GateVerdict | null
  lastEvidence: string[]
  claimedDone: number
  gateAgreed: number
  startedAt: number
  endedAt: number
}
