import { copyFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { pushWorkBranch, type Remote } from '../../git/clean-clone.js'
import type { IterationRecord } from '../../loop/engine-types.js'
import { needsEscalation } from '../../loop/stop-reasons.js'
import type { BodyExtras } from '../body-parts.js'
import type { LoopHistory } from '../../state/schema.js'
import { progressBody, runComment } from '../comment-bodies.js'
import type { PreflightStop, PublishContext, PublishResult, Publisher, PublisherSettings } from '../publisher-types.js'
import { attemptChanges } from '../attempt-details.js'
import { changesBetween } from '../changes.js'
import { repositoryUrl, runUrl, uploadAttemptLog } from '../../github/artifact.js'
import { GITHUB_ACTIONS_AUTHOR } from '../../git/author.js'
import { type CommitAuthor } from '../../settings.js'
import type { GitHubClient } from '../../github/client.js'
import { call, PublishError, type RepoRef } from '../../github/api-call.js'
import type { EventPlan } from '../../github/events.js'
import { tokenAuthor } from '../../github/identity.js'
import { closeOwnEscalationIssue, openOrUpdateEscalationIssue } from './escalation-issue.js'
import { openOrUpdateLoopPullRequest, type GitHubSide } from './loop-pull-request.js'
import { Ownership } from './ownership.js'
import { preflightStop, reactToTrigger } from './preflight.js'
import { findOwnProgressComment, ProgressComment } from './progress-comment.js'
import { HistoryRewriteRefused, pushOntoPullRequest } from './pushes.js'
import { ApiCommits } from './api-commits.js'
import { pushUnfinishedWork, pushVerifiedWork, type PushSide } from './work-pushes.js'

interface GitHubPublisherOptions {
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
  /** `sign-commits`: commits created through the GitHub API when the token's identity is a bot's (GitHub signs those). */
  signCommits?: boolean
}

/** Publishes a run to GitHub: pushes from a clean clone first, then the PR, issue or comment. */
export class GitHubPublisher implements Publisher {
  private ownership: Ownership | undefined
  private author: Promise<CommitAuthor> | undefined
  private progress: ProgressComment | undefined
  private progressSettings: PublisherSettings | undefined
  private readonly iterations: IterationRecord[] = []
  /** Where pushes are made from and sent to (through the API when commits are signed). */
  private readonly pushSide: PushSide
  private readonly apiCommits: ApiCommits | undefined

  constructor(private readonly opts: GitHubPublisherOptions) {
    this.apiCommits = opts.signCommits ? new ApiCommits({ client: opts.client, repo: opts.repo, signing: () => this.canSign() }) : undefined
    this.pushSide = { tempDir: opts.tempDir, remote: { ...opts.remote, writer: this.apiCommits } }
  }

  /** GitHub signs the API's commits of an installation token (GITHUB_TOKEN, a GitHub App's): its identity is a bot's. */
  private async canSign(): Promise<boolean> {
    const author = await this.commitAuthor()
    return author.name.endsWith('[bot]')
  }

  /**
   * For the engine's `onIteration`: on a pull request, the run's progress comment is updated with
   * each iteration (the writes are queued; a failed one is a warning).
   */
  readonly onIteration = (record: IterationRecord): void => {
    if (!this.progress || !this.progressSettings) return
    this.iterations.push(record)
    void this.progress.write(progressBody(this.progressSettings, this.iterations, { runLink: runUrl(this.opts.env) }))
  }

  /** The run's progress beat, on the pull request's progress comment too: no more often than LIVE_EDIT_GAP_MS. */
  readonly onProgress = (line: string): void => {
    if (!this.progress || !this.progressSettings) return
    this.progress.writeLive(progressBody(this.progressSettings, this.iterations, { runLink: runUrl(this.opts.env), now: line }))
  }

  private owner(loopId: string): Ownership {
    this.ownership ??= new Ownership({ client: this.opts.client, loopId, recorded: this.opts.recorded ?? [], warn: this.opts.warn })
    return this.ownership
  }

  /** Who a GitHub step works for: the client, the repository, the run, the loop's ownership rule. */
  private side(loopId: string): GitHubSide {
    return { client: this.opts.client, repo: this.opts.repo, env: this.opts.env, warn: this.opts.warn, owner: this.owner(loopId) }
  }

  async preflight(settings: PublisherSettings): Promise<PreflightStop | null> {
    const stop = await preflightStop({ ...this.side(settings.loopId), plan: this.opts.plan }, settings)
    if (!stop) await this.announceStart(settings)
    return stop
  }

  /**
   * The run starts: the triggering comment gets an `eyes` reaction, and a run on a pull request
   * opens its progress comment (taking over the loop's own from an earlier run). Neither failing
   * stops the run.
   */
  private async announceStart(settings: PublisherSettings): Promise<void> {
    const { plan, client, repo } = this.opts
    await reactToTrigger({ plan, client, repo }, this.opts.warn)
    if (plan.kind === 'pull-request') {
      const owner = this.owner(settings.loopId)
      this.progress = new ProgressComment({
        client,
        repo,
        issueNumber: plan.number,
        warn: this.opts.warn,
        existing: () => findOwnProgressComment({ client, repo, owner, pull: plan.number })
      })
      this.progressSettings = settings
      await this.progress.write(progressBody(settings, [], { runLink: runUrl(this.opts.env) }))
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
    if (ctx.outcome.stopReason === 'verified') extras.changes = await changesBetween(ctx.repository, ctx.outcome.startCommit, ctx.outcome.headCommit)
    else {
      extras.attemptChanges = await attemptChanges(ctx.repository, ctx.outcome.startCommit, ctx.outcome.iterations)
      extras.repoUrl = repositoryUrl(this.opts.env)
    }
    try {
      if (ctx.outcome.stopReason === 'verified') {
        await this.publishSuccess(ctx, extras, result)
        await closeOwnEscalationIssue(this.side(ctx.settings.loopId), this.opts.plan, { ctx, result })
      } else if (needsEscalation(ctx.outcome.stopReason)) await this.publishEscalation(ctx, extras, result)
    } catch (err) {
      result.error = err instanceof Error ? err.message : String(err)
    }
    await this.noteSigning(result)
    await this.finishProgress(ctx, extras, result)
    return result
  }

  /** Says how the run's commits reached GitHub when `sign-commits` asked for the API. */
  private async noteSigning(result: PublishResult): Promise<void> {
    if (!this.apiCommits || (!result.branch && !result.wipBranch)) return
    if (this.apiCommits.heads.size > 0) {
      const author = await this.commitAuthor()
      result.notes.push(`commits created through the GitHub API: GitHub signs them as ${author.name}`)
    } else if (!(await this.apiCommits.enabled())) {
      result.notes.push('sign-commits: the token is not an installation token (GITHUB_TOKEN or a GitHub App), whose API commits GitHub signs; pushed with git')
    }
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

  private async uploadLog(ctx: PublishContext): Promise<string | undefined> {
    const progressCopy = path.join(ctx.runDir, 'progress.md')
    const progress = path.join(ctx.settings.workspace, ctx.settings.progressFile)
    if (existsSync(progress)) copyFileSync(progress, progressCopy)
    return uploadAttemptLog({
      loopId: ctx.settings.loopId,
      files: [
        { file: ctx.logFile, name: 'attempts.jsonl' },
        { file: progressCopy, name: 'progress.md' }
      ],
      tempDir: this.opts.tempDir,
      env: this.opts.env,
      warn: this.opts.warn
    })
  }

  private async publishSuccess(ctx: PublishContext, extras: BodyExtras, result: PublishResult): Promise<void> {
    const { settings, outcome } = ctx
    const { plan } = this.opts
    // The verified commit, with loopgate's record of the feature flips verified on it when there is one.
    const commit = outcome.headCommit
    if (settings.onSuccess === 'none') {
      result.notes.push('on-success is none: the verified work was not published')
      return
    }
    if (plan.kind === 'pull-request' && settings.onSuccess === 'push') {
      try {
        await pushVerifiedWork({
          side: this.pushSide,
          run: { ctx, extras, result },
          branch: plan.headBranch,
          push: (clone) => pushOntoPullRequest({ clone, commit, branch: plan.headBranch, startHead: plan.headSha })
        })
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
    await pushVerifiedWork({ side: this.pushSide, run: { ctx, extras, result }, branch, push: (clone) => pushWorkBranch(clone, commit, branch) })
    result.branch = extras.branch = branch
    result.notes.push(`verified work pushed to ${branch}`)
    if (settings.onSuccess === 'push') return
    extras.pushedWithWorkflowToken = (await this.commitAuthor()).email === GITHUB_ACTIONS_AUTHOR.email

    await openOrUpdateLoopPullRequest(this.side(settings.loopId), { ctx, extras, result, branch, base })
  }

  private async publishEscalation(ctx: PublishContext, extras: BodyExtras, result: PublishResult): Promise<void> {
    let pushFailure: Error | undefined
    try {
      extras.wipBranch = await pushUnfinishedWork(this.pushSide, { ctx, extras, result })
      const signed = extras.wipBranch && this.apiCommits?.heads.get(extras.wipBranch)
      if (signed) result.wipHead = signed
    } catch (err) {
      pushFailure = err as Error
    }
    await this.escalate(ctx, extras, result)
    if (pushFailure) throw pushFailure
  }

  /** Asks a person: a comment on the PR (`on-escalate: comment`), or the loop's own escalation issue. */
  private async escalate(ctx: PublishContext, extras: BodyExtras, result: PublishResult): Promise<void> {
    const { settings } = ctx
    const { plan } = this.opts
    if (settings.onEscalate === 'none') return
    if (settings.onEscalate === 'comment' && plan.kind === 'pull-request') {
      result.commentUrl = await this.commentOnPull(plan.number, runComment(ctx, extras, runUrl(this.opts.env)))
      result.pullRequestUrl = plan.url
      return
    }
    await openOrUpdateEscalationIssue(this.side(settings.loopId), { ctx, extras, result })
  }
}
