import { createClient, repoFromEnv } from '../github/client.js'

export interface ListedCache {
  key: string
  ref: string
}

/** Lists the repository's Actions cache entries whose key starts with a prefix. */
export type CacheLister = (prefix: string) => Promise<ListedCache[]>

/** The Actions cache API (`GET /repos/{owner}/{repo}/actions/caches?key=`), when running in Actions with a token. */
export function cacheListerFromEnv(token: string, env: NodeJS.ProcessEnv, warn: (message: string) => void = () => undefined): CacheLister | undefined {
  if (env.GITHUB_ACTIONS !== 'true' || !env.GITHUB_REPOSITORY || !token) return undefined
  const client = createClient(token, env, warn)
  const repo = repoFromEnv(env)
  return async (prefix) => {
    const answer = await client.rest.actions.getActionsCacheList({ ...repo, key: prefix, sort: 'created_at', direction: 'desc', per_page: 20 })
    return answer.data.actions_caches.map((c) => ({ key: c.key ?? '', ref: c.ref ?? '' })).filter((c) => c.key.startsWith(prefix))
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
    (periodCeiling ? `, so the window's earlier spend is not counted toward period-ceiling-usd.` : '.')
  )
}
