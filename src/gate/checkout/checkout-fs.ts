import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chownSync, lchownSync, lstatSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { walkComponents } from '../../fs/path-walk.js'
import type { GateRepository } from '../../git/gate-repository.js'
import type { AgentUser } from '../../isolation/agent-user.js'

/** The file steps of the clean checkout: what changed, who owns the folders, whether the dependencies were touched. */

/** Folders inside a dependency folder that tools write while they run (see CACHE_DIRS in pristine-deps.ts). */
type CacheDirs = Record<string, string[]>

/** Paths that differ between two commits (a tree diff: its cost grows with the change, not the tree). */
export function changedPaths(repo: GateRepository, from: string, to: string): Promise<string[]> {
  return repo.diffTreeNames(from, to)
}

/** One path that differs between two commits, as the index of the second has it (mode 000000: gone). */
interface PathChange {
  path: string
  mode: string
  object: string
  /** The object it had (for a removal's index record). */
  oldObject: string
}

/** Between two commits: the paths that differ (files, links, submodules) and the folders added and removed. */
export interface TreeChanges {
  paths: string[]
  changes: PathChange[]
  addedFolders: string[]
  removedFolders: string[]
}

const FOLDER_MODES = new Set(['040000', '160000'])

/** The tree diff of two commits, trees included (`-t`): cost grows with the change. */
export async function treeChanges(repo: GateRepository, from: string, to: string): Promise<TreeChanges> {
  const result: TreeChanges = { paths: [], changes: [], addedFolders: [], removedFolders: [] }
  for (const { path: rel, oldMode, newMode, oldObject, object } of await repo.diffTree(from, to)) {
    // A folder whose contents changed is in neither list.
    if (oldMode !== newMode && FOLDER_MODES.has(newMode)) result.addedFolders.push(rel)
    if (oldMode !== newMode && FOLDER_MODES.has(oldMode)) result.removedFolders.push(rel)
    // A tree's own record only says that something under it changed; a submodule is an entry of the index.
    if (oldMode === '040000' || newMode === '040000') {
      if (![oldMode, newMode].some((m) => m === '160000')) continue
    }
    const gone = newMode === '000000' || newMode === '040000'
    result.paths.push(rel)
    result.changes.push({ path: rel, mode: gone ? '000000' : newMode, object, oldObject })
  }
  return result
}

/** The tracked folders after `changes`, from those before (updated in place). */
export function withFolderChanges(folders: Set<string>, changes: TreeChanges): Set<string> {
  for (const folder of changes.removedFolders) folders.delete(folder)
  for (const folder of changes.addedFolders) folders.add(folder)
  return folders
}

/** A hash over every entry's path, inode, ctime, size and mode under the dependency folders (caches left out). */
export function depsSignature(dir: string, names: string[], cacheDirs: CacheDirs): string {
  const hash = createHash('sha256')
  const caches = new Set(names.flatMap((name) => (cacheDirs[name] ?? []).map((c) => `${name}/${c}`)))
  const walk = (rel: string): void => {
    if (caches.has(rel)) return
    let st
    try {
      st = lstatSync(path.join(dir, rel), { bigint: true })
    } catch {
      hash.update(`${rel}\0missing\n`)
      return
    }
    hash.update(`${rel}\0${st.ino}\0${st.ctimeNs}\0${st.size}\0${st.mode}\0${st.uid}\n`)
    if (st.isDirectory()) for (const name of readdirSync(path.join(dir, rel)).sort()) walk(`${rel}/${name}`)
  }
  for (const name of names) walk(name)
  return hash.digest('hex')
}

/** The folders a fresh checkout of `commit` has: its trees, and the empty folder git makes for each submodule. */
export function treeFolders(repo: GateRepository, commit: string): Promise<string[]> {
  return repo.treeFolders(commit)
}

/**
 * The folders of a fresh checkout (as git made them: nothing has run in it) that a runner writes
 * (`writable`: build output, reports, caches; see toolchain/runner-folders.ts) go to the gate user.
 * Every other folder, the root included, and every tracked file stay root's: the gate can neither
 * add a file to the source tree nor replace one. No link is followed; the dependency folders are
 * not in the tree.
 */
export function chownFolders(dir: string, to: { folders: string[]; user: AgentUser; writable: (rel: string) => boolean }): void {
  const { folders, user, writable } = to
  for (const rel of folders) {
    if (!writable(rel)) continue
    const folder = path.join(dir, rel)
    const st = lstatSync(folder, { throwIfNoEntry: false })
    if (st?.isDirectory() && st.uid !== user.uid) lchownSync(folder, user.uid, user.gid)
  }
}

/** The runner folders (`writable`) on the way to each of `paths` (inside `dir`, none under a `prune` folder) go to the gate user; no link is followed. */
export function chownParents(dir: string, to: { paths: string[]; user: AgentUser; prune: string[]; writable: (rel: string) => boolean }): void {
  const { paths, user, prune, writable } = to
  const parents = paths.map((rel) => rel.split('/').slice(0, -1)).filter((parts) => !(parts.length && prune.includes(parts[0])))
  walkComponents(dir, parents, (current, st) => {
    if (!st.isDirectory()) return 'stop'
    if (!writable(path.relative(dir, current))) return
    if (st.uid !== user.uid) chownSync(current, user.uid, user.gid)
  })
}

export function cp(args: string[]): void {
  execFileSync('cp', args, { stdio: 'pipe' })
}
