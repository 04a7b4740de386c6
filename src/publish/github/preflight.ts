import type { PreflightStop, PublisherSettings } from '../publisher-types.js'
import { actorRefusal, runActors } from '../../github/actor.js'
import { openLoopPulls } from './capacity.js'
import type { GitHubClient } from '../../github/client.js'
import type { RepoRef } from '../../github/api-call.js'
import type { EventPlan } from '../../github/events.js'
import type { Ownership } from './ownership.js'
import { readEventPayload } from '../../github/payload.js'

/** What the GitHub preflight asks the API with: the event's plan and the loop's ownership rule. */
interface PreflightSide {
  plan: EventPlan
  client: GitHubClient
  repo: RepoRef
  env: NodeJS.ProcessEnv
  owner: Ownership
}

/**
 * Events only an account with write permission can cause: a schedule (the workflow file is on the
 * default branch), a manual dispatch, a push. Whoever GitHub names as their actor (for a schedule,
 * the last account to edit the cron, possibly a bot since removed) started nothing, so there is
 * no one to check.
 */
const WRITER_ONLY_EVENTS = new Set(['schedule', 'workflow_dispatch', 'push'])

/**
 * The checks before any spend: a skipped or refused event, who started the run (unless only a
 * writer can cause the event), a retry only on the loop's own escalation issue, and the loop's
 * review capacity (`max-open-prs`).
 */
export async function preflightStop(gh: PreflightSide, settings: PublisherSettings): Promise<PreflightStop | null> {
  const { plan } = gh
  if (plan.kind === 'skip') return { stopReason: 'nothing-to-do', notes: [plan.message] }
  if (plan.kind === 'refuse') return { stopReason: 'config-error', notes: [plan.message] }
  if (!WRITER_ONLY_EVENTS.has(plan.eventName)) {
    const refusal = await actorRefusal({ client: gh.client, repo: gh.repo, actors: runActors(gh.env, readEventPayload(gh.env)), settings })
    if (refusal) return { stopReason: 'nothing-to-do', notes: [refusal] }
  }
  const retry = await retryStop(gh, settings)
  if (retry) return retry
  if (plan.kind !== 'branch' || settings.onSuccess === 'none') return null
  return reviewCapacityStop(gh, settings)
}

/** A `retry` is answered only on the loop's own escalation issue. */
async function retryStop(gh: PreflightSide, settings: PublisherSettings): Promise<PreflightStop | null> {
  const { plan } = gh
  if (plan.kind !== 'branch' || plan.trigger?.kind !== 'retry') return null
  const { issue } = plan.trigger
  let own: boolean
  try {
    own = await gh.owner.isOwn({ number: issue.number, body: issue.body, user: { login: issue.author } })
  } catch (err) {
    return { stopReason: 'config-error', notes: [err instanceof Error ? err.message : String(err)] }
  }
  if (own) return null
  return {
    stopReason: 'nothing-to-do',
    notes: [`skipped: issue #${issue.number} is not this loop's escalation issue (loop ${settings.loopId}); a retry is answered only there`]
  }
}

/** A loop at its `max-open-prs` stops before any spend, listing the pull requests to review. */
async function reviewCapacityStop(gh: PreflightSide, settings: PublisherSettings): Promise<PreflightStop | null> {
  let open
  try {
    open = await openLoopPulls({ client: gh.client, repo: gh.repo, loopId: settings.loopId, labels: settings.labels, ownership: gh.owner })
  } catch (err) {
    return { stopReason: 'config-error', notes: [err instanceof Error ? err.message : String(err)] }
  }
  if (open.length < settings.maxOpenPrs) return null
  return {
    stopReason: 'review-capacity',
    notes: [
      `This loop has ${open.length} open pull request(s), at its \`max-open-prs\` of ${settings.maxOpenPrs}; nothing was spent. Review or close:`,
      open.map((p) => `- [#${p.number}](${p.url}) (\`${p.branch}\`)`).join('\n')
    ]
  }
}

/** The triggering comment gets an `eyes` reaction: the run has started. A failure is a warning. */
export async function reactToTrigger(gh: Omit<PreflightSide, 'owner' | 'env'>, warn: (message: string) => void): Promise<void> {
  const { plan, client, repo } = gh
  const trigger = plan.kind === 'pull-request' || plan.kind === 'branch' ? plan.trigger : undefined
  const comment = trigger && (trigger.kind === 'command' || trigger.kind === 'retry') ? trigger.comment : null
  if (!comment) return
  try {
    if (comment.kind === 'issue-comment') await client.rest.reactions.createForIssueComment({ ...repo, comment_id: comment.id, content: 'eyes' })
    else await client.rest.reactions.createForPullRequestReviewComment({ ...repo, comment_id: comment.id, content: 'eyes' })
  } catch (err) {
    warn(`loopgate: could not react to the triggering comment: ${(err as Error).message.split('\n')[0]}`)
  }
}
