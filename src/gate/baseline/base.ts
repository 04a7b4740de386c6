import { ConfigError } from '../../errors.js'
import type { GitRepository } from '../../git/repository.js'
import { readEventPayload } from '../../github/payload.js'

export interface BaseRef {
  sha: string
  /** What it was resolved from, e.g. `pull_request base main`, `base-ref v2`, `origin/HEAD`. */
  source: string
}

function prBaseFromEvent(env: NodeJS.ProcessEnv): { ref: string; sha?: string } | null {
  if (!/^pull_request/.test(env.GITHUB_EVENT_NAME ?? '')) return null
  const event = readEventPayload(env) as { pull_request?: { base?: { ref?: unknown; sha?: unknown } } }
  const base = event.pull_request?.base
  if (typeof base?.ref !== 'string' || base.ref === '') return null
  return { ref: base.ref, sha: typeof base.sha === 'string' ? base.sha : undefined }
}

/** A fetch from origin: `env` authenticates (see git/fetch-auth.ts); `depth` keeps a shallow clone shallow. */
interface Fetching {
  env?: NodeJS.ProcessEnv
  depth?: number
}

const commitOf = (repository: GitRepository, rev: string): Promise<string | null> => repository.tryRevParse(`${rev}^{commit}`)

/** A shallow or single-branch checkout may not hold the base; fetch it (best effort). */
async function fetchRef(repository: GitRepository, ref: string, fetching: Fetching): Promise<void> {
  await repository.fetch('origin', [`+refs/heads/${ref}:refs/remotes/origin/${ref}`], { ...fetching, okCodes: [1, 128] })
}

/**
 * A base a single-branch, shallow checkout does not hold, fetched from origin by what it names: a
 * branch (`main` or `origin/main`), a tag, or a full commit id. Its commit, or null.
 */
async function fetchNamed(repository: GitRepository, ref: string, fetching: Fetching): Promise<string | null> {
  const branch = ref.replace(/^(?:refs\/remotes\/)?origin\//, '').replace(/^refs\/heads\//, '')
  await fetchRef(repository, branch, fetching)
  const onOrigin = await commitOf(repository, `refs/remotes/origin/${branch}`)
  if (onOrigin) return onOrigin
  const tag = ref.replace(/^refs\/tags\//, '')
  await repository.fetch('origin', [`+refs/tags/${tag}:refs/tags/${tag}`], { ...fetching, okCodes: [1, 128] })
  const tagged = await commitOf(repository, `refs/tags/${tag}`)
  if (tagged) return tagged
  if (!/^[0-9a-f]{40}$/.test(ref)) return null
  await repository.fetch('origin', [ref], { ...fetching, okCodes: [1, 128] })
  return commitOf(repository, ref)
}

/**
 * The base the protected paths come from: the PR base for pull_request events, else `base-ref`,
 * else the default branch (origin/HEAD, or the current branch when there is no remote).
 * `fetchEnv` is the environment that authenticates a fetch from origin (see git/fetch-auth.ts).
 */
export async function resolveBase(
  repository: GitRepository,
  opts: { env: NodeJS.ProcessEnv; baseRef?: string; fetchEnv?: NodeJS.ProcessEnv }
): Promise<BaseRef> {
  const remote = (await repository.remotes()).includes('origin')
  const fetching: Fetching = { env: opts.fetchEnv, depth: remote && (await repository.isShallow()) ? 1 : undefined }
  const pr = prBaseFromEvent(opts.env)
  const wanted = pr ? { ref: pr.ref, source: `pull_request base ${pr.ref}` } : opts.baseRef ? { ref: opts.baseRef, source: `base-ref ${opts.baseRef}` } : null
  if (wanted) {
    if (pr?.sha) {
      let sha = await commitOf(repository, pr.sha)
      if (!sha && remote) {
        await repository.fetch('origin', [pr.sha], { ...fetching, okCodes: [1, 128] })
        sha = await commitOf(repository, pr.sha)
      }
      if (sha) return { sha, source: wanted.source }
    }
    const candidates = remote ? [`refs/remotes/origin/${wanted.ref}`, wanted.ref] : [wanted.ref]
    for (const rev of candidates) {
      const sha = await commitOf(repository, rev)
      if (sha) return { sha, source: wanted.source }
    }
    const fetched = remote ? await fetchNamed(repository, wanted.ref, fetching) : null
    if (fetched) return { sha: fetched, source: wanted.source }
    throw new ConfigError('base-ref', wanted.ref, `a branch, tag or commit that exists in the repository or on origin (taken from ${wanted.source})`)
  }
  if (remote) {
    const head = await commitOf(repository, 'refs/remotes/origin/HEAD')
    if (head) return { sha: head, source: 'origin/HEAD' }
    const defaultBranch = opts.env.LOOPGATE_DEFAULT_BRANCH || (await repository.remoteDefaultBranch('origin', { env: fetching.env }))
    if (defaultBranch) {
      let sha = await commitOf(repository, `refs/remotes/origin/${defaultBranch}`)
      if (!sha) {
        await fetchRef(repository, defaultBranch, fetching)
        sha = await commitOf(repository, `refs/remotes/origin/${defaultBranch}`)
      }
      if (sha) return { sha, source: `origin/${defaultBranch}` }
    }
  }
  const branch = await repository.currentBranch()
  const sha = await commitOf(repository, 'HEAD')
  if (!sha) throw new Error('the workspace has no commit to take the protected paths from')
  return { sha, source: branch ? `current branch ${branch}` : 'HEAD' }
}
