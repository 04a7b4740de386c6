import os from 'node:os'
import path from 'node:path'
import type { BaselineStore } from '../gate/baseline/baseline-cache.js'
import type { IsolationMode } from '../isolation/agent-account.js'
import { ownedPath } from '../fs/owned-dir.js'
import type { Outcome, StopReason } from '../loop/stop-reasons.js'
import type { Clock, EngineDeps, RunOutcome } from '../loop/engine-types.js'
import type { Publisher, PublishResult } from '../publish/publisher-types.js'
import type { GiveUpRecord, RunCarry, UpgradeAttempt } from '../state/schema.js'

export interface RunContext {
  /** The runner's environment (never passed whole to the agent or the gate). */
  env: NodeJS.ProcessEnv
  runId: string
  /** RUNNER_TEMP or the OS temp dir: outside the workspace. */
  tempDir: string
  publisher: Publisher
  signal: AbortSignal
  report: (line: string) => void
  /** Where a stop's explanation goes (an error: the CLI's stderr); `report` when not set. */
  explain?: (line: string) => void
  onIteration?: EngineDeps['onIteration']
  clock?: Clock
  /** `weak` forces the fallback without a separate agent user (also LOOPGATE_ISOLATION=weak). */
  isolation?: IsolationMode
  /** The dedicated agent user's name (default loopgate-agent). */
  agentUser?: string
  carry?: RunCarry
  /** Baselines of earlier runs (the loop state): the baseline is not run again on the same inputs. */
  baselines?: BaselineStore
}

export interface RunReport {
  stopReason: StopReason
  outcome: Outcome
  run: RunOutcome | null
  runDir: string
  logFile: string
  ledgerFile: string
  progressFile: string
  published: PublishResult
  notes: string[]
  /** The dependency upgrades this run tried, for the loop's state (task: dependency-upgrade). */
  upgradeAttempts?: UpgradeAttempt[]
  /** The give-up the loop's state remembers (null: forget it; undefined: keep what it has). */
  gaveUp?: GiveUpRecord | null
}

/** Creates the run's root-only directory (ledger, attempt log, state, loopgate's git directory). */
export function prepareRunDir(tempDir: string, loopId: string, runId: string): string {
  return ownedPath(tempDir, ['loopgate', `${loopId}-${runId}`], 0o700)
}

export function defaultTempDir(env: NodeJS.ProcessEnv): string {
  return env.RUNNER_TEMP || os.tmpdir()
}

export function defaultRunId(env: NodeJS.ProcessEnv): string {
  if (env.GITHUB_RUN_ID) return `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT || '1'}`
  return `local-${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}-${process.pid}`
}

/** Where one run keeps loopgate's own records (root-only). */
export interface RunFiles {
  runDir: string
  logFile: string
  ledgerFile: string
  progressPath: string
}

export function runFiles(runDir: string, workspace: string, progressFile: string): RunFiles {
  return {
    runDir,
    logFile: path.join(runDir, 'attempts.jsonl'),
    ledgerFile: path.join(runDir, 'ledger.jsonl'),
    progressPath: path.join(workspace, progressFile)
  }
}

/** A run that stopped before the loop: its files, its one stop reason, its notes. */
interface StoppedRun {
  files: RunFiles
  stopReason: StopReason
  outcome: Outcome
  notes: string[]
  upgradeAttempts?: UpgradeAttempt[]
}

/** The report of a run that stopped before the loop: one stop reason, nothing spent. */
export function stoppedReport({ files, stopReason, outcome, notes, upgradeAttempts }: StoppedRun): RunReport {
  return {
    stopReason,
    outcome,
    run: null,
    runDir: files.runDir,
    logFile: files.logFile,
    ledgerFile: files.ledgerFile,
    progressFile: files.progressPath,
    published: { files: [], notes: [] },
    notes,
    upgradeAttempts
  }
}
