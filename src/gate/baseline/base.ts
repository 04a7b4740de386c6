import { ConfigError } from '../../errors.js'
import { isShallow } from '../../git/fetch-auth.js'
import { git } from '../../git/git.js'
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

async function tryResolve(cwd: string, rev: string, config: string[]): Promise<string | null> {
  const r = await git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd, okCodes: [1, 128], config })
  return r.exitCode === 0 ? r.stdout.trim() : null
}

async function hasRemote(cwd: string, config: string[]): Promise<boolean> {
  const r = await git(['remote'], { cwd, okCodes: [1], config })
  return r.stdout.split('\n').includes('origin')
}

/** Fetch options: `env` authenticates (see git/fetch-auth.ts); `depth` keeps a shallow clone shallow; `config` is the run's git settings. */
interface Fetching {
  env?: NodeJS.ProcessEnv
  depth: string[]
  config: string[]
}

/** A shallow or single-branch checkout may not hold the base; fetch it (best effort). */
async function fetchRef(cwd: string, ref: string, fetching: Fetching): Promise<void> {
  await git(['fetch', '--no-tags', '--quiet', ...fetching.depth, 'origin', `+refs/heads/${ref}:refs/remotes/origin/${ref}`], {
    cwd,
    okCodes: [1, 128],
    config: fetching.config,
    env: fetching.env
  })
}

/**
 * The base the protected paths come from: the PR base for pull_request events, else `base-ref`,
 * else the default branch (origin/HEAD, or the current branch when there is no remote).
 * `fetchEnv` is the environment that authenticates a fetch from origin (see git/fetch-auth.ts).
 */
export async function resolveBase(
  cwd: string,
  opts: { env: NodeJS.ProcessEnv; baseRef?: string; config?: string[]; fetchEnv?: NodeJS.ProcessEnv }
): Promise<BaseRef> {
  const config = opts.config ?? []
  const remote = await hasRemote(cwd, config)
  const fetching: Fetching = { env: opts.fetchEnv, depth: remote && (await isShallow(cwd)) ? ['--depth=1'] : [], config }
  const pr = prBaseFromEvent(opts.env)
  const wanted = pr ? { ref: pr.ref, source: `pull_request base ${pr.ref}` } : opts.baseRef ? { ref: opts.baseRef, source: `base-ref ${opts.baseRef}` } : null
  if (wanted) {
    if (pr?.sha) {
      let sha = await tryResolve(cwd, pr.sha, config)
      if (!sha && remote) {
        await git(['fetch', '--no-tags', '--quiet', ...fetching.depth, 'origin', pr.sha], { cwd, okCodes: [1, 128], config, env: fetching.env })
        sha = await tryResolve(cwd, pr.sha, config)
      }
      if (sha) return { sha, source: wanted.source }
    }
    const candidates = remote ? [`refs/remotes/origin/${wanted.ref}`, wanted.ref] : [wanted.ref]
    for (const rev of candidates) {
      const sha = await tryResolve(cwd, rev, config)
      if (sha) return { sha, source: wanted.source }
    }
    if (remote) {
      await fetchRef(cwd, wanted.ref, fetching)
      const sha = await tryResolve(cwd, `refs/remotes/origin/${wanted.ref}`, config)
      if (sha) return { sha, source: wanted.source }
    }
    throw new ConfigError('base-ref', wanted.ref, `a branch, tag or commit that exists in the repository or on origin (taken from ${wanted.source})`)
  }
  if (remote) {
    const head = await tryResolve(cwd, 'refs/remotes/origin/HEAD', config)
    if (head) return { sha: head, source: 'origin/HEAD' }
    const defaultBranch = opts.env.LOOPGATE_DEFAULT_BRANCH || (await remoteDefaultBranch(cwd, config, fetching))
    if (defaultBranch) {
      let sha = await tryResolve(cwd, `refs/remotes/origin/${defaultBranch}`, config)
      if (!sha) {
        await fetchRef(cwd, defaultBranch, fetching)
        sha = await tryResolve(cwd, `refs/remotes/origin/${defaultBranch}`, config)
      }
      if (sha) return { sha, source: `origin/${defaultBranch}` }
    }
  }
  const branch = (await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd, okCodes: [1, 128], config })).stdout.trim()
  const sha = await tryResolve(cwd, 'HEAD', config)
  if (!sha) throw new Error('the workspace has no commit to take the protected paths from')
  return { sha, source: branch ? `current branch ${branch}` : 'HEAD' }
}

async function remoteDefaultBranch(cwd: string, config: string[], fetching: Fetching): Promise<string | null> {
  const r = await git(['ls-remote', '--symref', 'origin', 'HEAD'], { cwd, okCodes: [1, 2, 128], config, env: fetching.env })
  const m = /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(r.stdout)
  return m ? m[1] : null
}
