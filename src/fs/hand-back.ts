import { lchownSync } from 'node:fs'
import { walkComponents } from './path-walk.js'

/**
 * Gives `rels` under `root` (and the folders on the way to them) to `owner`, never through a link:
 * each component is lstat'ed, a symlink itself is re-owned (lchown) but never followed, and the
 * walk stops at anything that is not a real folder. Call it only while no process of the owner runs.
 */
export function handBackPaths(root: string, rels: Iterable<string>, owner: { uid: number; gid: number }): number {
  let changed = 0
  const paths = [...rels].map((rel) => rel.split('/').filter((p) => p && p !== '.' && p !== '..'))
  walkComponents(root, paths, (current, st, last) => {
    if (st.uid !== owner.uid || st.gid !== owner.gid) {
      lchownSync(current, owner.uid, owner.gid)
      changed++
    }
    return !last && !st.isDirectory() ? 'stop' : undefined
  })
  return changed
}
