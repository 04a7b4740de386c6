import { createPublisher } from '../publishers.js'
import type { Publisher, PublisherSettings } from '../publisher-types.js'
import type { LoopHistory } from '../../state/schema.js'
import { createClient } from '../../github/client.js'
import { repoFromEnv } from '../../github/api-call.js'
import { eventApi } from '../../github/event-api.js'
import { isLoopgateCommit, planEvent, settingsForPlan, type EventPlan, type EventSettings } from '../../github/events.js'
import { GitRepository } from '../../git/repository.js'
import { readEventPayload } from '../../github/payload.js'
import { gatherEvidence, taskWithEvidence } from '../../github/review-evidence.js'

/** What the integration reads: the event's settings and the publisher's (its dry-run switch among them). */
type IntegrationSettings = EventSettings & PublisherSettings

/** `S`: the caller's settings, handed back adjusted with nothing dropped. */
interface Integration<S extends IntegrationSettings = IntegrationSettings> {
  plan: EventPlan
  /** The settings adjusted to the event (a PR's base becomes the gate's base). */
  settings: S
  publisher: Publisher
}

/**
 * Reads the event and picks the publisher from the registry: `github` when running in Actions,
 * `dry-run` with `dry-run: true` or outside Actions (or without a token, refusing the run).
 */
/** What the integration is built from: the settings, the runner's environment and the loop's state. */
interface IntegrationOptions<S extends IntegrationSettings> {
  settings: S
  env: NodeJS.ProcessEnv
  tempDir: string
  warn: (message: string) => void
  /** The issue and pull request numbers the loop's state records as its own. */
  recorded?: number[]
  /** The loop's earlier runs, from its state (the escalation issue's overview). */
  history?: LoopHistory
  /** A publisher's name in the registry (src/publish/publishers.ts); by default `dry-run` for a dry run or outside Actions, else `github`. */
  publisher?: string
}

export async function createIntegration<S extends IntegrationSettings>(opts: IntegrationOptions<S>): Promise<Integration<S>> {
  const { settings, env, tempDir, warn, recorded = [], history, publisher } = opts
  const inActions = env.GITHUB_ACTIONS === 'true' && !!env.GITHUB_REPOSITORY
  const eventName = inActions ? (env.GITHUB_EVENT_NAME ?? '') : 'workflow_dispatch'
  // Comment and check events are planned with the API (who asked, the pull request now), dry runs too.
  const reader = inActions && settings.githubToken ? { client: createClient(settings.githubToken, env, warn), repo: repoFromEnv(env) } : null
  const plan = await planEvent({
    settings,
    eventName,
    payload: inActions ? readEventPayload(env) : {},
    env,
    // Planned before loopgate holds the repository: its own git directory is the workspace's.
    isOwnCommit: (sha) => isLoopgateCommit(GitRepository.plain(settings.workspace), sha),
    api: reader ? eventApi(reader.client, reader.repo) : undefined
  })
  let adjusted = settingsForPlan(settings, plan)
  const evidence = reader ? await gatherEvidence(reader.client, reader.repo, plan) : null
  if (evidence)
    adjusted = {
      ...adjusted,
      prompt: taskWithEvidence(adjusted.prompt, evidence),
      promptSource: `${adjusted.promptSource} and the evidence of the ${eventName} event`
    }
  let chosen = publisher ?? (settings.dryRun || !inActions ? 'dry-run' : 'github')
  let planned = plan
  if (chosen === 'github' && !settings.githubToken) {
    planned = { kind: 'refuse', eventName, message: "Input 'github-token' is empty; it is needed to publish (or set 'dry-run: true')." }
    chosen = 'dry-run'
  }
  return { plan: planned, settings: adjusted, publisher: createPublisher(chosen, { plan: planned, settings: adjusted, env, tempDir, warn, recorded, history }) }
}
