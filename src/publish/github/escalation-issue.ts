import type { BodyExtras } from '../body-parts.js'
import { escalationBody, escalationTitle } from '../escalation-body.js'
import { closingComment, runComment } from '../comment-bodies.js'
import type { PublishContext, PublishResult } from '../publisher-types.js'
import { runUrl } from '../../github/artifact.js'
import { call } from '../../github/api-call.js'
import type { EventPlan } from '../../github/events.js'
import type { GitHubSide } from './loop-pull-request.js'

const ESCALATION_LABEL = 'loopgate'

/**
 * The loop's one escalation issue: when it is open, its body is updated to say where things stand
 * and the run adds one comment; otherwise a new one is opened (labels, assignees).
 */
export async function openOrUpdateEscalationIssue(gh: GitHubSide, run: { ctx: PublishContext; extras: BodyExtras; result: PublishResult }): Promise<void> {
  const { client, repo } = gh
  const { ctx, extras, result } = run
  const { settings } = ctx
  const issues = await call('find an open escalation issue', 'issues: read', () =>
    client.paginate(client.rest.issues.listForRepo, { ...repo, state: 'open', labels: ESCALATION_LABEL, per_page: 100 })
  )
  const open = await gh.owner.findOwn(issues.filter((i) => !i.pull_request))
  if (open) {
    // One body that says where things stand, and one comment per run.
    await call(`update escalation issue #${open.number}`, 'issues: write', () =>
      client.rest.issues.update({ ...repo, issue_number: open.number, title: escalationTitle(ctx, extras), body: escalationBody(ctx, extras) })
    )
    const comment = await call(`comment on escalation issue #${open.number}`, 'issues: write', () =>
      client.rest.issues.createComment({ ...repo, issue_number: open.number, body: runComment(ctx, extras, runUrl(gh.env)) })
    )
    if (settings.escalateTo.length > 0) {
      await call(`assign escalation issue #${open.number}`, 'issues: write', () =>
        client.rest.issues.addAssignees({ ...repo, issue_number: open.number, assignees: settings.escalateTo })
      )
    }
    result.issueUrl = open.html_url
    result.commentUrl = comment.data.html_url
    result.notes.push(`commented on the open escalation issue #${open.number}`)
    return
  }
  const labels = [ESCALATION_LABEL, ...settings.labels.filter((l) => l !== ESCALATION_LABEL)]
  const created = await call('open the escalation issue', 'issues: write', () =>
    client.rest.issues.create({
      ...repo,
      title: escalationTitle(ctx, extras),
      body: escalationBody(ctx, extras),
      labels,
      assignees: settings.escalateTo
    })
  )
  result.issueUrl = created.data.html_url
  result.notes.push(`opened escalation issue #${created.data.number}`)
}

/**
 * A verified run closes the loop's open escalation issue with a comment linking the work. A pull
 * request loop closes only the issue its own state records (another pull request's run of the
 * same loop may have opened the others). A failure is a note and a warning.
 */
export async function closeOwnEscalationIssue(gh: GitHubSide, plan: EventPlan, run: { ctx: PublishContext; result: PublishResult }): Promise<void> {
  const { client, repo, owner } = gh
  const { ctx, result } = run
  const { settings, outcome } = ctx
  try {
    const issues = await call('find an open escalation issue', 'issues: read', () =>
      client.paginate(client.rest.issues.listForRepo, { ...repo, state: 'open', labels: ESCALATION_LABEL, per_page: 100 })
    )
    const candidates = issues.filter((i) => !i.pull_request && (plan.kind !== 'pull-request' || owner.isRecorded(i.number)))
    const open = await owner.findOwn(candidates)
    if (!open) return
    const body = closingComment(
      settings.loopId,
      { pullRequestUrl: result.pullRequestUrl, branch: result.branch, commit: outcome.verifiedCommit },
      runUrl(gh.env)
    )
    await call(`comment on escalation issue #${open.number}`, 'issues: write', () =>
      client.rest.issues.createComment({ ...repo, issue_number: open.number, body })
    )
    await call(`close escalation issue #${open.number}`, 'issues: write', () =>
      client.rest.issues.update({ ...repo, issue_number: open.number, state: 'closed', state_reason: 'completed' })
    )
    result.notes.push(`closed the escalation issue #${open.number}: this run verified`)
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    result.notes.push(`the open escalation issue was not closed: ${message.split('\n')[0]}`)
    gh.warn(`loopgate: the open escalation issue was not closed: ${message}`)
  }
}
