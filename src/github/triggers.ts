import type {
  CheckSuiteCompletedEvent,
  IssueCommentCreatedEvent,
  PullRequestReviewCommentCreatedEvent,
  PullRequestReviewSubmittedEvent,
  WorkflowRunCompletedEvent
} from '@octokit/webhooks-types'

/** The events beyond `pull_request` that start a loop run. */
const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment', 'pull_request_review'] as const
const CHECK_EVENTS = ['check_suite', 'workflow_run'] as const
type CommentEvent = (typeof COMMENT_EVENTS)[number]
type CheckEvent = (typeof CHECK_EVENTS)[number]

/** What started the run, beyond the pull request or branch it works on. */
export type Trigger =
  | {
      kind: 'command'
      event: CommentEvent
      author: string
      /** The comment's words after the command (people's text: shown and passed on only as data). */
      words: string
      /** The comment to react to, and which reactions API it belongs to (a review has none). */
      comment: { id: number; kind: 'issue-comment' | 'review-comment' } | null
    }
  | { kind: 'failed-check'; event: CheckEvent; headSha: string; checkSuiteId: number | null; workflowRunId: number | null; name: string }
  | {
      kind: 'retry'
      /** The escalation issue the maintainer replied on. */
      issue: { number: number; body: string | null; author: string | null }
      author: string
      words: string
      comment: { id: number; kind: 'issue-comment' }
    }

/** What one of these events asks for, read from its payload before any API call. */
export type TriggerRequest =
  { kind: 'pull-request'; pr: number; trigger: Trigger } | { kind: 'retry'; trigger: Extract<Trigger, { kind: 'retry' }> } | { kind: 'skip'; message: string }

/** The words after `command` when the comment starts with it (on its first non-blank line), else null. */
export function commandWords(body: string | null | undefined, command: string): string | null {
  const text = (body ?? '').replace(/\r\n?/g, '\n').trimStart()
  if (!text.startsWith(command)) return null
  const rest = text.slice(command.length)
  if (rest !== '' && !/^\s/.test(rest)) return null
  return rest.trim()
}

/** `retry` as the first word after the command; the words after it are the maintainer's. */
function retryWords(words: string): string | null {
  const m = /^retry(?:\s+([\s\S]*))?$/i.exec(words)
  return m ? (m[1] ?? '').trim() : null
}

const skip = (message: string): TriggerRequest => ({ kind: 'skip', message })

function commentRequest(event: CommentEvent, payload: Record<string, unknown>, command: string): TriggerRequest {
  if (event === 'issue_comment') {
    const e = payload as unknown as IssueCommentCreatedEvent
    if (e.action !== 'created') return skip(`skipped: issue_comment action '${String(e.action)}' (only new comments start a run)`)
    const words = commandWords(e.comment?.body, command)
    if (words === null) return skip(`skipped: the comment does not start with ${command}`)
    const author = e.comment.user?.login ?? ''
    const comment = { id: e.comment.id, kind: 'issue-comment' as const }
    if (e.issue.pull_request) return { kind: 'pull-request', pr: e.issue.number, trigger: { kind: 'command', event, author, words, comment } }
    const retry = retryWords(words)
    if (retry === null) return skip(`skipped: on an issue, loopgate answers only \`${command} retry\` (on the loop's escalation issue)`)
    return {
      kind: 'retry',
      trigger: {
        kind: 'retry',
        issue: { number: e.issue.number, body: e.issue.body ?? null, author: e.issue.user?.login ?? null },
        author,
        words: retry,
        comment
      }
    }
  }
  if (event === 'pull_request_review_comment') {
    const e = payload as unknown as PullRequestReviewCommentCreatedEvent
    if (e.action !== 'created') return skip(`skipped: pull_request_review_comment action '${String(e.action)}' (only new comments start a run)`)
    const words = commandWords(e.comment?.body, command)
    if (words === null) return skip(`skipped: the review comment does not start with ${command}`)
    return {
      kind: 'pull-request',
      pr: e.pull_request.number,
      trigger: { kind: 'command', event, author: e.comment.user?.login ?? '', words, comment: { id: e.comment.id, kind: 'review-comment' } }
    }
  }
  const e = payload as unknown as PullRequestReviewSubmittedEvent
  if (e.action !== 'submitted') return skip(`skipped: pull_request_review action '${String(e.action)}' (only submitted reviews start a run)`)
  const words = commandWords(e.review?.body, command)
  if (words === null) return skip(`skipped: the review does not start with ${command}`)
  return { kind: 'pull-request', pr: e.pull_request.number, trigger: { kind: 'command', event, author: e.review.user?.login ?? '', words, comment: null } }
}

