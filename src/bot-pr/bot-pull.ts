import type { GitHubClient } from '../github/client.js'
import { call, type RepoRef } from '../github/api-call.js'
import { isDependencyBot } from './bot-settings.js'
import type { BotEventRefusal, FailedBotCheck } from './bot-event.js'

/** A dependency bot's pull request, as the API answers it. */
export interface BotPull {
  number: number
  url: string
  author: string
  title: string
  body: string
  headBranch: string
  headSha: string
  baseBranch: string
}

/** The answer of `pulls.get`, as far as this task reads it. */
interface PullAnswer {
  number: number
  html_url: string
  title: string
  body: string | null
  user: { login: string } | null
  head: { ref: string; sha: string; repo: { full_name: string } | null }
  base: { ref: string; repo: { full_name: string } }
}

/** Reads the pull request through the token. */
export async function readPull(client: GitHubClient, repo: RepoRef, number: number): Promise<PullAnswer> {
  const answer = await call(`read pull request #${number}`, 'pull-requests: read', () => client.rest.pulls.get({ ...repo, pull_number: number }))
  return answer.data as PullAnswer
}

/**
 * The pull request the task may work on, or why not: one from a fork never (the workflow_run
 * runs with the base repository's secrets and a write token), one whose author is not in
 * `dependency-bots` never, one that moved on since the check failed (the newer head's checks decide).
 */
export function botPullOrRefusal(pr: PullAnswer, check: FailedBotCheck, bots: readonly string[]): BotPull | BotEventRefusal {
  const headRepo = pr.head.repo?.full_name
  const baseRepo = pr.base.repo.full_name
  if (headRepo !== baseRepo) {
    return {
      kind: 'refused',
      message: `skipped: pull request #${pr.number} comes from a fork (${headRepo ?? 'a deleted repository'}); fix-dependency-pr never runs on a fork's code with ${baseRepo}'s token and secrets`
    }
  }
  const author = pr.user?.login ?? ''
  if (!isDependencyBot(author, bots)) {
    return {
      kind: 'refused',
      message: `skipped: pull request #${pr.number} was opened by ${author || 'an unknown account'}, not by one of dependency-bots (${bots.join(', ') || 'none'}); fix-dependency-pr works only on those bots' pull requests`
    }
  }
  if (pr.head.sha !== check.headSha) {
    return {
      kind: 'refused',
      message: `skipped: pull request #${pr.number} has moved on (${pr.head.sha.slice(0, 12)}) since the ${check.event} failed on ${check.headSha.slice(0, 12)}; the newer commit's checks decide`
    }
  }
  return {
    number: pr.number,
    url: pr.html_url,
    author,
    title: pr.title,
    body: pr.body ?? '',
    headBranch: pr.head.ref,
    headSha: pr.head.sha,
    baseBranch: pr.base.ref
  }
}
