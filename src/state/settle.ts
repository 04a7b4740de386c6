import { existsSync, readFileSync } from 'node:fs'
import { git } from '../git/git.js'
import { GitWorkspace } from '../git/workspace.js'
import { AttemptLog } from '../loop/attempt-log.js'
import { Ledger } from '../loop/ledger.js'
import { lastStopReason, ProgressFile } from '../loop/progress.js'
import { isStopReason, outcomeFor, type StopReason } from '../loop/stop-reasons.js'
import { recordRun } from './record.js'
import { wipBranch } from './resume.js'
import { emptyState, parseState, type LoopState } from './schema.js'
import type { SessionInfo } from './session.js'
import { saveLoopState, type CacheClient } from './store.js'

/**
 * Pushes the WIP branch to origin. Written by the GitHub helper (src/github/*); the post step
 * only calls it. It receives the workspace, the branch name and the commit to push.
 */
export type PushWip = (args: { workspace: string; branch: string; head: string }) => Promise<void>

export interface SettleInput {
  info: SessionInfo
  runDir: string
  progressFile: string
  workspace: string
  /** Loopgate's progress file name relative to the workspace (kept out of the commit). */
  progressFileName: string
  featuresFile?: string
  pushWip?: PushWip
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

function readSavedState(info: SessionInfo): LoopState {
  try {
    return parseState(readFileSync(info.location.file, 'utf8'), info.loopId)
  } catch {
    return emptyState(info.loopId)
  }
}

/**
 * The post step's work when the main step died (killed, timed out): charge the open call its full
 * budget, write the `cancelled` line, keep the agent's last edits in a commit, push the WIP branch
 * and save the state. Nothing is lost that reached the disk.
 */
export async function settleKilledRun(input: SettleInput): Promise<SettleResult> {
  const notes: string[] = []
  const now = input.now ?? new Date()
  const ledgerFile = `${input.runDir}/ledger.jsonl`
  const log = new AttemptLog(`${input.runDir}/attempts.jsonl`)
  const settledUsd = Ledger.settleOpenCalls(ledgerFile, 'the main step ended during the call: charged its full budget by the post step')
  const summary = existsSync(ledgerFile) ? Ledger.summarise(readFileSync(ledgerFile, 'utf8')) : { chargedUsd: 0, openCalls: [] }
  const iterations = existsSync(ledgerFile)
    ? new Set(
        readFileSync(ledgerFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"call-start"'))
          .map((l) => (JSON.parse(l) as { iteration: number }).iteration)
      ).size
    : 0

  const progress = new ProgressFile(input.progressFile)
  const already = lastStopReason(progress.read())
  const stopReason: StopReason = already && isStopReason(already) ? already : 'cancelled'
  if (!already) progress.appendStop('cancelled')

  let wipHead: string | null = null
  try {
    const workspace = new GitWorkspace(input.workspace, input.progressFileName, input.featuresFile)
    const change = await workspace.commitIteration(input.info.runId, Math.max(iterations, 1))
    if (change.commit) notes.push(`committed the agent's last edits (${change.changedFiles.length} file(s)) as ${change.commit.slice(0, 12)}`)
    const head = (await git(['rev-parse', 'HEAD'], { cwd: input.workspace })).stdout.trim()
    if (input.info.baseCommit && head !== input.info.baseCommit) wipHead = head
  } catch (err) {
    notes.push(`could not commit the workspace: ${(err as Error).message}`)
  }

  const branch = wipBranch(input.info.loopId)
  if (wipHead && input.pushWip) {
    try {
      await input.pushWip({ workspace: input.workspace, branch, head: wipHead })
      notes.push(`pushed ${branch} at ${wipHead.slice(0, 12)}`)
    } catch (err) {
      notes.push(`could not push ${branch}: ${(err as Error).message}`)
    }
  }

  const state = readSavedState(input.info)
  const next = recordRun(
    state,
    {
      runId: input.info.runId,
      startedAt: new Date(input.info.startedAt),
      endedAt: now,
      outcome: outcomeFor(stopReason),
      stopReason,
      spentUsd: summary.chargedUsd,
      iterations,
      pr: input.info.pr,
      ledgerFile,
      lastFailure: state.lastFailure,
      wip: wipHead && input.info.baseCommit ? { branch, head: wipHead, base: input.info.baseCommit } : state.wip,
      countsForPr: iterations > 0
    },
    input.info.periodHours
  )
  const saved = await saveLoopState(next, { location: input.info.location, key: input.info.key, cache: input.cache })
  if (!saved.saved) notes.push(`the state was not saved: ${saved.message ?? 'unknown reason'}`)
  log.write({ type: 'stop', stopReason, by: 'post', settledUsd, spentUsd: summary.chargedUsd, iterations, wipHead, stateSaved: saved.saved, notes })
  return { stopReason, settledUsd, spentUsd: summary.chargedUsd, iterations, wipHead, saved: saved.saved, notes }
}
