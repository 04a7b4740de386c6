import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { needsEscalation } from '../loop/stop-reasons.js'
import { attemptChanges } from './attempt-details.js'
import { changesBetween } from './changes.js'
import { escalationBody } from './escalation-body.js'
import { pullRequestBody, pullRequestTitle } from './pull-request-body.js'
import type { PreflightStop, PublishContext, PublishResult, Publisher, PublisherSettings } from './publisher-types.js'

/** Writes the pull request or issue body it would have opened; publishes nothing. */
export class DryRunPublisher implements Publisher {
  /** `check`: the event checks that need no API (fork PRs, refused events). */
  constructor(private readonly check?: (settings: PublisherSettings) => Promise<PreflightStop | null>) {}

  async preflight(settings: PublisherSettings): Promise<PreflightStop | null> {
    return this.check ? this.check(settings) : null
  }

  async publish(ctx: PublishContext): Promise<PublishResult> {
    if (ctx.outcome.stopReason === 'verified') {
      const file = path.join(ctx.runDir, 'pull-request.md')
      const titleFile = path.join(ctx.runDir, 'pull-request-title.txt')
      const changes = await changesBetween(ctx.repository, ctx.outcome.startCommit, ctx.outcome.headCommit)
      writeFileSync(file, pullRequestBody(ctx, { changes }))
      writeFileSync(titleFile, `${pullRequestTitle(ctx)}\n`)
      return { files: [file, titleFile], notes: [`dry run: the pull request body is in ${file}, its title in ${titleFile}`] }
    }
    if (needsEscalation(ctx.outcome.stopReason)) {
      const file = path.join(ctx.runDir, 'escalation-issue.md')
      const changes = await attemptChanges(ctx.repository, ctx.outcome.startCommit, ctx.outcome.iterations)
      writeFileSync(file, escalationBody(ctx, { wipNote: 'this was a dry run, which pushes nothing', attemptChanges: changes }))
      return { files: [file], notes: [`dry run: the escalation issue body is in ${file}`] }
    }
    return { files: [], notes: [] }
  }
}
