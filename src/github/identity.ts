import { GITHUB_ACTIONS_AUTHOR, noreplyAuthor } from '../git/author.js'
import { type CommitAuthor } from '../settings.js'
import type { GitHubClient } from './client.js'

/** The identity of the workflow's GITHUB_TOKEN, the most common installation token. */
const GITHUB_TOKEN_LOGIN = 'github-actions[bot]'

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
      warn(
        `loopgate: could not learn the token's identity (${err instanceof Error ? err.message : String(err)}); only the issues and pull requests recorded in the loop's state count as its own`
      )
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

/**
 * The commit identity of the token: `<id>+<login>@users.noreply.github.com`, which GitHub credits
 * to that account and no other. A user token answers `GET /user`; an installation token names its
 * bot through GraphQL's `viewer`, whose id is asked from `GET /users/{login}` when GraphQL does not
 * give it. GITHUB_TOKEN (and any token whose identity cannot be learned) is github-actions[bot].
 */
export async function tokenAuthor(client: GitHubClient, warn: (message: string) => void): Promise<CommitAuthor> {
  try {
    const me = (await client.rest.users.getAuthenticated()).data
    return noreplyAuthor(me.login, me.id)
  } catch (err) {
    const status = statusOf(err)
    if (status !== 401 && status !== 403 && status !== 404) {
      warn(
        `loopgate: could not learn the token's identity (${err instanceof Error ? err.message : String(err)}); commits are authored by ${GITHUB_ACTIONS_AUTHOR.name}`
      )
      return GITHUB_ACTIONS_AUTHOR
    }
  }
  let login: string | undefined
  let id: number | undefined
  try {
    const answer = await client.graphql<{ viewer?: { login?: unknown; databaseId?: unknown } }>('query { viewer { login databaseId } }')
    if (typeof answer.viewer?.login === 'string' && answer.viewer.login !== '') login = asBotLogin(answer.viewer.login)
    if (typeof answer.viewer?.databaseId === 'number') id = answer.viewer.databaseId
  } catch {
    // An installation token without GraphQL access: the workflow's own token is the usual case.
  }
  if (!login || login === GITHUB_TOKEN_LOGIN) return GITHUB_ACTIONS_AUTHOR
  if (id === undefined) {
    try {
      id = (await client.rest.users.getByUsername({ username: login })).data.id
    } catch (err) {
      warn(
        `loopgate: could not look up ${login}'s id (${err instanceof Error ? err.message : String(err)}); commits are authored by ${GITHUB_ACTIONS_AUTHOR.name}`
      )
      return GITHUB_ACTIONS_AUTHOR
    }
  }
  return noreplyAuthor(login, id)
}
