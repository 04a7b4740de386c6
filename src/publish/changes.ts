import type { GitRepository } from '../git/repository.js'

/** One file of a change, as `git diff --numstat` counts it (null counts: a binary file). */
export interface FileChange {
  path: string
  insertions: number | null
  deletions: number | null
}

/** The files a change touched, between two of loopgate's commits. */
export interface ChangeSummary {
  from: string
  to: string
  files: FileChange[]
}

/**
 * The files changed from `from` to `to`, read through the workspace's repository as the caller
 * holds it (loopgate's git directory while it holds the workspace), so nothing the agent wrote in
 * its `.git` is read. Null when git cannot tell.
 */
export async function changesBetween(repository: GitRepository, from: string, to: string): Promise<ChangeSummary | null> {
  if (from === to) return { from, to, files: [] }
  try {
    return { from, to, files: await repository.diffNumstat(from, to) }
  } catch {
    return null
  }
}
