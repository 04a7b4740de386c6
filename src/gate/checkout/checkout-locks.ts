import { chmodSync, chownSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../isolation/agent-user.js'
import { readTreeEntry } from '../../fs/tree.js'
import type { BaseSnapshot } from '../baseline/snapshot.js'
import { runnerFoldersToMake } from '../toolchain/runner-folders.js'
import { chownFolders, chownParents } from './checkout-fs.js'

/**
 * The checkout's folders and `own` (home, temp) go to the gate user; protected files are locked
 * against it (see lockProtected). `paths`: what changed since the last checkout (directories the
 * gate user already had keep it; only those on the way to a changed path can be new), or every
 * folder of a fresh checkout.
 */
export function giveToUser(
  dir: string,
  to: { user: AgentUser; own: string[]; paths: string[]; fresh: boolean; deps: string[] },
  snapshot: BaseSnapshot
): { changed: number; dirs: string[] } {
  if (to.fresh) chownFolders(dir, to.paths, to.user)
  else chownParents(dir, { paths: to.paths, user: to.user, prune: to.deps })
  for (const d of to.own) chownSync(d, to.user.uid, to.user.gid)
  return lockProtected(dir, snapshot)
}

/**
 * Protected files root-owned and read-only, executable when the base has them so (100755);
 * their directories (and the checkout root) root-owned and sticky, so the gate user can add files
 * but not replace, rename or delete protected ones. Returns how many files changed and the folders.
 */
export function lockProtected(dir: string, snapshot: BaseSnapshot): { changed: number; dirs: string[] } {
  let changed = 0
  const dirs = new Set<string>([dir])
  for (const [rel, entry] of snapshot.entries) {
    const file = path.join(dir, rel)
    if (readTreeEntry(dir, rel).kind !== 'file') continue
    const st = lstatSync(file)
    const mode = entry.mode === '100755' ? 0o555 : 0o444
    if (st.uid !== 0 || st.gid !== 0) chownSync(file, 0, 0)
    if ((st.mode & 0o7777) !== mode) chmodSync(file, mode)
    if (st.uid !== 0 || st.gid !== 0 || (st.mode & 0o7777) !== mode) changed++
    let parent = path.dirname(file)
    while (parent.startsWith(dir) && !dirs.has(parent)) {
      dirs.add(parent)
      parent = path.dirname(parent)
    }
  }
  for (const d of dirs) {
    const st = lstatSync(d)
    if (st.uid !== 0 || st.gid !== 0) chownSync(d, 0, 0)
    if ((st.mode & 0o7777) !== 0o1777) chmodSync(d, 0o1777)
  }
  return { changed, dirs: [...dirs] }
}

/**
 * Before the gate command: the folders that hold protected files, the checkout root among them,
 * take no new entry from the gate user (gate-setup could add files there; the command cannot);
 * the runner's own folders at the root (see toolchain/runner-folders.ts) are there for it to write.
 */
export function closeFolders(dir: string, folders: { lockedDirs: string[]; user: AgentUser; report?: string }): void {
  const { lockedDirs, user, report } = folders
  for (const d of lockedDirs) chmodSync(d, 0o755)
  for (const rel of runnerFoldersToMake(report)) {
    const target = path.join(dir, rel)
    if (readTreeEntry(dir, rel).kind !== 'missing') continue
    mkdirSync(target, { recursive: true, mode: 0o755 })
    chownSync(target, user.uid, user.gid)
  }
  // A report at the root: the runner writes it in place, in a file that is the gate user's.
  if (report && !report.includes('/') && readTreeEntry(dir, report).kind === 'missing') {
    writeFileSync(path.join(dir, report), '', { mode: 0o644, flag: 'wx' })
    chownSync(path.join(dir, report), user.uid, user.gid)
  }
}
