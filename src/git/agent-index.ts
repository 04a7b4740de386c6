import { lstatSync, readFileSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { gitEnv, runGit } from './command-line.js'

/**
 * The agent's own index (the copy of the repository it works in, see custody.ts) brought in line
 * with files loopgate wrote back into the work tree: each path's entry is what the work tree now
 * holds (removed when the file is gone), so the agent's `git status` shows nothing for it and a
 * later `git rm` finds it. Runs as the agent's user, since the repository is the agent's: nothing
 * of it runs (the hash takes no filters, the index entries are given, not read from the tree).
 * Best effort: an index the agent left locked stays as it is.
 */
export async function syncAgentIndex(workspace: string, paths: readonly string[], user?: { uid: number; gid: number }): Promise<boolean> {
  if (paths.length === 0) return true
  const at = { cwd: workspace }
  const env = { ...gitEnv(), HOME: '/nonexistent' }
  const lines: string[] = []
  const gone: string[] = []
  try {
    for (const rel of [...new Set(paths)]) {
      const entry = workTreeEntry(path.join(workspace, rel))
      if (!entry) {
        gone.push(rel)
        continue
      }
      const hashed = await runGit(['hash-object', '-w', '--no-filters', '--stdin'], at, { env, as: user, input: entry.data })
      lines.push(`${entry.mode} ${hashed.stdout.trim()}\t${rel}\0`)
    }
    if (lines.length) await runGit(['update-index', '-z', '--index-info'], at, { env, as: user, input: lines.join('') })
    if (gone.length) await runGit(['update-index', '--force-remove', '--', ...gone], at, { env, as: user })
    return true
  } catch {
    return false
  }
}

/** A work-tree file as the index records it: its mode and content (a symlink's target); null when it is gone or not a file. */
function workTreeEntry(file: string): { mode: string; data: string | Buffer } | null {
  try {
    const st = lstatSync(file)
    if (st.isSymbolicLink()) return { mode: '120000', data: readlinkSync(file) }
    if (!st.isFile()) return null
    return { mode: st.mode & 0o111 ? '100755' : '100644', data: readFileSync(file) }
  } catch {
    return null
  }
}
