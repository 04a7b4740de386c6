import type { IterationRecord } from '../loop/types.js'
import { call, type GitHubClient, type RepoRef } from './client.js'

/**
 * One comment on a pull request, created once (its body opens with the loop's marker) and edited
 * in place afterwards. Writes are queued so they never overlap or land out of order; a failed
 * write is a warning, never a stop.
 */
export class ProgressComment {
  private id: number | null = null
  private htmlUrl: string | undefined
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly client: GitHubClient,
    private readonly repo: RepoRef,
    private readonly issueNumber: number,
    private readonly warn: (message: string) => void
  ) {}

  get url(): string | undefined {
    return this.htmlUrl
  }

  /** Queues a write of `body` and returns when it (and every earlier one) is done. */
  write(body: string): Promise<void> {
    this.queue = this.queue
      .then(() => this.put(body))
      .catch((err: unknown) =>
        this.warn(`loopgate: could not update the progress comment on #${this.issueNumber}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`)
      )
    return this.queue
  }

  /** Like write, but a failure is thrown (the final outcome must be said or the step fails). */
  async finish(body: string): Promise<string | undefined> {
    await this.queue
    await this.put(body)
    return this.htmlUrl
  }

  private async put(body: string): Promise<void> {
    const { client, repo } = this
    if (this.id === null) {
      const created = await call(`comment on #${this.issueNumber}`, 'pull-requests: write', () =>
        client.rest.issues.createComment({ ...repo, issue_number: this.issueNumber, body })
      )
      this.id = created.data.id
      this.htmlUrl = created.data.html_url
      return
    }
    const id = this.id
    await call(`update the progress comment on #${this.issueNumber}`, 'pull-requests: write', () =>
      client.rest.issues.updateComment({ ...repo, comment_id: id, body })
    )
  }
}

export type { IterationRecord }
