import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { isTransientNetworkError, withRetry, type RetryOptions } from '../process/retry.js'
import { GitError } from './command-line.js'
import { credentialSecrets, gitEnvWith, scrubCredentials, tokenHeaderFor } from './fetch-auth.js'
import { GitRepository } from './repository.js'
import { carriesRunTrailer } from './workspace.js'

/**
 * Publishing happens from a clean repository under RUNNER_TEMP, never through the agent's
 * workspace: the workspace's objects are borrowed as plain data (an alternate object directory
 * for one repack, in a process without the token), so no workspace hook, config or attribute runs.
 * The token reaches only the push/ls-remote processes of this clean repository, through an http
 * extraheader in their environment (not the command line, not a file).
 */

export interface Remote {
  url: string
  token?: string
  /** When set (and enabled), commits reach the remote through it instead of `git push`. */
  writer?: CommitWriter
}

/** A commit to put on a branch, with the branch's expected tip (null: it must not exist yet). */
export interface RefWrite {
  /** The clean clone's repository, holding `commit` and its history. */
  repository: GitRepository
  commit: string
  branch: string
  lease: string | null
  /** Whether `lease` is in `commit`'s history (a fast-forward); else the tip is replaced. */
  fastForward: boolean
}

/**
 * Another way for a clean clone's commits to reach the remote (the GitHub API, whose commits
 * GitHub signs). It never forces a ref: a branch that moved is a PushRejectedError.
 */
export interface CommitWriter {
  enabled(): Promise<boolean>
  write(request: RefWrite): Promise<void>
}

/** The repository's remote as the runner names it: GITHUB_SERVER_URL/GITHUB_REPOSITORY.git. */
export function remoteFromEnv(env: NodeJS.ProcessEnv, token?: string): Remote {
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')
  const repository = env.GITHUB_REPOSITORY
  if (!repository) throw new Error('GITHUB_REPOSITORY is not set: cannot name the remote to push to')
  return { url: `${server}/${repository}.git`, token: token || undefined }
}

export class PushRejectedError extends Error {
  constructor(
    message: string,
    readonly branch: string
  ) {
    super(message)
    this.name = 'PushRejectedError'
  }
}

function authEnv(remote: Remote): NodeJS.ProcessEnv {
  const header = remote.token ? tokenHeaderFor(remote.token, remote.url) : null
  return gitEnvWith(header ? [header] : [])
}

/** Removes the token from a message that git might echo. */
function scrub(text: string, remote: Remote): string {
  return scrubCredentials(text, { token: remote.token, env: {} })
}

/** A push git refused because the branch is not where loopgate read it (the lease, a non-fast-forward). */
const REFUSED_PUSH = /stale info|\[rejected\]|non-fast-forward|fetch first/

/** How a push that failed on the network is tried again (a test shortens the waits). */
type PushRetry = Pick<RetryOptions, 'attempts' | 'baseDelayMs' | 'maxDelayMs' | 'onRetry'>

/** The commit a clean clone holds, the workspace whose objects it copies, and the remote it pushes to. */
interface CleanCloneSource {
  tempDir: string
  /** The workspace's repository, as loopgate holds it: the objects the clone copies. */
  repository: GitRepository
  commit: string
  remote: Remote
  pushRetry?: PushRetry
}

export class CleanClone {
  /** The clean repository itself (bare; its own git directory, no token). */
  readonly repository: GitRepository

  private constructor(
    readonly dir: string,
    private readonly remote: Remote,
    private readonly pushRetry: PushRetry = {}
  ) {
    this.repository = GitRepository.plain(dir)
  }

  /**
   * A fresh repository holding `commit` and its history, copied from the workspace's object store.
   * No process started here reads the workspace's config, and none of them holds the token.
   */
  static async create({ tempDir, repository, commit, remote, pushRetry }: CleanCloneSource): Promise<CleanClone> {
    const dir = mkdtempSync(path.join(tempDir, 'loopgate-publish-'))
    const clone = new CleanClone(dir, remote, pushRetry)
    try {
      await GitRepository.plain(tempDir).run(['init', '-q', '--bare', dir])
      const commonDir = await repository.commonDir()
      const shallow = path.join(commonDir, 'shallow')
      if (existsSync(shallow)) copyFileSync(shallow, path.join(dir, 'shallow'))
      const repo = clone.repository
      const borrow = repo.env({ GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(commonDir, 'objects') })
      const sha = await repo.revParse(`${commit}^{commit}`, { env: borrow })
      await repo.run(['update-ref', 'refs/loopgate/work', sha], { env: borrow })
      // -a without -l copies every reachable object, the borrowed ones too, into this repository.
      await repo.run(['repack', '-a', '-d', '-q'], { env: borrow })
      await repo.run(['cat-file', '-e', `${sha}^{tree}`])
      return clone
    } catch (err) {
      clone.dispose()
      throw err
    }
  }

