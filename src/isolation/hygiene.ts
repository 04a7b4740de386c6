import { lstatSync, readdirSync, rmSync, unlinkSync } from 'node:fs'
import path from 'node:path'
import { repoConfigOverrides } from '../git/git.js'

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink()
  } catch {
    return false
  }
}

/**
 * Removes symlinks the agent may have planted in `.git` (reflogs, refs, hooks, objects fan-out):
 * loopgate's own git writes there, possibly as root, and must not write through them.
 * Returns the removed paths, relative to the git dir.
 */
export function removeGitSymlinks(gitDir: string): string[] {
  const removed: string[] = []
  const walk = (dir: string, depth: number, underObjects: boolean): void => {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      return
    }
    for (const name of names) {
      const full = path.join(dir, name)
      let st
      try {
        st = lstatSync(full)
      } catch {
        continue
      }
      if (st.isSymbolicLink()) {
        unlinkSync(full)
        removed.push(path.relative(gitDir, full))
      } else if (st.isDirectory() && !(underObjects && depth >= 1)) {
        walk(full, depth + 1, underObjects || (depth === 0 && name === 'objects'))
      }
    }
  }
  walk(gitDir, 0, false)
  return removed
}

/** Makes each component of root/rel that is a symlink a plain missing path (before root writes it). */
export function unlinkSymlinkedPath(root: string, rel: string): boolean {
  let dir = root
  for (const part of rel.split('/')) {
    dir = path.join(dir, part)
    if (isSymlink(dir)) {
      rmSync(dir, { force: true })
      return true
    }
  }
  return false
}

/** The `-c` overrides for loopgate's git in the workspace, refreshed after each agent call. */
export class GitHardening {
  private overrides: string[] = []

  constructor(private readonly workspace: string) {}

  async refresh(): Promise<string[]> {
    this.overrides = await repoConfigOverrides(this.workspace)
    return this.overrides
  }

  /** For GitWorkspace's `gitConfig` callback. */
  readonly config = (): string[] => this.overrides
}
