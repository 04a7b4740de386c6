import type { PullRequestEvent, WorkflowDispatchEvent } from '@octokit/webhooks-types'
import { workBranchName } from '../git/branches.js'
import { fetchEnvFor, type FetchCredentials } from '../git/fetch-auth.js'
import { GitRepository } from '../git/repository.js'
import { carriesRunTrailer } from '../git/workspace.js'
import type { GateSettings, PublishSettings, StateSettings, WorkspaceSettings } from '../settings.js'
import { readTrigger, type Trigger, type TriggerRequest } from './triggers.js'

/**
 * What planning an event reads: who may start a run (the comment command, `pull_request_target`),
 * the token (loopgate's own commits), the gate's base, the loop id (its work branch), the workspace.
 */
export type EventSettings = Pick<PublishSettings, 'commentCommand' | 'allowPullRequestTarget' | 'githubToken'> &
  Pick<GateSettings, 'baseRef'> &
  Pick<StateSettings, 'loopId'> &
  WorkspaceSettings

/** What this run works on, decided from the event before anything is spent. */
export type EventPlan =
  | {
      kind: 'branch'
      eventName: string
      /** `loopgate/<loop-id>`, created from the base. */
      workBranch: string
      baseBranch: string
      /** A maintainer's `retry` on the loop's escalation issue. */
      trigger?: Trigger
    }
  | {
      kind: 'pull-request'
      eventName: string
      number: number
      url: string
      headBranch: string
      headSha: string
      /** The PR base: the gate's base. */
      baseBranch: string
      /** A command in a comment or review, or a failed check; absent for `pull_request` events. */
      trigger?: Trigger
    }
  | { kind: 'skip'; eventName: string; message: string }
  | { kind: 'refuse'; eventName: string; message: string }

const PULL_REQUEST_ACTIONS = ['opened', 'synchronize', 'reopened', 'labeled'] as const

function branchOfRef(ref: string | undefined): string | undefined {
  return ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined
}

/**
 * Whether the commit carries loopgate's run trailer (read in the workspace with the hardened git).
 * A commit the clone does not hold (a pull request's head next to the merge commit a depth-1
 * checkout made) is fetched from origin first, through `creds` (see git/fetch-auth.ts).
 */
export async function isLoopgateCommit(repo: GitRepository, sha: string, creds?: FetchCredentials): Promise<boolean> {
  const found = await carriesRunTrailer(repo, sha)
  if (found !== null || !creds || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(sha)) return found === true
  const depth = (await repo.isShallow().catch(() => false)) ? 1 : undefined
  await repo.fetch('origin', [sha], { depth, okCodes: [1, 128], env: await fetchEnvFor(repo, creds) }).catch(() => null)
  return (await carriesRunTrailer(repo, sha)) === true
}

/** What the API says of a pull request, as far as planning goes. */
export interface PullFacts {
  number: number
  html_url: string
  head: { ref: string; sha: string; repo: { full_name: string } | null }
  base: { ref: string; repo: { full_name: string } }
}

/** The API calls planning a comment or check event needs (see github/event-api.ts). */
export interface EventApi {
  /** The user's permission on the repository: `admin`, `maintain`, `write`, `triage`, `read` or `none`. */
  permission(login: string): Promise<string>
  pull(number: number): Promise<PullFacts>
}

const WRITE_PERMISSIONS = new Set(['admin', 'maintain', 'write'])

function forkSkip(eventName: string, pr: PullFacts): EventPlan | null {
  const headRepo = pr.head.repo?.full_name
  const baseRepo = pr.base.repo.full_name
  if (headRepo && headRepo === baseRepo) return null
  return {
    kind: 'skip',
    eventName,
    message: `skipped: pull request #${pr.number} comes from a fork (${headRepo ?? 'a deleted repository'}); loopgate works only on pull requests from branches of ${baseRepo}`
  }
}

/** An event and the trigger read from it, to plan. */
interface TriggerQuestion extends Omit<EventQuestion, 'isOwnCommit'> {
  request: TriggerRequest
}

