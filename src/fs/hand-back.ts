import { lchownSync, lstatSync } from 'node:fs'
import path from 'node:path'

/**
 * Gives `rels` under `root` (and the folders on the way to them) to `owner`, never through a link:
 * each component is lstat'ed, a symlink itself is re-owned (lchown) but never followed, and the
 * walk stops at anything that is not a real folder. Call it only while no process of the owner runs.
 */
export function handBackPaths(root: string, rels: Iterable<string>, owner: { uid: number; gid: number }): number {
  let changed = 0
  const seen = new Set<string>()
  for (const rel of rels) {
    const parts = rel.split('/').filter((p) => p && p !== '.' && p !== '..')
    let current = root
    for (let i = 0; i < parts.length; i++) {
      current = path.join(current, parts[i])
      if (seen.has(current)) continue
      seen.add(current)
      let st
      try {
        st = lstatSync(current)
      } catch {
        break
      }
      if (st.uid !== owner.uid || st.gid !== owner.gid) {
        lchownSync(current, owner.uid, owner.gid)
        changed++
      }
      if (i < parts.length - 1 && !st.isDirectory()) break
    }
  }
  return changed
}
