import { rmSync } from 'node:fs'
import path from 'node:path'
import { discardInBackground } from '../fs/remove-in-background.js'
import { workBranchName } from '../git/branches.js'
import { CHECKOUT_WORKERS, GitRepository } from '../git/repository.js'

/**
 * The CLI never runs the loop in the user's checkout: the session works in a clone of the checked-out
 * commit, in loopgate's own temp folder, and what it committed comes back as one branch of the
 * user's repository, `loopgate/<loop-id>`. The user's branch, index, working tree and `.git` are only
 * read, and written once, by that one fetch.
 */

export class RepositoryError extends Error {}

/** The user's repository as the run found it. */
export interface UserRepository {
  /** The top of the working tree (found from any subfolder). */
  top: string
  /** The repository's own git directory (shared by its linked worktrees). */
  commonDir: string
  /** The checked-out commit: where the run starts. */
  head: string
  /** The checked-out branch, or null on a detached HEAD. */
  branch: string | null
}

/** The repository `dir` is in (any subfolder of it), with its checked-out commit. */
export async function findRepository(dir: string): Promise<UserRepository> {
  const root = await GitRepository.plain(dir).topLevel()
  if (root === null) throw new RepositoryError(`${dir} is not inside a git repository: run loopgate in a repository, or point --workspace at one`)
  const repo = GitRepository.plain(root)
  const [head, common, branch] = await Promise.all([repo.tryHead(), repo.run(['rev-parse', '--git-common-dir']), repo.currentBranch()])
  if (head === null) throw new RepositoryError(`the repository ${root} has no commit yet: commit something first, loopgate starts from the checked-out commit`)
  return { top: root, commonDir: path.resolve(root, common.stdout.trim()), head, branch }
}

/** Refuses, before anything is spent, a run whose result could not be delivered. */
export function checkDeliverable(repo: UserRepository, loopId: string): void {
  const branch = workBranchName(loopId)
  if (repo.branch === branch) {
    throw new RepositoryError(
      `${branch} is checked out, and it is the branch this loop writes its work to: switch to another branch first (git switch -), or choose another --loop-id`
    )
  }
}

/** The base the protected tests come from, as the user's repository resolves `--base-ref`. */
export interface UserBase {
  /** What the user typed. */
  given: string
  sha: string
  /** The full name of the ref it names (`refs/heads/main`, `refs/remotes/origin/main`, `refs/tags/v1`), or null for a commit. */
  ref: string | null
}

/** `--base-ref` resolved in the user's repository: any branch, remote branch, tag or commit it knows. */
export async function findBase(repo: UserRepository, given: string): Promise<UserBase> {
  const user = GitRepository.plain(repo.top)
  const sha = await user.tryRevParse(`${given}^{commit}`)
  if (sha === null) {
    throw new RepositoryError(
      `--base-ref ${given} is not a branch, remote branch, tag or commit of ${repo.top} (git branch -a and git tag list them; git fetch brings a remote's)`
    )
  }
  const named = await user.run(['rev-parse', '--symbolic-full-name', '--end-of-options', given], { okCodes: [128] })
  // (git 2.39's rev-parse echoes --end-of-options as a line of its own)
  const ref = named.exitCode === 0 ? named.stdout.split('\n').find((line) => /^refs\/(heads|remotes|tags)\//.test(line)) : undefined
  return { given, sha, ref: ref ?? null }
}

/**
 * A clone of the checked-out commit in `dir`, on a branch of the same name (the gate's notes speak
 * of it), carrying the base under the name the user gave it, with its history. Only reachable
 * history is copied (no hard links into the user's objects, nothing a deleted branch left behind),
 * and the clone has no remote: nothing in it points back to the repository. Returns the name the
 * clone knows the base by: the user's own when it resolves there to the same commit, else the commit.
 */
export async function cloneForRun(repo: UserRepository, dir: string, base?: UserBase): Promise<{ dir: string; baseRef?: string }> {
  await GitRepository.plain(path.dirname(dir)).run(['clone', '--no-local', '--no-checkout', '--quiet', '--', repo.top, dir])
  const clone = GitRepository.plain(dir)
  await clone.run([
    '-c',
    `checkout.workers=${CHECKOUT_WORKERS}`,
    'checkout',
    '--quiet',
    ...(repo.branch ? ['-B', repo.branch, repo.head] : ['--detach', repo.head])
  ])
  await clone.run(['remote', 'remove', 'origin'])
  if (!base) return { dir }
  const target = base.ref ?? 'refs/loopgate/base'
  if (target !== `refs/heads/${repo.branch ?? ''}`) {
    await clone.fetch(repo.top, [`+${base.sha}:${target}`])
    // FETCH_HEAD names where the fetch came from: no path to the user's repository stays in the clone.
    rmSync(path.join(dir, '.git', 'FETCH_HEAD'), { force: true })
  }
  const known = await clone.tryRevParse(`${base.given}^{commit}`)
  return { dir, baseRef: known === base.sha ? base.given : base.sha }
}

/** What the run left on its branch, for the closing lines. */
interface Delivered {
  branch: string
  /** Commits on top of where the run started; 0 when nothing was committed (no branch written). */
  commits: number
  /** The branch's earlier tip when this run replaced it. */
  replaced: string | null
}

/**
 * Fetches the clone's HEAD into the user's repository as `loopgate/<loop-id>`, only when the run
 * committed something. Git itself refuses to move a branch that is checked out in any worktree.
 */
export async function deliverWork(repo: UserRepository, clone: string, loopId: string): Promise<Delivered> {
  const branch = workBranchName(loopId)
  const work = GitRepository.plain(clone)
  const head = await work.head()
  const count = await work.revListCount(`${repo.head}..${head}`)
  if (!count) return { branch, commits: 0, replaced: null }
  const user = GitRepository.plain(repo.top)
  const old = await user.tryRevParse(`refs/heads/${branch}`)
  await user.fetch(path.join(clone, '.git'), [`+HEAD:refs/heads/${branch}`])
  return { branch, commits: count, replaced: old && old !== head ? old : null }
}

/** How to look at the branch and how to delete it, as shell commands. */
export function deliveryLines(repo: UserRepository, delivered: Delivered): string[] {
  if (!delivered.commits) return ['loopgate committed nothing: your repository is as it was, no branch was written.']
  const from = repo.branch ?? repo.head.slice(0, 12)
  const b = delivered.branch
  return [
    `loopgate's work: ${delivered.commits} commit(s) on the branch ${b}, on top of ${from}. Your branch, index and working tree are as they were.`,
    ...(delivered.replaced
      ? [`  (it replaced the earlier ${b} at ${delivered.replaced.slice(0, 12)}: git branch ${b}-earlier ${delivered.replaced} brings that back)`]
      : []),
    `  look at it:  git log ${from}..${b}    git diff ${from}...${b}`,
    `  take it:     git merge ${b}`,
    `  delete it:   git branch -D ${b}`
  ]
}

/** The clone goes once its work is fetched (the run's records stay in the run folder): moved aside at once, deleted in the background. */
export function removeClone(dir: string): void {
  discardInBackground([dir])
}
