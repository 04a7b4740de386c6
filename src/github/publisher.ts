import { copyFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { wipBranchName } from '../git/branches.js'
import { PushRejectedError, pushWorkBranch, withCleanClone, type CleanClone, type Remote } from '../git/clean-clone.js'
import type { IterationRecord } from '../loop/types.js'
import { needsEscalation } from '../loop/stop-reasons.js'
import { closingComment, progressBody, runComment } from '../publish/comment-bodies.js'
import type { BodyExtras, LoopHistory } from '../publish/body-parts.js'
import type { PreflightStop, PublishContext, PublishResult, Publisher, PublisherSettings } from '../publish/types.js'
import { changesBetween } from '../publish/changes.js'
import { runUrl, uploadAttemptLog } from './artifact.js'
import { GITHUB_ACTIONS_AUTHOR, type CommitAuthor } from '../git/author.js'
import { actorRefusal, runActors } from './actor.js'
import { openLoopPulls } from './capacity.js'
import { call, PublishError, WORKFLOW_PERMISSIONS, type GitHubClient, type RepoRef } from './client.js'
import type { EventPlan } from './events.js'
import { readEventPayload } from './payload.js'
import { tokenAuthor } from './identity.js'
import { openOrUpdateEscalationIssue, ESCALATION_LABEL } from './escalation-issue.js'
import { openOrUpdateLoopPullRequest } from './loop-pull-request.js'
import { Ownership } from './ownership.js'
import { ProgressComment, PROGRESS_TAG, type ExistingComment } from './progress-comment.js'
import { HistoryRewriteRefused, pushOntoPullRequest, pushWipFromWorkspace } from './pushes.js'

export interface GitHubPublisherOptions {
  plan: EventPlan
  client: GitHubClient
  repo: RepoRef
  remote: Remote
  env: NodeJS.ProcessEnv
  tempDir: string
  warn: (message: string) => void
  /** The issue and pull request numbers the loop's state records as its own. */
  recorded?: number[]
  /** The loop's earlier runs (from its state), for the escalation issue's overview. */
  history?: LoopHistory
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

/** Publishes a run to GitHub: pushes from a clean clone first, then the PR, issue or comment. */
export class GitHubPublisher implements Publisher {
  private ownership: Ownership | undefined
  private author: Promise<CommitAuthor> | undefined
  private progress: ProgressComment | undefined
  private progressSettings: PublisherSettings | undefined
  private readonly iterations: IterationRecord[] = []

  constructor(private readonly opts: GitHubPublisherOptions) {}

  /**
   * For the engine's `onIteration`: on a pull request, the run's progress comment is updated with
   * each iteration (the writes are queued; a failed one is a warning).
   */
  readonly onIteration = (record: IterationRecord): void => {
    if (!this.progress || !this.progressSettings) return
    this.iterations.push(record)
    void this.progress.write(progressBody(this.progressSettings, this.iterations, runUrl(this.opts.env)))
  }

  private owner(loopId: string): Ownership {
    this.ownership ??= new Ownership(this.opts.client, loopId, this.opts.recorded ?? [], this.opts.warn)
    return this.ownership
  }

  async preflight(settings: PublisherSettings): Promise<PreflightStop | null> {
    const stop = await this.check(settings)
    if (!stop) await this.announceStart(settings)
    return stop
  }

  /**
   * The run starts: the triggering comment gets an `eyes` reaction, and a run on a pull request
   * opens its progress comment. Neither failing stops the run.
   */
  private async announceStart(settings: PublisherSettings): Promise<void> {
    const { plan, client, repo } = this.opts
    const trigger = plan.kind === 'pull-request' || plan.kind === 'branch' ? plan.trigger : undefined
    const comment = trigger && (trigger.kind === 'command' || trigger.kind === 'retry') ? trigger.comment : null
    if (comment) {
      try {
        if (comment.kind === 'issue-comment') await client.rest.reactions.createForIssueComment({ ...repo, comment_id: comment.id, content: 'eyes' })
        else await client.rest.reactions.createForPullRequestReviewComment({ ...repo, comment_id: comment.id, content: 'eyes' })
      } catch (err) {
        this.opts.warn(`loopgate: could not react to the triggering comment: ${(err as Error).message.split('\n')[0]}`)
      }
    }
    if (plan.kind === 'pull-request') {
      this.progress = new ProgressComment(client, repo, plan.number, this.opts.warn, () => this.ownProgressComment(settings.loopId, plan.number))
      this.progressSettings = settings
      await this.progress.write(progressBody(settings, [], runUrl(this.opts.env)))
    }
  }

  /** The loop's progress comment from an earlier run on this pull request, if there is one (the newest). */
  private async ownProgressComment(loopId: string, pull: number): Promise<ExistingComment> {
    const { client, repo } = this.opts
    const comments = await call(`list the comments of #${pull}`, 'pull-requests: read', () =>
      client.paginate(client.rest.issues.listComments, { ...repo, issue_number: pull, per_page: 100 })
    )
    for (const c of [...comments].reverse()) {
      if ((c.body ?? '').split('\n')[1] !== PROGRESS_TAG) continue
      if (await this.owner(loopId).isOwnComment(c)) return { id: c.id, html_url: c.html_url }
    }
    return null
  }

  private async check(settings: PublisherSettings): Promise<PreflightStop | null> {
    const { plan } = this.opts
    if (plan.kind === 'skip') return { stopReason: 'nothing-to-do', notes: [plan.message] }
    if (plan.kind === 'refuse') return { stopReason: 'config-error', notes: [plan.message] }
    const refusal = await actorRefusal(this.opts.client, this.opts.repo, runActors(this.opts.env, readEventPayload(this.opts.env)), settings)
    if (refusal) return { stopReason: 'nothing-to-do', notes: [refusal] }
    if (plan.kind === 'branch' && plan.trigger?.kind === 'retry') {
      const { issue } = plan.trigger
      let own: boolean
      try {
        own = await this.owner(settings.loopId).isOwn({ number: issue.number, body: issue.body, user: { login: issue.author } })
      } catch (err) {
        return { stopReason: 'config-error', notes: [err instanceof Error ? err.message : String(err)] }
      }
      if (!own) {
        return {
          stopReason: 'nothing-to-do',
          notes: [`skipped: issue #${issue.number} is not this loop's escalation issue (loop ${settings.loopId}); a retry is answered only there`]
        }
      }
    }
    if (plan.kind !== 'branch' || settings.onSuccess === 'none') return null
    let open
    try {
      open = await openLoopPulls(this.opts.client, this.opts.repo, settings.loopId, settings.labels, this.owner(settings.loopId))
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

  /** The token's own identity (see tokenAuthor), learned once. */
  commitAuthor(): Promise<CommitAuthor> {
    this.author ??= tokenAuthor(this.opts.client, this.opts.warn)
    return this.author
  }

  async publish(ctx: PublishContext): Promise<PublishResult> {
    const result: PublishResult = { files: [], notes: [] }
    result.logUrl = await this.uploadLog(ctx)
    const extras: BodyExtras = { logUrl: result.logUrl ?? runUrl(this.opts.env) }
    if (this.opts.history) extras.history = this.opts.history
    if (ctx.outcome.stopReason === 'verified') extras.changes = await changesBetween(ctx.settings.workspace, ctx.outcome.startCommit, ctx.outcome.headCommit)
    try {
      if (ctx.outcome.stopReason === 'verified') {
        await this.publishSuccess(ctx, extras, result)
        await this.closeEscalation(ctx, result)
      } else if (needsEscalation(ctx.outcome.stopReason)) await this.publishEscalation(ctx, extras, result)
    } catch (err) {
      result.error = err instanceof Error ? err.message : String(err)
    }
    await this.finishProgress(ctx, extras, result)
    return result
  }

  /** The progress comment ends with the run's outcome (when no other step already wrote it there). */
  private async finishProgress(ctx: PublishContext, extras: BodyExtras, result: PublishResult): Promise<void> {
    if (!this.progress || this.progressDone) return
    const published = [result.pullRequestUrl && `Pull request: ${result.pullRequestUrl}`, result.issueUrl && `Escalation issue: ${result.issueUrl}`]
      .filter(Boolean)
      .join(' · ')
    const body = runComment(ctx, extras, runUrl(this.opts.env)) + (published ? `\n\n${published}` : '')
    try {
      result.commentUrl = await this.progress.finish(body)
      this.progressDone = true
    } catch (err) {
      result.error ??= err instanceof Error ? err.message : String(err)
    }
  }

  private progressDone = false

  /** The run's comment on the pull request: its progress comment, edited, or a new comment. */
  private async commentOnPull(pr: number, body: string): Promise<string> {
    if (this.progress) {
      const url = await this.progress.finish(body)
      this.progressDone = true
      if (url) return url
    }
    const comment = await call(`comment on pull request #${pr}`, 'pull-requests: write', () =>
      this.opts.client.rest.issues.createComment({ ...this.opts.repo, issue_number: pr, body })
    )
    return comment.data.html_url
  }

  /**
   * A verified run closes the loop's open escalation issue with a comment linking the work. A pull
   * request loop closes only the issue its own state records (another pull request's run of the
   * same loop may have opened the others).
   */
  private async closeEscalation(ctx: PublishContext, result: PublishResult): Promise<void> {
    const { plan, client, repo } = this.opts
    const { settings, outcome } = ctx
    try {
      const issues = await call('find an open escalation issue', 'issues: read', () =>
        client.paginate(client.rest.issues.listForRepo, { ...repo, state: 'open', labels: ESCALATION_LABEL, per_page: 100 })
      )
      const owner = this.owner(settings.loopId)
      const candidates = issues.filter((i) => !i.pull_request && (plan.kind !== 'pull-request' || owner.isRecorded(i.number)))
      const open = await owner.findOwn(candidates)
      if (!open) return
      const body = closingComment(
        settings.loopId,
        { pullRequestUrl: result.pullRequestUrl, branch: result.branch, commit: outcome.verifiedCommit },
        runUrl(this.opts.env)
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
      this.opts.warn(`loopgate: the open escalation issue was not closed: ${message}`)
    }
  }

  private async uploadLog(ctx: PublishContext): Promise<string | undefined> {
    const progressCopy = path.join(ctx.runDir, 'progress.md')
    const progress = path.join(ctx.settings.workspace, ctx.settings.progressFile)
    if (existsSync(progress)) copyFileSync(progress, progressCopy)
    return uploadAttemptLog(
      ctx.settings.loopId,
      [
        { file: ctx.logFile, name: 'attempts.jsonl' },
        { file: progressCopy, name: 'progress.md' }
      ],
      this.opts.tempDir,
      this.opts.env,
      this.opts.warn
    )
  }

  private withClone<T>(ctx: PublishContext, commit: string, fn: (clone: CleanClone) => Promise<T>): Promise<T> {
    return withCleanClone(this.opts.tempDir, ctx.settings.workspace, commit, this.opts.remote, fn)
  }

  /**
   * Pushes unfinished work to `loopgate/<loop-id>-wip`; returns the branch, or undefined if there is
   * none. When the push fails, `extras.wipNote` says why for the bodies.
   */
  private async pushWip(ctx: PublishContext, extras: BodyExtras, result: PublishResult): Promise<string | undefined> {
    const { outcome } = ctx
    if (outcome.headCommit === outcome.startCommit) return undefined
    const branch = wipBranchName(ctx.settings.loopId)
    try {
      await pushWipFromWorkspace({ tempDir: this.opts.tempDir, workspace: ctx.settings.workspace, head: outcome.headCommit, remote: this.opts.remote, branch })
    } catch (err) {
      const failure = pushError(err, branch)
      extras.wipNote = `pushing it to \`${branch}\` failed (${failure.message.split('\n')[0]})`
      throw failure
    }
    result.wipBranch = branch
    result.notes.push(`unfinished work pushed to ${branch}`)
    return branch
  }

  /**
   * Pushes the verified commit with `push`. When the branch moved under loopgate, the work goes to
   * the WIP branch instead and publishing fails saying so; a history rewrite refusal is the caller's.
   */
  private async pushVerified(
    ctx: PublishContext,
    extras: BodyExtras,
    result: PublishResult,
    branch: string,
    push: (clone: CleanClone) => Promise<void>
  ): Promise<void> {
    try {
      await this.withClone(ctx, ctx.outcome.headCommit, push)
    } catch (err) {
      if (err instanceof HistoryRewriteRefused) throw err
      if (err instanceof PushRejectedError) {
        extras.wipBranch = await this.pushWip(ctx, extras, result)
        throw new PublishError(`${err.message}; the verified work is on ${extras.wipBranch ?? 'no branch'} instead`)
      }
      throw pushError(err, branch)
    }
  }

  private async publishSuccess(ctx: PublishContext, extras: BodyExtras, result: PublishResult): Promise<void> {
    const { settings, outcome } = ctx
    const { plan, client, repo } = this.opts
    // The verified commit, with loopgate's record of the feature flips verified on it when there is one.
    const commit = outcome.headCommit
    if (settings.onSuccess === 'none') {
      result.notes.push('on-success is none: the verified work was not published')
      return
    }
    if (plan.kind === 'pull-request' && settings.onSuccess === 'push') {
      try {
        await this.pushVerified(ctx, extras, result, plan.headBranch, (clone) => pushOntoPullRequest(clone, commit, plan.headBranch, plan.headSha))
      } catch (err) {
        if (!(err instanceof HistoryRewriteRefused)) throw err
        // The verified commit itself is what is wrong: it is pushed nowhere, and a person is asked.
        result.notes.push(err.message)
        extras.refusal = { branch: err.branch, startHead: err.startHead, commit: err.commit }
        await this.escalate(ctx, extras, result)
        throw new PublishError(err.message)
      }
      result.branch = extras.branch = plan.headBranch
      result.pullRequestUrl = plan.url
      result.commentUrl = await this.commentOnPull(plan.number, runComment(ctx, extras, runUrl(this.opts.env)))
      return
    }

    const branch = ctx.upgrade?.branch ?? (plan.kind === 'branch' ? plan.workBranch : `loopgate/${settings.loopId}`)
    const base = plan.kind === 'branch' ? plan.baseBranch : plan.kind === 'pull-request' ? plan.headBranch : 'main'
    await this.pushVerified(ctx, extras, result, branch, (clone) => pushWorkBranch(clone, commit, branch))
    result.branch = extras.branch = branch
    result.notes.push(`verified work pushed to ${branch}`)
    if (settings.onSuccess === 'push') return
    extras.pushedWithWorkflowToken = (await this.commitAuthor()).email === GITHUB_ACTIONS_AUTHOR.email

    await openOrUpdateLoopPullRequest(
      { client, repo, env: this.opts.env, warn: this.opts.warn, owner: this.owner(settings.loopId) },
      { ctx, extras, result, branch, base }
    )
  }

  private async publishEscalation(ctx: PublishContext, extras: BodyExtras, result: PublishResult): Promise<void> {
    let pushFailure: Error | undefined
    try {
      extras.wipBranch = await this.pushWip(ctx, extras, result)
    } catch (err) {
      pushFailure = err as Error
    }
    await this.escalate(ctx, extras, result)
    if (pushFailure) throw pushFailure
  }

  /** Asks a person: a comment on the PR (`on-escalate: comment`), or the loop's own escalation issue. */
  private async escalate(ctx: PublishContext, extras: BodyExtras, result: PublishResult): Promise<void> {
    const { settings } = ctx
    const { plan, client, repo } = this.opts
    if (settings.onEscalate === 'none') return
    if (settings.onEscalate === 'comment' && plan.kind === 'pull-request') {
      result.commentUrl = await this.commentOnPull(plan.number, runComment(ctx, extras, runUrl(this.opts.env)))
      result.pullRequestUrl = plan.url
      return
    }
    await openOrUpdateEscalationIssue({ client, repo, env: this.opts.env, warn: this.opts.warn, owner: this.owner(settings.loopId) }, { ctx, extras, result })
  }
}
