import type { IterationRecord } from '../../loop/engine-types.js'
import type { GitHubClient } from '../../github/client.js'
import { call, explainApiError, isNotFound, type RepoRef } from '../../github/api-call.js'
import type { Ownership } from './ownership.js'

/** The hidden second line of every progress comment: which of the loop's comments is the sticky one. */
export const PROGRESS_TAG = '<!-- loopgate:progress -->'

/** A comment already on the pull request that this loop may take over (see findOwnProgress). */
type ExistingComment = { id: number; html_url: string } | null

/**
 * One comment on a pull request, kept across runs like a sticky comment: the loop's earlier
 * progress comment is taken over when there is one (found by `existing`), else it is created once
 * (its body opens with the loop's marker, then the progress tag) and edited in place afterwards.
 * Writes are queued so they never overlap or land out of order; a failed write is a warning,
 * never a stop.
 */
/** The issue or pull request the comment goes on, where warnings go, and how an earlier comment is found. */
interface ProgressCommentTarget {
  client: GitHubClient
  repo: RepoRef
  issueNumber: number
  warn: (message: string) => void
  existing?: () => Promise<ExistingComment>
}

/**
 * The least time between two progress-only edits (a beat saying what is in progress; an iteration's
 * edit is never held back), and after any other write: GitHub's secondary rate limits count every
 * edit as content created (80 a minute, 500 an hour) and ask for a pause between writes.
 */
export const LIVE_EDIT_GAP_MS = 60_000
const AFTER_ANY_WRITE_MS = 5_000

export class ProgressComment {
  private id: number | null = null
  private htmlUrl: string | undefined
  private looked = false
  private queue: Promise<void> = Promise.resolve()
  private pending = 0
  private lastWrite = 0
  private lastLive = 0
  private liveGapMs = LIVE_EDIT_GAP_MS

  private readonly client: GitHubClient
  private readonly repo: RepoRef
  private readonly issueNumber: number
  private readonly warn: (message: string) => void
  private readonly existing: () => Promise<ExistingComment>

  constructor({ client, repo, issueNumber, warn, existing = async () => null }: ProgressCommentTarget) {
    this.client = client
    this.repo = repo
    this.issueNumber = issueNumber
    this.warn = warn
    this.existing = existing
  }

  get url(): string | undefined {
    return this.htmlUrl
  }

  /** Queues a write of `body` and returns when it (and every earlier one) is done. */
  write(body: string): Promise<void> {
    return this.enqueue(body, () => undefined)
  }

  /**
   * A progress-only write: made only when no write is waiting, the last progress-only one is at
   * least the live gap old and the last write a few seconds; a failed one doubles the gap (up to
   * ten minutes), as a rate limit asks.
   */
  writeLive(body: string, now = Date.now()): void {
    if (this.pending > 0 || now - this.lastLive < this.liveGapMs || now - this.lastWrite < AFTER_ANY_WRITE_MS) return
    this.lastLive = now
    void this.enqueue(body, () => (this.liveGapMs = Math.min(this.liveGapMs * 2, 600_000)))
  }

  private enqueue(body: string, onFailure: () => void): Promise<void> {
    this.pending++
    this.lastWrite = Date.now()
    this.queue = this.queue
      .then(() => this.put(body))
      .catch((err: unknown) => {
        onFailure()
        this.warn(`loopgate: could not update the progress comment on #${this.issueNumber}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`)
      })
      .finally(() => {
        this.pending--
        this.lastWrite = Date.now()
      })
    return this.queue
  }

  /** Like write, but a failure is thrown (the final outcome must be said or the step fails). */
  async finish(body: string): Promise<string | undefined> {
    await this.queue
    await this.put(body)
    return this.htmlUrl
  }

  private async put(text: string): Promise<void> {
    const { client, repo } = this
    const [first, ...rest] = text.split('\n')
    const body = [first, PROGRESS_TAG, ...rest].join('\n')
    if (this.id === null && !this.looked) {
      this.looked = true
      const found = await this.existing()
      if (found) {
        this.id = found.id
        this.htmlUrl = found.html_url
      }
    }
    if (this.id !== null) {
      const id = this.id
      try {
        await client.rest.issues.updateComment({ ...repo, comment_id: id, body })
        return
      } catch (err) {
        // Someone deleted the progress comment: the loop writes a new one instead.
        if (!isNotFound(err)) throw explainApiError(err, `update the progress comment on #${this.issueNumber}`, 'pull-requests: write')
        this.id = null
      }
    }
    const created = await call(`comment on #${this.issueNumber}`, 'pull-requests: write', () =>
      client.rest.issues.createComment({ ...repo, issue_number: this.issueNumber, body })
    )
    this.id = created.data.id
    this.htmlUrl = created.data.html_url
  }
}

/** The pull request to look on, and the ownership that tells the loop's own comment. */
interface OwnProgressCommentQuery {
  client: GitHubClient
  repo: RepoRef
  owner: Ownership
  pull: number
}

/** The loop's progress comment from an earlier run on this pull request, if there is one (the newest). */
export async function findOwnProgressComment({ client, repo, owner, pull }: OwnProgressCommentQuery): Promise<ExistingComment> {
  const comments = await call(`list the comments of #${pull}`, 'pull-requests: read', () =>
    client.paginate(client.rest.issues.listComments, { ...repo, issue_number: pull, per_page: 100 })
  )
  for (const c of [...comments].reverse()) {
    if ((c.body ?? '').split('\n')[1] !== PROGRESS_TAG) continue
    if (await owner.isOwnComment(c)) return { id: c.id, html_url: c.html_url }
  }
  return null
}

export type { IterationRecord }
