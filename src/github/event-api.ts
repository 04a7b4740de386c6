import { type GitHubClient } from './client.js'
import { call, type RepoRef } from './api-call.js'
import type { EventApi } from './events.js'

/** The planning calls answered by the REST API (collaborator permission, the pull request). */
export function eventApi(client: GitHubClient, repo: RepoRef): EventApi {
  return {
    async permission(login) {
      try {
        const answer = await client.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: login })
        return answer.data.permission
      } catch (err) {
        // GitHub answers 404 for a login that is no collaborator and cannot read the repository.
        if ((err as { status?: unknown }).status === 404) return 'none'
        throw err
      }
    },
    async pull(number) {
      const answer = await call(`read pull request #${number}`, 'pull-requests: read', () => client.rest.pulls.get({ ...repo, pull_number: number }))
      return answer.data
    }
  }
}