  /** The sha of a branch on the remote, or null when it does not exist. */
  async remoteTip(branch: string): Promise<string | null> {
    return this.repository.remoteRef(this.remote.url, `refs/heads/${branch}`, this.auth())
  }

  /** Whether `sha` (fetched from the remote's `branch`) is a commit loopgate made: its run trailer. */
  async isLoopgateCommit(sha: string, branch: string): Promise<boolean> {
    await this.fetchBranch(branch)
    return (await carriesRunTrailer(this.repository, sha)) === true
  }

  async isAncestor(ancestor: string, commit: string): Promise<boolean> {
    return this.repository.isAncestor(ancestor, commit)
  }

  private async fetchBranch(branch: string): Promise<void> {
    await this.repository.fetch(this.remote.url, [`+refs/heads/${branch}:refs/loopgate/remote`], this.auth())
  }

  /**
   * Pushes `commit` to `branch`. `lease`: the sha the branch must still have (null: must not exist),
   * or 'force' for a scratch branch.
   */
  async push(commit: string, branch: string, lease: string | null | 'force'): Promise<void> {
    const writer = this.remote.writer
    if (writer && lease !== 'force' && (await writer.enabled())) {
      const fastForward = lease === null || (await this.isAncestor(lease, commit))
      return writer.write({ repository: this.repository, commit, branch, lease, fastForward })
    }
    const ref = `refs/heads/${branch}`
    const push = () =>
      this.repository.push(this.remote.url, [`${commit}:${ref}`], { ...this.auth(), lease: lease === 'force' ? 'force' : { ref, expect: lease } })
    try {
      // A push that died on the network is sent again; if it had landed, the retry is "up to
      // date" (git checks that before the lease), so a retry never turns success into rejection.
      await withRetry(push, {
        ...this.pushRetry,
        isTransient: (err) => err instanceof GitError && isTransientNetworkError(`${err.result.stderr}\n${err.result.stdout}`)
      })
    } catch (err) {
      const text = err instanceof GitError ? `${err.result.stderr}\n${err.result.stdout}` : String(err)
      if (REFUSED_PUSH.test(text)) {
        throw new PushRejectedError(`the branch ${branch} moved on the remote since loopgate read it; not overwriting it`, branch)
      }
      throw new Error(scrub(`pushing ${branch} failed: ${text.trim()}`, this.remote))
    }
  }

  /** The token's environment and what to keep out of errors, for the commands that reach the remote. */
  private auth(): { env: NodeJS.ProcessEnv; secrets: string[] } {
    return { env: authEnv(this.remote), secrets: credentialSecrets({ token: this.remote.token }) }
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}

/** Runs `fn` with a clean clone of `commit`, removing it afterwards. */
export async function withCleanClone<T>(source: CleanCloneSource, fn: (clone: CleanClone) => Promise<T>): Promise<T> {
  const clone = await CleanClone.create(source)
  try {
    return await fn(clone)
  } finally {
    clone.dispose()
  }
}

/** A commit to push from a clean clone to a branch, and the check that may refuse to replace its tip. */
interface LeasedPush {
  clone: CleanClone
  commit: string
  branch: string
  mayReplace: (tip: string) => Promise<void>
}

/**
 * Pushes `commit` to a branch loopgate owns, leased on the tip read here: creates the branch, does
 * nothing when it is already there, else pushes only after `mayReplace(tip)` (which throws
 * PushRejectedError to refuse).
 */
export async function pushOverTip({ clone, commit, branch, mayReplace }: LeasedPush): Promise<void> {
  const tip = await clone.remoteTip(branch)
  if (tip === null) return clone.push(commit, branch, null)
  if (tip === commit) return
  await mayReplace(tip)
  return clone.push(commit, branch, tip)
}

/**
 * Pushes the loop's work branch with a lease against what loopgate itself last pushed there: the
 * remote tip is replaced only when it is loopgate's own commit or already in `commit`'s history.
 */
export async function pushWorkBranch(clone: CleanClone, commit: string, branch: string): Promise<void> {
  return pushOverTip({
    clone,
    commit,
    branch,
    mayReplace: async (tip) => {
      const ours = (await clone.isLoopgateCommit(tip, branch)) || (await clone.isAncestor(tip, commit))
      if (!ours) {
        throw new PushRejectedError(`someone else pushed to ${branch} (its tip ${tip.slice(0, 12)} is not a loopgate commit); not overwriting it`, branch)
      }
    }
  })
}
