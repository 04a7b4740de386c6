import { existsSync, readFileSync } from 'node:fs'
import { wipBranchName } from '../git/branches.js'
import { handBackPaths } from '../fs/hand-back.js'
import { recordedPublishRules } from '../gate/baseline/publish-rules.js'
import { GitWorkspace } from '../git/workspace.js'
import { GitRepository } from '../git/repository.js'
import { AttemptLog, readAttemptLog } from '../records/attempt-log.js'
import { Ledger } from '../records/ledger.js'
import { ProgressFile } from '../records/progress-file.js'
import { isStopReason, outcomeFor, type StopReason } from '../loop/stop-reasons.js'
import { readCustodyRecord, resumeCustody, returnCustody, type Custody } from '../git/custody.js'
import { upgradeAttemptsOfSettledRun } from '../upgrade/interrupted.js'
import { saveRunCharges } from '../state/loop-records.js'
import { recordRun } from '../state/record-run.js'
import { parseState } from '../state/parse.js'
import { emptyState, type LoopState } from '../state/schema.js'
import type { SessionInfo } from '../state/session.js'
import { saveLoopState, type CacheClient } from '../state/store.js'
import type { PushWip } from '../publish/github/wip.js'

interface SettleInput {
  info: SessionInfo
  runDir: string
  workspace: string
  /** Loopgate's progress file name relative to the workspace (kept out of the commit). */
  progressFileName: string
  featuresFile?: string
  pushWip?: PushWip
  /** Who the repository goes back to (`uid`, `gid`) when loopgate gives it back. */
  owner?: { uid: number; gid: number }
  cache?: CacheClient
  now?: Date
}

export interface SettleResult {
  stopReason: StopReason
  settledUsd: number
  spentUsd: number
  iterations: number
  wipHead: string | null
  saved: boolean
  notes: string[]
}

/** The stop reason of the last `stop` entry in loopgate's attempt log, if the run got that far. */
function recordedStopReason(logFile: string): StopReason | null {
  const reasons = readAttemptLog(logFile).flatMap((entry) => (entry.type === 'stop' && isStopReason(entry.stopReason) ? [entry.stopReason] : []))
  return reasons.at(-1) ?? null
}

function readSavedState(info: SessionInfo): LoopState {
  try {
    return parseState(readFileSync(info.location.file, 'utf8'), info.loopId)
  } catch {
    return emptyState(info.loopId)
  }
}

/** What the ledger holds: the spend charged, and how many iterations started a call. */
function ledgerFacts(ledgerFile: string): { chargedUsd: number; iterations: number } {
  if (!existsSync(ledgerFile)) return { chargedUsd: 0, iterations: 0 }
  const text = readFileSync(ledgerFile, 'utf8')
  const starts = text
    .split('\n')
    .filter((l) => l.includes('"call-start"'))
    .map((l) => (JSON.parse(l) as { iteration: number }).iteration)
  return { chargedUsd: Ledger.summarise(text).chargedUsd, iterations: new Set(starts).size }
}

/** A killed run's custody of the repository, how many calls it made, and the notes that say what was done. */
interface LastEdits {
  input: SettleInput
  custody: Custody
  iterations: number
  notes: string[]
}

/**
 * The agent's last edits, committed in loopgate's own git directory with its own config (nothing
 * the agent planted runs here), held to the run's publish rules like every iteration's commit
 * (without them, nothing is committed); returns the head when it moved past the base.
 */
async function commitLastEdits({ input, custody, iterations, notes }: LastEdits): Promise<string | null> {
  resumeCustody(custody)
  try {
    const repository = GitRepository.held(custody)
    const rules = await recordedPublishRules(input.runDir, repository)
    const workspace = new GitWorkspace({
      dir: input.workspace,
      repository,
      progressFile: input.progressFileName,
      featuresFile: input.featuresFile,
      ...(rules ? { rules } : {})
    })
    if (rules) {
      const change = await workspace.commitIteration(input.info.runId, Math.max(iterations, 1))
      notes.push(...(change.notes ?? []))
      if (input.owner && change.restored?.length) handBackPaths(input.workspace, change.restored, input.owner)
      if (change.commit) notes.push(`committed the agent's last edits (${change.changedFiles.length} file(s)) as ${change.commit.slice(0, 12)}`)
    } else notes.push("the run's protected paths were not recorded (it ended before the first call): nothing was committed")
    const head = await workspace.head()
    return input.info.baseCommit && head !== input.info.baseCommit ? head : null
  } catch (err) {
    notes.push(`could not commit the workspace: ${(err as Error).message}`)
    return null
  }
}

