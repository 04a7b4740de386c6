import type { BodyExtras } from '../body-parts.js'
import { pullRequestBody, pullRequestTitle } from '../pull-request-body.js'
import { runComment } from '../comment-bodies.js'
import type { PublishContext, PublishResult } from '../publisher-types.js'
import { runUrl } from '../../github/artifact.js'
import type { GitHubClient } from '../../github/client.js'
import { call, PublishError, type RepoRef } from '../../github/api-call.js'
import type { Ownership } from './ownership.js'

/** What a GitHub step of the publisher needs: the client, the repository, the run, the loop's ownership rule. */
export interface GitHubSide {
  client: GitHubClient
  repo: RepoRef
  env: NodeJS.ProcessEnv
  warn: (message: string) => void
  owner: Ownership
}

/**
 * The loop's one pull request from `branch`: updated (body, and one comment per run) when it is the
 * loop's own, opened otherwise (labels, reviewers, draft); someone else's is never touched.
 */
export async function openOrUpdateLoopPullRequest(
  gh: GitHubSide,
  run: { ctx: PublishContext; extras: BodyExtras; result: PublishResult; branch: string; base: string }
): Promise<void> {
  const { client, repo } = gh
  const { ctx, extras, result, branch, base } = run
  const { settings } = ctx
  const existing = await call('find the open loop pull request', 'pull-requests: read', () =>
    client.rest.pulls.list({ ...repo, state: 'open', head: `${repo.owner}:${branch}`, per_page: 100 })
  )
  const open = existing.data.find((p) => p.head.ref === branch)
  if (open && !(await gh.owner.isOwn(open))) {
    throw new PublishError(
      `pull request #${open.number} from ${branch} was not opened by loopgate (nor recorded in the loop's state); loopgate does not edit or comment on it. The verified work is on ${branch}.`
    )
  }
  const body = pullRequestBody(ctx, extras)
  let number: number
  if (open) {
    await call(`update pull request #${open.number}`, 'pull-requests: write', () => client.rest.pulls.update({ ...repo, pull_number: open.number, body }))
    const comment = await call(`comment on pull request #${open.number}`, 'pull-requests: write', () =>
      client.rest.issues.createComment({ ...repo, issue_number: open.number, body: runComment(ctx, extras, runUrl(gh.env)) })
    )
    result.commentUrl = comment.data.html_url
    result.pullRequestUrl = open.html_url
    result.notes.push(`updated the open pull request #${open.number}`)
    number = open.number
  } else {
    const created = await call('open the pull request', 'pull-requests: write', () =>
      client.rest.pulls.create({ ...repo, head: branch, base, title: pullRequestTitle(ctx), body, draft: settings.draft })
    )
    result.pullRequestUrl = created.data.html_url
    result.notes.push(`opened pull request #${created.data.number}`)
    number = created.data.number
  }
  if (settings.labels.length > 0) {
    await call(`label pull request #${number}`, 'pull-requests: write', () =>
      client.rest.issues.addLabels({ ...repo, issue_number: number, labels: settings.labels })
    )
  }
  if (settings.reviewers.length > 0 && !open) {
    try {
      await call(`request reviewers on #${number}`, 'pull-requests: write', () =>
        client.rest.pulls.requestReviewers({ ...repo, pull_number: number, reviewers: settings.reviewers })
      )
    } catch (err) {
      gh.warn(`loopgate: could not request reviewers: ${(err as Error).message}`)
    }
  }
}
