import { remoteFromEnv } from '../git/clean-clone.js'
import { createClient } from '../github/client.js'
import { repoFromEnv } from '../github/api-call.js'
import type { EventPlan } from '../github/events.js'
import { GitHubPublisher } from './github/publisher.js'
import type { LoopHistory } from '../state/schema.js'
import { DryRunPublisher } from './dry-run.js'
import type { PreflightStop, Publisher, PublisherSettings } from './publisher-types.js'

/** What a publisher is made from: the run's event plan, where it runs, and the loop's own records. */
export interface PublisherSetup {
  plan: EventPlan
  settings: PublisherSettings
  env: NodeJS.ProcessEnv
  /** The runner's temp folder (clean clones, the attempt log's upload). */
  tempDir: string
  warn: (message: string) => void
  /** The issue and pull request numbers the loop's state records as its own. */
  recorded: number[]
  /** The loop's earlier runs, from its state (the escalation issue's overview). */
  history?: LoopHistory
}

type PublisherFactory = (setup: PublisherSetup) => Publisher

/** The event checks that need no API: a skipped or refused event stops the run before any spend. */
function planCheck(plan: EventPlan): (settings: PublisherSettings) => Promise<PreflightStop | null> {
  return async () => {
    if (plan.kind === 'skip') return { stopReason: 'nothing-to-do', notes: [plan.message] }
    if (plan.kind === 'refuse') return { stopReason: 'config-error', notes: [plan.message] }
    return null
  }
}

/** Where a run's outcome goes. Adding a publisher is one entry here and its own file. */
const PUBLISHERS = new Map<string, PublisherFactory>([
  /** Writes the bodies it would have published to the run folder; publishes nothing. */
  ['dry-run', (setup) => new DryRunPublisher(planCheck(setup.plan))],
  /** Pushes from a clean clone, then opens or updates the pull request, issue or comment. */
  [
    'github',
    (setup) =>
      new GitHubPublisher({
        plan: setup.plan,
        client: createClient(setup.settings.githubToken, setup.env, setup.warn),
        repo: repoFromEnv(setup.env),
        remote: remoteFromEnv(setup.env, setup.settings.githubToken),
        env: setup.env,
        tempDir: setup.tempDir,
        warn: setup.warn,
        recorded: setup.recorded,
        history: setup.history,
        // GitHub signs the API's commits only when they carry no author of their own.
        signCommits: setup.settings.signCommits && !setup.settings.commitAuthor
      })
  ]
])

/** Adds a publisher under `name` (an embedding or a test); a name is registered once. */
export function registerPublisher(name: string, factory: PublisherFactory): void {
  if (PUBLISHERS.has(name)) throw new Error(`a publisher named ${JSON.stringify(name)} is already registered`)
  PUBLISHERS.set(name, factory)
}

export function publisherNames(): string[] {
  return [...PUBLISHERS.keys()]
}

export function createPublisher(name: string, setup: PublisherSetup): Publisher {
  const factory = PUBLISHERS.get(name)
  if (!factory) throw new Error(`unknown publisher ${JSON.stringify(name)} (known: ${publisherNames().join(', ')})`)
  return factory(setup)
}
