import { createHash } from 'node:crypto'
import { ProtectedPaths } from '../gate/protection/protected-paths.js'
import type { GitRepository } from '../git/repository.js'
import type { Settings } from '../settings.js'
import type { RunOutcome } from '../loop/engine-types.js'
import type { PreflightStop } from '../publish/publisher-types.js'
import { LIMITS } from '../records/state-limits.js'
import type { GiveUpRecord } from '../state/schema.js'

/** What makes a task the same task: its prompt (retry words included), its base and its protected tests. */
interface TaskIdentity {
  promptHash: string
  baseCommit: string
  testsHash: string
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32)

/** A hash of the protected files (tests and their runner config) in the base commit's tree. */
async function protectedTestsAt(repository: GitRepository, commit: string, patterns: readonly string[]): Promise<string> {
  const paths = new ProtectedPaths(patterns)
  const hash = createHash('sha256')
  for (const entry of (await repository.lsTreeRecords(commit, { recursive: true })).sort()) {
    const tab = entry.indexOf('\t')
    if (paths.kind(entry.slice(tab + 1)) === 'file') hash.update(`${entry}\n`)
  }
  return hash.digest('hex').slice(0, 32)
}

/** The task's identity; `base` is the commit a resumed run's work is measured against (else HEAD). */
export async function taskIdentity(settings: Settings, repository: GitRepository, base?: string): Promise<TaskIdentity> {
  const baseCommit = base || (await repository.head())
  return { promptHash: sha(settings.prompt), baseCommit, testsHash: await protectedTestsAt(repository, baseCommit, settings.protectedPaths) }
}

/** The identity of the task on commit `base`, read once when first asked for: a read of the whole tree no run needs unless it gives up. */
export type LaterIdentity = () => Promise<TaskIdentity>

export function identityWhenAsked(settings: Settings, repository: GitRepository, base: string): LaterIdentity {
  let read: Promise<TaskIdentity> | null = null
  return () => (read ??= taskIdentity(settings, repository, base))
}

/** The stop before any spend when the loop's last give-up was on this very task. */
export function earlierGiveUp(identity: TaskIdentity, record: GiveUpRecord | null | undefined, commentCommand: string): PreflightStop | null {
  if (!record) return null
  const same = record.promptHash === identity.promptHash && record.baseCommit === identity.baseCommit && record.testsHash === identity.testsHash
  if (!same) return null
  const reason = record.reason ? `"${record.reason.replace(/\s+/g, ' ').trim()}"` : 'no reason given'
  return {
    stopReason: 'nothing-to-do',
    notes: [
      `skipped: the agent gave up on this same task in run ${record.runId} (${record.at}): ${reason}. ` +
        `The prompt, the base (${identity.baseCommit.slice(0, 12)}) and the protected tests are unchanged, so nothing was spent. ` +
        `To run it again, answer the agent (\`${commentCommand} retry <what it is missing>\` on the escalation issue, or a new prompt), ` +
        'move the base, or change the protected tests.'
    ]
  }
}

/** The task a run worked on (null when it had none), how the run ended, and when. */
interface EndedTask {
  identity: LaterIdentity | null
  run: RunOutcome
  runId: string
  now: Date
}

/**
 * What the loop's state keeps of this run's give-up: the record when it ended `agent-gave-up`, none
 * once a run of a task spent on it and ended otherwise, and the earlier one kept by a run that
 * never started the loop.
 */
export async function giveUpToRemember({ identity: later, run, runId, now }: EndedTask): Promise<GiveUpRecord | null | undefined> {
  if (!later) return undefined
  if (run.stopReason !== 'agent-gave-up') return run.iterations.length > 0 ? null : undefined
  const identity = await later().catch(() => null)
  if (!identity) return undefined
  const reason = [...run.iterations].reverse().find((r) => r.agent.gaveUp)?.agent.gaveUp?.reason ?? ''
  return { ...identity, reason: reason.slice(0, LIMITS.text), runId, at: now.toISOString() }
}
