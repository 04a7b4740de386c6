import type { GitRepository } from '../../git/repository.js'
import { pushOverTip, PushRejectedError, withCleanClone, type CleanClone, type Remote } from '../../git/clean-clone.js'
import { TRAILER_RUN } from '../../git/workspace.js'

/**
 * Pushes that never rewrite someone else's work. Every check runs in loopgate's clean clone (the
 * repository it publishes from), never in the agent's workspace.
 */

/** The verified commit would drop commits from a branch someone else owns: nothing was pushed. */
export class HistoryRewriteRefused extends Error {
  readonly branch: string
  readonly startHead: string
  readonly commit: string

  constructor(message: string, { branch, startHead, commit }: PullRequestPush) {
    super(message)
    this.name = 'HistoryRewriteRefused'
    this.branch = branch
    this.startHead = startHead
    this.commit = commit
  }
}

/** A verified commit to push onto a pull request's branch, over the head the run started from. */
interface PullRequestPush {
  branch: string
  startHead: string
  commit: string
}

/**
 * Pushes `commit` onto a pull request's branch: only when it descends from `startHead`, the head
 * the run started from (so every commit of the contributors stays in the branch's history), and
 * only while the branch still points there (the lease).
 */
export async function pushOntoPullRequest({ clone, commit, branch, startHead }: PullRequestPush & { clone: CleanClone }): Promise<void> {
  if (!(await clone.isAncestor(startHead, commit))) {
    throw new HistoryRewriteRefused(
      `loopgate refused to push to ${branch}: the verified commit ${commit.slice(0, 12)} does not descend from ${startHead.slice(0, 12)}, the head of ${branch} when the run began, so pushing it would rewrite the pull request's history. Nothing was pushed.`,
      { branch, startHead, commit }
    )
  }
  await clone.push(commit, branch, startHead)
}

/** How many commits reachable from `tip` but not from `commit` loopgate did not make (no run trailer). */
async function foreignCommitsDropped(clone: CleanClone, commit: string, tip: string): Promise<number> {
  return clone.repository.revListCount(`${commit}..${tip}`, ['--invert-grep', `--grep=^${TRAILER_RUN}: `])
}

/**
 * Pushes unfinished work to the loop's WIP branch: creates it, fast-forwards it, or replaces it
 * when every commit that would leave its history is loopgate's own. A commit someone else pushed
 * there is never dropped (refused with PushRejectedError); the lease is the tip read here.
 */
export async function pushWip(clone: CleanClone, commit: string, branch: string): Promise<void> {
  return pushOverTip({
    clone,
    commit,
    branch,
    mayReplace: async (tip) => {
      await clone.isLoopgateCommit(tip, branch) // fetches the branch into the clean clone
      if (!(await clone.isAncestor(tip, commit)) && (await foreignCommitsDropped(clone, commit, tip)) > 0) {
        throw new PushRejectedError(
          `someone else pushed to ${branch} (its history has commits loopgate did not make that ${commit.slice(0, 12)} does not contain); not overwriting it`,
          branch
        )
      }
    }
  })
}

/** Where the WIP push reads the work from and sends it to. */
export interface WipPush {
  /** Where the clean clone is made. */
  tempDir: string
  /** The workspace's repository, as loopgate holds it: its objects are read as data only. */
  repository: GitRepository
  head: string
  remote: Remote
  branch: string
}

/** The WIP push from a clean clone of `head`: the publisher's after an escalation, the post step's after a cancellation. */
export async function pushWipFromWorkspace(push: WipPush): Promise<void> {
  await withCleanClone({ tempDir: push.tempDir, repository: push.repository, commit: push.head, remote: push.remote }, (clone) =>
    pushWip(clone, push.head, push.branch)
  )
}
