import { repoFromEnv } from '../github/api-call.js'
import type { GitHubClient } from '../github/client.js'

export interface ListedCache {
  key: string
  ref: string
  /** When the service created the entry (ISO). */
  createdAt?: string
}

/** The list is read 100 entries a page, newest first, up to this many pages. */
const MAX_CACHE_LIST_PAGES = 20

/** Lists the repository's Actions cache entries whose key starts with a prefix. */
export type CacheLister = (prefix: string) => Promise<ListedCache[]>

/** The Actions cache API (`GET /repos/{owner}/{repo}/actions/caches?key=`, every page), when running in Actions with a token. */
export function cacheListerFromEnv(token: string, env: NodeJS.ProcessEnv, warn: (message: string) => void = () => undefined): CacheLister | undefined {
  // The runner always sets GITHUB_API_URL; without it there is no API to ask (and no default is guessed).
  if (env.GITHUB_ACTIONS !== 'true' || !env.GITHUB_REPOSITORY || !env.GITHUB_API_URL || !token) return undefined
  const repo = repoFromEnv(env)
  // The GitHub client (Octokit and its HTTP stack) is loaded on the first listing, not at start-up.
  let client: Promise<GitHubClient> | null = null
  return async (prefix) => {
    const { rest } = await (client ??= import('../github/client.js').then(({ createClient }) => createClient(token, env, warn)))
    const listed: ListedCache[] = []
    for (let page = 1; page <= MAX_CACHE_LIST_PAGES; page++) {
      const answer = await rest.actions.getActionsCacheList({ ...repo, key: prefix, sort: 'created_at', direction: 'desc', per_page: 100, page })
      const caches = answer.data.actions_caches
      listed.push(...caches.map((c) => ({ key: c.key ?? '', ref: c.ref ?? '', createdAt: c.created_at ?? undefined })))
      if (caches.length < 100) return listed.filter((c) => c.key.startsWith(prefix))
    }
    throw new Error(`the cache list holds more than ${MAX_CACHE_LIST_PAGES * 100} entries under ${prefix}`)
  }
}

/**
 * When a restore missed although the repository holds entries under the loop's prefix, the run
 * would silently start from a fresh state (and the rolling period ceiling would reset): this says so.
 * Null when the list is empty or cannot be read (the token may lack `actions: read`).
 */
export async function missNote(list: CacheLister | undefined, prefix: string, periodCeiling: boolean): Promise<string | null> {
  if (!list) return null
  let entries: ListedCache[]
  try {
    entries = await list(prefix)
  } catch {
    return null
  }
  if (entries.length === 0) return null
  const newest = entries[0]
  return (
    `The loop state could not be restored: the restore missed, yet the repository's cache list holds ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} under \`${prefix}\` ` +
    `(newest \`${newest.key}\`, saved on \`${newest.ref}\`). They were saved with another cache version (an older loopgate, another compression tool or operating system on the runner) ` +
    `or on a branch this run cannot read (a run reads caches of its own ref and the default branch). This run starts from a fresh state` +
    (periodCeiling ? ` (the window of period-ceiling-usd is read from every run's charges entries, not from the state).` : '.')
  )
}
