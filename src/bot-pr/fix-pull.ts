import { repoFromEnv } from '../github/api-call.js'
import { readEventPayload } from '../github/payload.js'
import type { GitRepository } from '../git/repository.js'
import type { GateSettings, PublishSettings, TaskSettings, WorkspaceSettings } from '../settings.js'
import { ProtectedPaths } from '../gate/protection/protected-paths.js'
import { readFailedBotCheck, type FailedBotCheck } from './bot-event.js'
import { botPullOrRefusal, readPull, type BotPull } from './bot-pull.js'
import { readBotBump, type BotBump } from './bot-bump.js'
import { checkOutPullHead, PullMovedOn } from './pull-head.js'
import { botPullTask } from './bot-task.js'

/** What the task reads of the settings: the bots, the token and the workspace. */
type BotPullSettings = Pick<TaskSettings, 'dependencyBots' | 'prompt'> &
  Pick<PublishSettings, 'githubToken'> &
  Pick<GateSettings, 'protectedPaths'> &
  WorkspaceSettings

/** The run ends before anything is spent: a refused event or pull request (skipped), or no way to read it. */
interface BotPullStop {
  kind: 'stop'
  stopReason: 'nothing-to-do' | 'config-error'
  notes: string[]
}

/** The dependency bot's pull request this run fixes, and the check that failed on it. */
interface BotPullFound {
  kind: 'found'
  pull: BotPull
  check: FailedBotCheck
}

const stop = (stopReason: BotPullStop['stopReason'], message: string): BotPullStop => ({ kind: 'stop', stopReason, notes: [message] })

/**
 * The failed check's pull request, read from the event and then from the API through the token:
 * refused (nothing spent, nothing written to the pull request) for another event, a check that did
 * not fail, a fork, an author not in `dependency-bots`, a head that moved on.
 */
async function findBotPull(settings: BotPullSettings, env: NodeJS.ProcessEnv, warn: (line: string) => void): Promise<BotPullFound | BotPullStop> {
  const check = readFailedBotCheck(env.GITHUB_EVENT_NAME ?? '', readEventPayload(env))
  if ('kind' in check) return stop(check.misconfigured ? 'config-error' : 'nothing-to-do', check.message)
  if (!settings.githubToken || !env.GITHUB_REPOSITORY) {
    return stop(
      'config-error',
      `task fix-dependency-pr reads pull request #${check.pull} through the GitHub API: set github-token and run it in GitHub Actions`
    )
  }
  let answer
  try {
    const { createClient } = await import('../github/client.js')
    answer = await readPull(createClient(settings.githubToken, env, warn), repoFromEnv(env), check.pull)
  } catch (err) {
    if (err instanceof PullMovedOn) return stop('nothing-to-do', err.message)
    return stop('config-error', err instanceof Error ? err.message : String(err))
  }
  const pull = botPullOrRefusal(answer, check, settings.dependencyBots)
  if ('kind' in pull) return stop('nothing-to-do', pull.message)
  return { kind: 'found', pull, check }
}

/** The pull request checked out and its bump read: the agent's task, and the bump protection keeps. */
export interface BotPullReady {
  kind: 'ready'
  prompt: string
  bump: BotBump
  notes: string[]
  /** Set when the run may not go on with this bump: why (nothing is spent). */
  refusal?: string
}

/**
 * Protected paths are restored from the base before the first call, so a bump that changes one
 * whole (a workflow's pinned action, a runner's configuration) would be undone by the fix.
 */
function protectedInTheBump(settings: BotPullSettings, pull: BotPull, bump: BotBump): string | undefined {
  const paths = new ProtectedPaths(settings.protectedPaths)
  const hit = bump.files.filter((f) => paths.kind(f) === 'file')
  if (hit.length === 0) return undefined
  return `skipped: pull request #${pull.number} changes protected paths (${hit.slice(0, 10).join(', ')}); loopgate restores those from the base before the agent works, which would undo part of the bump. Review it yourself, or unprotect them with \`!<path>\` in protected-paths.`
}

/** Where the bot's pull request is read and checked out: the runner's environment, the warnings, the workspace's repository (held by the run). */
interface BotPullContext {
  env: NodeJS.ProcessEnv
  warn: (line: string) => void
  repository: GitRepository
}

/**
 * The dependency bot's pull request of this run, checked out with its bump read and its task
 * written; or the stop, before anything is spent or written to the pull request.
 */
export async function readyBotPull(settings: BotPullSettings, at: BotPullContext): Promise<BotPullReady | BotPullStop> {
  const { env, warn } = at
  const found = await findBotPull(settings, env, warn)
  if (found.kind === 'stop') return found
  let ready: BotPullReady
  try {
    ready = await prepareBotPull(settings, found, at)
  } catch (err) {
    if (err instanceof PullMovedOn) return stop('nothing-to-do', err.message)
    return stop('config-error', `fix-dependency-pr could not check out pull request #${found.pull.number}: ${err instanceof Error ? err.message : String(err)}`)
  }
  return ready.refusal ? stop('nothing-to-do', ready.refusal) : ready
}

/** Fetches and checks out the pull request's head (whatever the workflow checked out), reads the bump, writes the task. */
async function prepareBotPull(settings: BotPullSettings, found: BotPullFound, { env, repository }: Omit<BotPullContext, 'warn'>): Promise<BotPullReady> {
  const commits = await checkOutPullHead({ repository, workspace: settings.workspace, token: settings.githubToken, env }, found.pull)
  const bump = await readBotBump(repository, found.pull, commits)
  const { pull, check } = found
  const names = bump.packages.map((p) => `${p.name}${p.to ? ` ${p.to}` : ''}`).join(', ')
  return {
    kind: 'ready',
    prompt: botPullTask(pull, bump, settings.prompt),
    bump,
    refusal: protectedInTheBump(settings, pull, bump),
    notes: [
      `fix-dependency-pr: pull request #${pull.number} by ${pull.author} (${pull.headBranch} at ${pull.headSha.slice(0, 12)}), after the failed ${check.event} ${check.name}; ` +
        `the bump ${bump.baseCommit.slice(0, 7)}..${bump.headCommit.slice(0, 7)} (${names || bump.files.join(', ')}) stays as the bot made it`
    ]
  }
}
