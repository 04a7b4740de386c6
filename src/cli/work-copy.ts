import { rmSync } from 'node:fs'
import path from 'node:path'
import { workBranchName } from '../git/branches.js'
import { git } from '../git/git.js'

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

const quiet = { okCodes: [128] }

/** The repository `dir` is in (any subfolder of it), with its checked-out commit. */
export async function findRepository(dir: string): Promise<UserRepository> {
  const top = await git(['rev-parse', '--show-toplevel'], { cwd: dir, ...quiet }).catch((err: Error) => ({ exitCode: 128, stdout: '', stderr: err.message }))
  if (top.exitCode !== 0) throw new RepositoryError(`${dir} is not inside a git repository: run loopgate in a repository, or point --workspace at one`)
  const root = top.stdout.trim()
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: root, okCodes: [1, 128] })
  if (head.exitCode !== 0)
    throw new RepositoryError(`the repository ${root} has no commit yet: commit something first, loopgate starts from the checked-out commit`)
  const common = await git(['rev-parse', '--git-common-dir'], { cwd: root })
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: root, okCodes: [1, 128] })
  return {
    top: root,
    commonDir: path.resolve(root, common.stdout.trim()),
    head: head.stdout.trim(),
    branch: branch.exitCode === 0 ? branch.stdout.trim() : null
  }
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

/**
 * A clone of the checked-out commit in `dir`, on a branch of the same name (the gate's notes speak
 * of it). Only reachable history is copied (no hard links into the user's objects, nothing a deleted
 * branch left behind), and the clone has no remote: nothing in it points back to the repository.
 */
export async function cloneForRun(repo: UserRepository, dir: string): Promise<string> {
  await git(['clone', '--no-local', '--no-checkout', '--quiet', '--', repo.top, dir], { cwd: path.dirname(dir) })
  await git(['checkout', '--quiet', ...(repo.branch ? ['-B', repo.branch, repo.head] : ['--detach', repo.head])], { cwd: dir })
  await git(['remote', 'remove', 'origin'], { cwd: dir })
  return dir
}

/** What the run left on its branch, for the closing lines. */
export interface Delivered {
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
  const head = (await git(['rev-parse', 'HEAD'], { cwd: clone })).stdout.trim()
  const count = Number((await git(['rev-list', '--count', `${repo.head}..${head}`], { cwd: clone })).stdout.trim())
  if (!count) return { branch, commits: 0, replaced: null }
  const before = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: repo.top, okCodes: [1] })
  await git(['fetch', '--quiet', '--no-tags', '--', path.join(clone, '.git'), `+HEAD:refs/heads/${branch}`], { cwd: repo.top })
  const old = before.exitCode === 0 ? before.stdout.trim() : null
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

/** The clone goes once its work is fetched (the run's records stay in the run folder). */
export function removeClone(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
