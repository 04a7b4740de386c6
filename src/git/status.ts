/**
 * The folders `git status` reports whole (a trailing `/` with every untracked file listed): the
 * roots of repositories nested in the work tree. loopgate never commits them: `git add` would
 * record a gitlink to whatever commit their `.git` names, read as root from wherever it points.
 */
export function nestedRepositories(changed: readonly string[]): string[] {
  return changed.filter((p) => p.endsWith('/'))
}
