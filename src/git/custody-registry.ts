import path from 'node:path'

/** A workspace whose git directory loopgate holds outside it for the length of a run. */
export interface HeldRepository {
  /** The work tree (the workspace). */
  workspace: string
  /** loopgate's own git directory: the repository's original `.git`, moved where the agent cannot reach. */
  gitDir: string
}

const held = new Map<string, HeldRepository>()

export function registerHeld(repo: HeldRepository): void {
  held.set(path.resolve(repo.workspace), repo)
}

export function unregisterHeld(workspace: string): void {
  held.delete(path.resolve(workspace))
}

/**
 * The held repository whose work tree contains `cwd`, if any. Every git process loopgate starts
 * there is pointed at loopgate's own git directory, never at the `.git` the agent can write.
 */
export function heldRepositoryFor(cwd: string): HeldRepository | undefined {
  if (held.size === 0) return undefined
  let dir = path.resolve(cwd)
  for (;;) {
    const repo = held.get(dir)
    if (repo) return repo
    const parent = path.dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}
