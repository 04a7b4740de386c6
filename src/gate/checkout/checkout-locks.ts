import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../isolation/agent-user.js'
import { readTreeEntry } from '../../fs/tree.js'
import type { BaseSnapshot } from '../baseline/snapshot.js'
import { inRunnerFolder, runnerFoldersToMake } from '../toolchain/runner-folders.js'
import { chownFolders, chownParents } from './checkout-fs.js'

/**
 * The checkout's runner folders (see toolchain/runner-folders.ts; `report`: gate-report's) and
 * `own` (home, temp) go to the gate user; the rest of the checkout stays root's and protected files
 * are locked against it (see lockProtected). `paths`: what changed since the last checkout
 * (directories the gate user already had keep it; only those on the way to a changed path can be
 * new), or every folder of a fresh checkout.
 */
export function giveToUser(
  dir: string,
  to: { user: AgentUser; own: string[]; paths: string[]; fresh: boolean; deps: string[]; report?: string },
  snapshot: BaseSnapshot
): { changed: number; dirs: string[] } {
  const writable = (rel: string): boolean => rel !== '' && inRunnerFolder(rel, to.report)
  if (to.fresh) chownFolders(dir, { folders: to.paths, user: to.user, writable })
  else chownParents(dir, { paths: to.paths, user: to.user, prune: to.deps, writable })
  for (const d of to.own) chownSync(d, to.user.uid, to.user.gid)
  return lockProtected(dir, snapshot)
}

/**
 * Protected files root-owned and read-only, executable when the base has them so (100755);
 * their directories (and the checkout root) root-owned and closed (0755), even a runner folder's,
 * so the gate user can neither add a file beside a protected one nor replace, rename or delete
 * one. Returns how many files changed and the folders.
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
    if ((st.mode & 0o7777) !== 0o755) chmodSync(d, 0o755)
  }
  return { changed, dirs: [...dirs] }
}

/**
 * Before gate-setup (or the command, without one): the runner's folders at the root (see
 * toolchain/runner-folders.ts) and gate-report's folder made for it to write, with the folders a
 * setup installs or builds into (`setupFolders`) when the tree has none. Returns those it made
 * for the setup.
 */
export function openRunnerFolders(dir: string, folders: { lockedDirs: string[]; user: AgentUser; report?: string; setupFolders: string[] }): string[] {
  const { lockedDirs, user, report } = folders
  for (const d of lockedDirs) chmodSync(d, 0o755)
  const made: string[] = []
  const runner = runnerFoldersToMake(report)
  for (const rel of [...runner, ...folders.setupFolders]) {
    const target = path.join(dir, rel)
    if (readTreeEntry(dir, rel).kind !== 'missing') continue
    mkdirSync(target, { recursive: true, mode: 0o755 })
    chownSync(target, user.uid, user.gid)
    if (!runner.includes(rel)) made.push(rel)
  }
  // A report at the root: the runner writes it in place, in a file that is the gate user's.
  if (report && !report.includes('/') && readTreeEntry(dir, report).kind === 'missing') {
    writeFileSync(path.join(dir, report), '', { mode: 0o644, flag: 'wx' })
    chownSync(path.join(dir, report), user.uid, user.gid)
  }
  return made
}

/** After gate-setup: the folders made for it that it left empty are gone before the command (an empty `.venv` is no virtualenv). */
export function dropEmptyFolders(dir: string, made: string[]): void {
  for (const rel of made) {
    const target = path.join(dir, rel)
    const st = lstatSync(target, { throwIfNoEntry: false })
    if (st?.isDirectory() && readdirSync(target).length === 0) rmdirSync(target)
  }
}
