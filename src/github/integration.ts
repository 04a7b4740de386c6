import { remoteFromEnv } from '../git/clean-clone.js'
import type { Settings } from '../inputs.js'
import { DryRunPublisher } from '../publish/dry-run.js'
import type { PreflightStop, Publisher } from '../publish/types.js'
import type { LoopHistory } from '../publish/bodies.js'
import { createClient, repoFromEnv } from './client.js'
import { eventApi } from './event-api.js'
import { isLoopgateCommit, planEvent, settingsForPlan, type EventPlan } from './events.js'
import { readEventPayload } from './payload.js'
import { gatherEvidence, taskWithEvidence } from './evidence.js'
import { GitHubPublisher } from './publisher.js'

export interface Integration {
  plan: EventPlan
  /** The settings adjusted to the event (a PR's base becomes the gate's base). */
  settings: Settings
  publisher: Publisher
}

function eventCheck(plan: EventPlan): (settings: Settings) => Promise<PreflightStop | null> {
  return async () => {
    if (plan.kind === 'skip') return { stopReason: 'nothing-to-do', notes: [plan.message] }
    if (plan.kind === 'refuse') return { stopReason: 'config-error', notes: [plan.message] }
    return null
  }
}

/**
 * Reads the event and picks the publisher: GitHub when running in Actions, the dry-run publisher
 * with `dry-run: true` or outside Actions.
 */
export async function createIntegration(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  tempDir: string,
  warn: (message: string) => void,
  /** The issue and pull request numbers the loop's state records as its own. */
  recorded: number[] = [],
  /** The loop's earlier runs, from its state (the escalation issue's overview). */
  history?: LoopHistory
): Promise<Integration> {
  const inActions = env.GITHUB_ACTIONS === 'true' && !!env.GITHUB_REPOSITORY
  const eventName = inActions ? (env.GITHUB_EVENT_NAME ?? '') : 'workflow_dispatch'
  // Comment and check events are planned with the API (who asked, the pull request now), dry runs too.
  const reader = inActions && settings.githubToken ? { client: createClient(settings.githubToken, env, warn), repo: repoFromEnv(env) } : null
  const plan = await planEvent(settings, eventName, inActions ? readEventPayload(env) : {}, env, (sha) => isLoopgateCommit(settings.workspace, sha), reader ? eventApi(reader.client, reader.repo) : undefined)
  let adjusted = settingsForPlan(settings, plan)
  const evidence = reader ? await gatherEvidence(reader.client, reader.repo, plan) : null
  if (evidence) adjusted = { ...adjusted, prompt: taskWithEvidence(adjusted.prompt, evidence), promptSource: `${adjusted.promptSource} and the evidence of the ${eventName} event` }
  if (settings.dryRun || !inActions) return { plan, settings: adjusted, publisher: new DryRunPublisher(eventCheck(plan)) }
  if (!settings.githubToken) {
    const refuse: EventPlan = { kind: 'refuse', eventName, message: "Input 'github-token' is empty; it is needed to publish (or set 'dry-run: true')." }
    return { plan: refuse, settings: adjusted, publisher: new DryRunPublisher(eventCheck(refuse)) }
  }
  const publisher = new GitHubPublisher({
    plan,
    client: createClient(settings.githubToken, env, warn),
    repo: repoFromEnv(env),
    remote: remoteFromEnv(env, settings.githubToken),
    env,
    tempDir,
    warn,
    recorded,
    history
  })
  return { plan, settings: adjusted, publisher }
}
