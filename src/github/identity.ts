import type { GitHubClient } from './client.js'

/** The identity of the workflow's GITHUB_TOKEN, the most common installation token. */
export const GITHUB_TOKEN_LOGIN = 'github-actions[bot]'

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}

/** An installation acts as its app's bot user, which the REST API names `<app>[bot]`. */
function asBotLogin(login: string): string {
  return login.endsWith('[bot]') ? login : `${login}[bot]`
}

/**
 * The login that issues, pull requests and comments made with this token are authored by, or null
 * when it cannot be learned (then nothing is recognised by its author). A personal or user token
 * answers `GET /user`; an installation token (GITHUB_TOKEN, a GitHub App's) is refused there, and
 * is asked through GraphQL's `viewer`, falling back to GITHUB_TOKEN's `github-actions[bot]`.
 */
export async function tokenLogin(client: GitHubClient, warn: (message: string) => void): Promise<string | null> {
  try {
    return (await client.rest.users.getAuthenticated()).data.login
  } catch (err) {
    const status = statusOf(err)
    if (status !== 401 && status !== 403 && status !== 404) {
      warn(`loopgate: could not learn the token's identity (${err instanceof Error ? err.message : String(err)}); only the issues and pull requests recorded in the loop's state count as its own`)
      return null
    }
  }
  try {
    const answer = await client.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }')
    const login = answer.viewer?.login
    if (typeof login === 'string' && login !== '') return asBotLogin(login)
  } catch {
    // An installation token without GraphQL access: the workflow's own token is the usual case.
  }
  return GITHUB_TOKEN_LOGIN
}