interface CheckFacts {
  conclusion: string | null
  headSha: string
  repositoryId: number
  pullRequests: { number: number; head: { repo: { id: number } }; base: { repo: { id: number } } }[]
}

/** A completed check suite or workflow run, read into one shape (null for any other action). */
function completedCheck(
  event: CheckEvent,
  payload: Record<string, unknown>
): { facts: CheckFacts; trigger: Extract<Trigger, { kind: 'failed-check' }> } | null {
  const suite = event === 'check_suite' ? (payload as unknown as CheckSuiteCompletedEvent) : null
  const run = suite ? null : (payload as unknown as WorkflowRunCompletedEvent)
  const source = suite?.check_suite ?? run?.workflow_run
  if (payload.action !== 'completed' || !source) return null
  const facts = {
    conclusion: source.conclusion,
    headSha: source.head_sha,
    repositoryId: (payload as { repository: { id: number } }).repository.id,
    pullRequests: source.pull_requests ?? []
  }
  const ids = suite?.check_suite
    ? { checkSuiteId: suite.check_suite.id, workflowRunId: null, name: suite.check_suite.app?.name ?? 'check suite' }
    : { checkSuiteId: run?.workflow_run.check_suite_id ?? null, workflowRunId: run?.workflow_run.id ?? null, name: run?.workflow_run.name ?? 'workflow' }
  return { facts, trigger: { kind: 'failed-check', event, headSha: source.head_sha, ...ids } }
}

function checkRequest(event: CheckEvent, payload: Record<string, unknown>): TriggerRequest {
  const check = completedCheck(event, payload)
  if (!check) {
    const what = event === 'check_suite' ? 'only completed suites are read' : 'only completed runs are read'
    return skip(`skipped: ${event} action '${String(payload.action)}' (${what})`)
  }
  const { facts, trigger } = check
  if (facts.conclusion !== 'failure') return skip(`skipped: the ${event} concluded '${String(facts.conclusion)}', not 'failure'`)
  // GitHub leaves the list empty for fork heads; a listed pull request is also checked here.
  const pr = facts.pullRequests.find((p) => p.head.repo.id === facts.repositoryId && p.base.repo.id === facts.repositoryId)
  if (!pr) return skip(`skipped: the failed ${event} belongs to no pull request from a branch of this repository`)
  return { kind: 'pull-request', pr: pr.number, trigger }
}

/** Reads a comment or check event; null for the events this module does not know. */
export function readTrigger(eventName: string, payload: Record<string, unknown>, command: string): TriggerRequest | null {
  if ((COMMENT_EVENTS as readonly string[]).includes(eventName)) return commentRequest(eventName as CommentEvent, payload, command)
  if ((CHECK_EVENTS as readonly string[]).includes(eventName)) return checkRequest(eventName as CheckEvent, payload)
  return null
}

/** The pull request an event is about (pull_request events, PR comments and reviews, failed checks), else null. */
export function pullRequestNumberOf(eventName: string, payload: Record<string, unknown>, command: string): number | null {
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    const n = (payload as { pull_request?: { number?: unknown }; number?: unknown }).pull_request?.number ?? payload.number
    return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null
  }
  const request = readTrigger(eventName, payload, command)
  return request?.kind === 'pull-request' ? request.pr : null
}