/** The WIP head to push, its branch, and the notes that say whether it was pushed. */
interface WipPush {
  input: SettleInput
  /** The workspace's repository, through loopgate's git directory. */
  repository: GitRepository
  branch: string
  wipHead: string
  notes: string[]
}

async function pushWipHead({ input, repository, branch, wipHead, notes }: WipPush): Promise<void> {
  if (!input.pushWip) return
  try {
    await input.pushWip({ repository, branch, head: wipHead })
    notes.push(`pushed ${branch} at ${wipHead.slice(0, 12)}`)
  } catch (err) {
    notes.push(`could not push ${branch}: ${(err as Error).message}`)
  }
}

/**
 * The post step's work when the main step died (killed, timed out): charge the open call its full
 * budget, write the `cancelled` line, keep the agent's last edits in a commit, push the WIP branch
 * and save the state. Nothing is lost that reached the disk.
 */
export async function settleKilledRun(input: SettleInput): Promise<SettleResult> {
  const notes: string[] = []
  const ledgerFile = `${input.runDir}/ledger.jsonl`
  const log = new AttemptLog(`${input.runDir}/attempts.jsonl`)
  const settledUsd = Ledger.settleOpenCalls(ledgerFile, 'the main step ended during the call: charged its full budget by the post step')
  const { chargedUsd, iterations } = ledgerFacts(ledgerFile)

  // The stop reason comes from loopgate's own attempt log, never from a file the agent can write.
  const recorded = recordedStopReason(log.file)
  const stopReason: StopReason = recorded ?? 'cancelled'
  if (!recorded) new ProgressFile(input.workspace, input.progressFileName).appendStop('cancelled')

  const custody = readCustodyRecord(input.runDir)
  if (!custody) notes.push("the repository was not in loopgate's custody: the agent's last edits were not committed")
  const wipHead = custody ? await commitLastEdits({ input, custody, iterations, notes }) : null
  const branch = wipBranchName(input.info.loopId)
  if (wipHead && custody) await pushWipHead({ input, repository: GitRepository.held(custody), branch, wipHead, notes })

  const state = readSavedState(input.info)
  const wip = wipHead && input.info.baseCommit ? { branch, head: wipHead, base: input.info.baseCommit } : state.wip
  const run = {
    runId: input.info.runId,
    startedAt: new Date(input.info.startedAt),
    endedAt: input.now ?? new Date(),
    outcome: outcomeFor(stopReason),
    stopReason,
    upgradeAttempts: upgradeAttemptsOfSettledRun(log.file, { stopReason, interrupted: !recorded, calls: iterations, now: input.now ?? new Date() })
  }
  const next = recordRun(
    state,
    { ...run, spentUsd: chargedUsd, iterations, pr: input.info.pr, ledgerFile, lastFailure: state.lastFailure, wip, countsForPr: iterations > 0 },
    input.info.periodHours
  )
  // The run's own charges entry: the window of every later run counts it, whatever state they restore.
  const charges = await saveRunCharges({ tempDir: input.info.tempDir, loopId: input.info.loopId, runId: input.info.runId, ledgerFile, cache: input.cache })
  if (!charges.saved) notes.push(`the run's charges entry was not saved: ${charges.message ?? 'unknown reason'}`)
  const saved = await saveLoopState(next, { location: input.info.location, key: input.info.key, cache: input.cache })
  if (!saved.saved) notes.push(`the state was not saved: ${saved.message ?? 'unknown reason'}`)
  if (custody) {
    try {
      await returnCustody(custody, input.owner)
    } catch (err) {
      notes.push(`could not put the repository back in the workspace: ${(err as Error).message}; it is kept at ${custody.gitDir}`)
    }
  }
  log.write({ type: 'stop', stopReason, by: 'post', settledUsd, spentUsd: chargedUsd, iterations, wipHead, stateSaved: saved.saved, notes })
  return { stopReason, settledUsd, spentUsd: chargedUsd, iterations, wipHead, saved: saved.saved, notes }
}