async function planTrigger({ settings, eventName, request, env, payload, api }: TriggerQuestion): Promise<EventPlan> {
  if (request.kind === 'skip') return { kind: 'skip', eventName, message: request.message }
  if (!api) {
    return {
      kind: 'refuse',
      eventName,
      message: `the ${eventName} event needs the GitHub API to check who asked and which pull request it is: run it in GitHub Actions with a github-token`
    }
  }
  const trigger = request.trigger
  try {
    if (trigger.kind === 'command' || trigger.kind === 'retry') {
      const permission = trigger.author ? await api.permission(trigger.author) : 'none'
      if (!WRITE_PERMISSIONS.has(permission)) {
        return {
          kind: 'skip',
          eventName,
          message: `skipped: ${trigger.author || 'the author'} has '${permission}' permission on this repository; only users with write permission start a run with ${settings.commentCommand}`
        }
      }
    }
    if (request.kind === 'retry') {
      const dispatch = payload as Partial<WorkflowDispatchEvent>
      const baseBranch = settings.baseRef ?? (dispatch.repository?.default_branch as string | undefined) ?? branchOfRef(env.GITHUB_REF) ?? 'main'
      return { kind: 'branch', eventName, workBranch: workBranchName(settings.loopId), baseBranch, trigger: request.trigger }
    }
    const pr = await api.pull(request.pr)
    const fork = forkSkip(eventName, pr)
    if (fork) return fork
    if (trigger.kind === 'failed-check' && trigger.headSha !== pr.head.sha) {
      return {
        kind: 'skip',
        eventName,
        message: `skipped: pull request #${pr.number} has moved on (${pr.head.sha.slice(0, 12)}) since the failed ${trigger.event} on ${trigger.headSha.slice(0, 12)}; the newer commit's checks decide`
      }
    }
    return {
      kind: 'pull-request',
      eventName,
      number: pr.number,
      url: pr.html_url,
      headBranch: pr.head.ref,
      headSha: pr.head.sha,
      baseBranch: pr.base.ref,
      trigger
    }
  } catch (err) {
    return { kind: 'refuse', eventName, message: err instanceof Error ? err.message : String(err) }
  }
}

/** The triggering event with its payload, and what answers the questions it raises. */
interface EventQuestion {
  settings: EventSettings
  eventName: string
  payload: Record<string, unknown>
  env: NodeJS.ProcessEnv
  isOwnCommit?: (sha: string) => Promise<boolean>
  /** For comment and check events: who may ask, and the pull request's current facts. */
  api?: EventApi
}

/**
 * Maps the triggering event to a plan. `isOwnCommit` answers the self-trigger guard: the PR
 * head's newest commit is loopgate's own, so no one has pushed since loopgate did.
 */
export async function planEvent({
  settings,
  eventName,
  payload,
  env,
  // Planned before loopgate holds the repository: its own git directory is the workspace's.
  isOwnCommit = (sha) => isLoopgateCommit(GitRepository.plain(settings.workspace), sha, { token: settings.githubToken, env }),
  api
}: EventQuestion): Promise<EventPlan> {
  const request = readTrigger(eventName, payload, settings.commentCommand)
  if (request) return planTrigger({ settings, eventName, request, env, payload, api })
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    if (eventName === 'pull_request_target' && !settings.allowPullRequestTarget) {
      return {
        kind: 'refuse',
        eventName,
        message:
          'loopgate refuses `pull_request_target`: it runs with a write token on code from the pull request. Use `pull_request`, or set `allow-pull-request-target: true` if you have read why this is dangerous.'
      }
    }
    const event = payload as unknown as PullRequestEvent
    const pr = event.pull_request
    if (!pr?.head || !pr.base) return { kind: 'refuse', eventName, message: `the ${eventName} event payload has no pull_request with a head and a base` }
    if (!(PULL_REQUEST_ACTIONS as readonly string[]).includes(event.action)) {
      return {
        kind: 'skip',
        eventName,
        message: `skipped: pull request #${pr.number} event action '${event.action}' is not one loopgate works on (${PULL_REQUEST_ACTIONS.join(', ')})`
      }
    }
    const fork = forkSkip(eventName, pr)
    if (fork) return fork
    if (await isOwnCommit(pr.head.sha)) {
      return {
        kind: 'skip',
        eventName,
        message: `skipped: the newest commit of pull request #${pr.number} (${pr.head.sha.slice(0, 12)}) is loopgate's own and no one has pushed since`
      }
    }
    return { kind: 'pull-request', eventName, number: pr.number, url: pr.html_url, headBranch: pr.head.ref, headSha: pr.head.sha, baseBranch: pr.base.ref }
  }
  const dispatch = payload as Partial<WorkflowDispatchEvent>
  const baseBranch = settings.baseRef ?? branchOfRef(env.GITHUB_REF) ?? (dispatch.repository?.default_branch as string | undefined) ?? 'main'
  return { kind: 'branch', eventName, workBranch: workBranchName(settings.loopId), baseBranch }
}

/** The settings the loop runs with under this plan: a PR's base is the gate's base. */
export function settingsForPlan<S extends Pick<GateSettings, 'baseRef'>>(settings: S, plan: EventPlan): S {
  if (plan.kind === 'pull-request' && !settings.baseRef) return { ...settings, baseRef: plan.baseBranch }
  return settings
}
