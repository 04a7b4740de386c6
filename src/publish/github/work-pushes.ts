import { wipBranchName } from '../../git/branches.js'
import { PushRejectedError, withCleanClone, type CleanClone, type Remote } from '../../git/clean-clone.js'
import type { BodyExtras } from '../body-parts.js'
import type { PublishContext, PublishResult } from '../publisher-types.js'
import { PublishError, WORKFLOW_PERMISSIONS } from '../../github/api-call.js'
import { HistoryRewriteRefused, pushWipFromWorkspace } from './pushes.js'

/** Where the publisher's pushes are made from (a clean clone in `tempDir`) and sent to. */
export interface PushSide {
  tempDir: string
  remote: Remote
}

/** The run's work, what the bodies say of it, and what publishing reports. */
interface PushedRun {
  ctx: PublishContext
  extras: BodyExtras
  result: PublishResult
}

function pushError(err: unknown, branch: string): Error {
  if (err instanceof PushRejectedError) return err
  const message = err instanceof Error ? err.message : String(err)
  if (/\b403\b|permission|denied|not allowed/i.test(message)) {
    return new PublishError(
      `pushing ${branch} was refused (${message.split('\n')[0]}): the token needs \`contents: write\`. Add to the workflow (or the job):\n\npermissions:\n${WORKFLOW_PERMISSIONS.map((p) => `  ${p}`).join('\n')}\n`
    )
  }
  return new PublishError(message)
}

/**
 * Pushes unfinished work to `loopgate/<loop-id>-wip`; returns the branch, or undefined if there is
 * none. When the push fails, `extras.wipNote` says why for the bodies.
 */
export async function pushUnfinishedWork(side: PushSide, run: PushedRun): Promise<string | undefined> {
  const { ctx, extras, result } = run
  const { outcome } = ctx
  if (outcome.headCommit === outcome.startCommit) return undefined
  const branch = wipBranchName(ctx.settings.loopId)
  try {
    await pushWipFromWorkspace({ tempDir: side.tempDir, repository: ctx.repository, head: outcome.headCommit, remote: side.remote, branch })
  } catch (err) {
    const failure = pushError(err, branch)
    extras.wipNote = `pushing it to \`${branch}\` failed (${failure.message.split('\n')[0]})`
    throw failure
  }
  result.wipBranch = branch
  result.notes.push(`unfinished work pushed to ${branch}`)
  return branch
}

/** The verified work of a run, the branch it goes to, and the push that puts it there. */
interface VerifiedPush {
  side: PushSide
  run: PushedRun
  branch: string
  push: (clone: CleanClone) => Promise<void>
}

/**
 * Pushes the verified commit with `push`. When the branch moved under loopgate, the work goes to
 * the WIP branch instead and publishing fails saying so; a history rewrite refusal is the caller's.
 */
export async function pushVerifiedWork({ side, run, branch, push }: VerifiedPush): Promise<void> {
  const { ctx, extras } = run
  try {
    await withCleanClone({ tempDir: side.tempDir, repository: ctx.repository, commit: ctx.outcome.headCommit, remote: side.remote }, push)
  } catch (err) {
    if (err instanceof HistoryRewriteRefused) throw err
    if (err instanceof PushRejectedError) {
      extras.wipBranch = await pushUnfinishedWork(side, run)
      throw new PublishError(`${err.message}; the verified work is on ${extras.wipBranch ?? 'no branch'} instead`)
    }
    throw pushError(err, branch)
  }
}
