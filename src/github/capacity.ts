import { marker } from '../publish/bodies.js'
import { call, type GitHubClient, type RepoRef } from './client.js'
import { workBranchName } from './events.js'

export interface OpenLoopPull {
  number: number
  url: string
  branch: string
}

/** Whether an open PR belongs to this loop: its branch prefix, or its label and hidden marker. */
export function isLoopPull(loopId: string, labels: string[], pull: { head: { ref: string }; labels: { name?: string }[]; body: string | null }): boolean {
  const branch = workBranchName(loopId)
  if (pull.head.ref === branch || (pull.head.ref.startsWith(`${branch}-`) && !pull.head.ref.endsWith('-wip'))) return true
  const labelled = pull.labels.some((l) => l.name !== undefined && labels.includes(l.name))
  return labelled && (pull.body ?? '').includes(marker(loopId))
}

/** The open pull requests of this loop (for review capacity). */
export async function openLoopPulls(client: GitHubClient, repo: RepoRef, loopId: string, labels: string[]): Promise<OpenLoopPull[]> {
  const pulls = await call('list the open pull requests (review capacity)', 'pull-requests: read', () =>
    client.paginate(client.rest.pulls.list, { ...repo, state: 'open', per_page: 100 })
  )
  return pulls
    .filter((p) => isLoopPull(loopId, labels, p))
    .map((p) => ({ number: p.number, url: p.html_url, branch: p.head.ref }))
}
