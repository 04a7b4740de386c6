import { PushRejectedError, type CommitWriter, type RefWrite } from '../../git/clean-clone.js'
import type { GitRepository } from '../../git/repository.js'
import { planUpload, readCommit, type UploadBlob, type UploadPlan } from '../../git/upload-plan.js'
import { TRAILER_RUN } from '../../git/workspace.js'
import { explainApiError, type RepoRef } from '../../github/api-call.js'
import type { GitHubClient } from '../../github/client.js'

/**
 * loopgate's commits created through GitHub's Git database API (blobs, trees, commits, refs), so
 * GitHub signs them as the token's identity (no author, committer or signature is sent: GitHub
 * signs only its own). Trees are sent whole, each checked to come back with the sha git computed,
 * so the remote commit holds exactly the tree loopgate published. A ref is created, or moved with
 * `force: false`: a branch that moved under loopgate is a PushRejectedError, never overwritten.
 */

/** How many commits a history may add before loopgate stops looking for what the remote has. */
const MAX_NEW_COMMITS = 500
/** Blobs sent at once. */
const BLOB_UPLOADS = 4

interface ApiCommitsOptions {
  client: GitHubClient
  repo: RepoRef
  /** Whether the API path applies (the token can have GitHub sign its commits); asked once. */
  signing: () => Promise<boolean>
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn))
}

function sameObject(what: string, local: string, remote: string): void {
  if (local !== remote) throw new Error(`GitHub stored ${what} ${local} as ${remote}: the commit would not hold loopgate's tree; nothing was pushed`)
}

export class ApiCommits implements CommitWriter {
  /** Local commit → the commit on GitHub (the same sha for commits GitHub already had). */
  private readonly remoteOf = new Map<string, string>()
  /** Each branch written, and the commit GitHub holds there now. */
  readonly heads = new Map<string, string>()
  private decided: Promise<boolean> | undefined

  constructor(private readonly opts: ApiCommitsOptions) {}

  enabled(): Promise<boolean> {
    this.decided ??= this.opts.signing()
    return this.decided
  }

  async write({ repository, commit, branch, lease, fastForward }: RefWrite): Promise<void> {
    const what = `create the commits of ${branch} through the GitHub API`
    let head: string
    try {
      head = await this.publishHistory(repository, commit)
      if (head === lease) return void this.heads.set(branch, head)
      if (lease !== null && !fastForward) head = await this.supersede(repository, { commit, head, lease, branch })
    } catch (err) {
      throw statusOf(err) === undefined ? err : explainApiError(err, what, 'contents: write')
    }
    await this.moveRef(branch, head, lease)
    this.heads.set(branch, head)
  }

  private get repo(): RepoRef {
    return this.opts.repo
  }

  /** Whether GitHub holds `sha` (a commit of the repository). */
  private async known(sha: string): Promise<boolean> {
    try {
      await this.opts.client.rest.git.getCommit({ ...this.repo, commit_sha: sha })
      return true
    } catch (err) {
      if (statusOf(err) === 404 || statusOf(err) === 422) return false
      throw err
    }
  }

  /** The commits of `commit`'s history GitHub already holds, walking back from it until each line of history reaches one. */
  private async haveOnRemote(repository: GitRepository, commit: string): Promise<string[]> {
    const have: string[] = []
    const queue = [commit]
    const seen = new Set<string>()
    while (queue.length) {
      const sha = queue.shift() as string
      if (seen.has(sha)) continue
      seen.add(sha)
      if (this.remoteOf.has(sha) || (await this.known(sha))) {
        if (!this.remoteOf.has(sha)) this.remoteOf.set(sha, sha)
        have.push(sha)
        continue
      }
      if (seen.size > MAX_NEW_COMMITS)
        throw new Error(`more than ${MAX_NEW_COMMITS} commits of ${commit.slice(0, 12)} are missing on GitHub; not creating them through the API`)
      queue.push(...(await readCommit(repository, sha)).parents)
    }
    return have
  }

  /** Creates every object GitHub lacks of `commit`'s history; the commit GitHub holds for it. */
  private async publishHistory(repository: GitRepository, commit: string): Promise<string> {
    const known = this.remoteOf.get(commit)
    if (known) return known
    const have = await this.haveOnRemote(repository, commit)
    // The whole plan is read and checked before the first object is sent.
    const plan = await planUpload(repository, commit, have)
    await this.sendBlobs(repository, plan.blobs)
    await this.sendTrees(plan)
    for (const c of plan.commits) {
      const parents = c.parents.map((p) => this.remoteOf.get(p) ?? p)
      const created = await this.opts.client.rest.git.createCommit({ ...this.repo, message: c.message, tree: c.tree, parents })
      this.remoteOf.set(c.sha, created.data.sha)
    }
    const head = this.remoteOf.get(commit)
    if (!head) throw new Error(`commit ${commit.slice(0, 12)} was not created on GitHub`)
    return head
  }

  private async sendBlobs(repository: GitRepository, blobs: UploadBlob[]): Promise<void> {
    await inBatches(blobs, BLOB_UPLOADS, async (blob) => {
      const content = (await repository.catFileBatch([blob.sha])).get(blob.sha) as Buffer
      const created = await this.opts.client.rest.git.createBlob({ ...this.repo, content: content.toString('base64'), encoding: 'base64' })
      sameObject(`the file ${blob.path}`, blob.sha, created.data.sha)
    })
  }

  private async sendTrees(plan: UploadPlan): Promise<void> {
    for (const tree of plan.trees) {
      const entries = tree.entries.map((e) => ({ path: e.name, mode: e.mode, type: e.type, sha: e.sha }))
      const created = await this.opts.client.rest.git.createTree({ ...this.repo, tree: entries })
      sameObject('the tree', tree.sha, created.data.sha)
    }
  }

  /**
   * The branch's tip is loopgate's own earlier work, which the new work does not descend from: the
   * new tip is a commit of the new work's tree with both as parents, so the ref still only moves
   * forward and the earlier commits stay in its history.
   */
  private async supersede(repository: GitRepository, at: { commit: string; head: string; lease: string; branch: string }): Promise<string> {
    const local = await readCommit(repository, at.commit)
    const trailers = local.message.split('\n').filter((l) => l.startsWith(`${TRAILER_RUN}: `))
    const message = `loopgate: replace the earlier work on ${at.branch}\n\nThe tree is ${at.commit.slice(0, 12)}'s; ${at.lease.slice(0, 12)} was the branch's tip.\n\n${trailers.join('\n')}\n`
    const created = await this.opts.client.rest.git.createCommit({ ...this.repo, message, tree: local.tree, parents: [at.head, at.lease] })
    return created.data.sha
  }

  /** Creates the branch, or moves it forward from `lease`; GitHub refusing either is a PushRejectedError. */
  private async moveRef(branch: string, sha: string, lease: string | null): Promise<void> {
    try {
      if (lease === null) await this.opts.client.rest.git.createRef({ ...this.repo, ref: `refs/heads/${branch}`, sha })
      else await this.opts.client.rest.git.updateRef({ ...this.repo, ref: `heads/${branch}`, sha, force: false })
    } catch (err) {
      if (statusOf(err) === 422 || statusOf(err) === 409) {
        throw new PushRejectedError(`the branch ${branch} moved on the remote since loopgate read it; not overwriting it`, branch)
      }
      throw explainApiError(err, `update ${branch} through the GitHub API`, 'contents: write')
    }
  }
}
