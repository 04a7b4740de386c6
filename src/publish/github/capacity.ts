import type { GitHubClient } from '../../github/client.js'
import { call, type RepoRef } from '../../github/api-call.js'
import { workBranchName } from '../../git/branches.js'
import { hasMarkerLine, type Ownership } from './ownership.js'

interface OpenLoopPull {
  number: number
  url: string
  branch: string
}

interface PullFacts {
  head: { ref: string }
  labels: { name?: string }[]
  body: string | null
}

/** Whether the pull request comes from this loop's branch (`loopgate/<loop-id>` or `loopgate/<loop-id>-<n>`). */
function isLoopBranchPull(loopId: string, pull: PullFacts): boolean {
  const branch = workBranchName(loopId)
  return pull.head.ref === branch || (pull.head.ref.startsWith(`${branch}-`) && !pull.head.ref.endsWith('-wip'))
}

/**
 * Whether an open PR looks like this loop's: its branch, or its label and the loop's marker line.
 * A PR matched by label and marker still has to be the loop's own (see Ownership).
 */
export function isLoopPull(loopId: string, labels: string[], pull: PullFacts): boolean {
  if (isLoopBranchPull(loopId, pull)) return true
  const labelled = pull.labels.some((l) => l.name !== undefined && labels.includes(l.name))
  return labelled && hasMarkerLine(pull.body, loopId)
}

/** Where to list the loop's pull requests, and how to tell them: its id, its labels, its ownership. */
interface LoopPullsQuery {
  client: GitHubClient
  repo: RepoRef
  loopId: string
  labels: string[]
  ownership: Ownership
}

/** The open pull requests of this loop (for review capacity). */
export async function openLoopPulls({ client, repo, loopId, labels, ownership }: LoopPullsQuery): Promise<OpenLoopPull[]> {
  const pulls = await call('list the open pull requests (review capacity)', 'pull-requests: read', () =>
    client.paginate(client.rest.pulls.list, { ...repo, state: 'open', per_page: 100 })
  )
  const open: OpenLoopPull[] = []
  for (const p of pulls) {
    const counts = ownership.isRecorded(p.number) || isLoopBranchPull(loopId, p) || (isLoopPull(loopId, labels, p) && (await ownership.isOwn(p)))
    if (counts) open.push({ number: p.number, url: p.html_url, branch: p.head.ref })
  }
  return open
}
