import { GitRepository } from './repository.js'

/**
 * Every path that differs between the working tree, the index and HEAD, untracked files included
 * (each one, not their folders), from one `git status`: the cost of git's own status scan, nothing
 * per file beyond it. Names are raw (NUL-separated); a name that is not valid UTF-8 comes back with
 * U+FFFD in it.
 */
export function changedInWorkTree(cwd: string): Promise<string[]> {
  return GitRepository.lookup(cwd).statusPorcelain()
}

/**
 * The folders `git status` reports whole (a trailing `/` with every untracked file listed): the
 * roots of repositories nested in the work tree. loopgate never commits them: `git add` would
 * record a gitlink to whatever commit their `.git` names, read as root from wherever it points.
 */
export function nestedRepositories(changed: readonly string[]): string[] {
  return changed.filter((p) => p.endsWith('/'))
}
