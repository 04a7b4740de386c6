import { git } from './git.js'

/**
 * Every path that differs between the working tree, the index and HEAD, untracked files included
 * (each one, not their folders), from one `git status`: the cost of git's own status scan, nothing
 * per file beyond it. Names are raw (NUL-separated); a name that is not valid UTF-8 comes back with
 * U+FFFD in it.
 */
export async function changedInWorkTree(cwd: string): Promise<string[]> {
  const r = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=dirty'], { cwd })
  const paths: string[] = []
  for (const rec of r.stdout.split('\0')) if (rec.length > 3) paths.push(rec.slice(3))
  return paths
}

/**
 * The folders `git status` reports whole (a trailing `/` with every untracked file listed): the
 * roots of repositories nested in the work tree. loopgate never commits them: `git add` would
 * record a gitlink to whatever commit their `.git` names, read as root from wherever it points.
 */
export function nestedRepositories(changed: readonly string[]): string[] {
  return changed.filter((p) => p.endsWith('/'))
}
