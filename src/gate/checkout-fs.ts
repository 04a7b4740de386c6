import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chownSync, lchownSync, lstatSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { walkComponents } from '../fs/path-walk.js'
import { git } from '../git/git.js'
import type { AgentUser } from '../isolation/agent-user.js'

/** The file steps of the clean checkout: what changed, who owns the folders, whether the dependencies were touched. */

/** Folders inside a dependency folder that tools write while they run (see CACHE_DIRS in checkout.ts). */
export type CacheDirs = Record<string, string[]>

/** Paths that differ between two commits (a tree diff: its cost grows with the change, not the tree). */
export async function changedPaths(repo: string, from: string, to: string): Promise<string[]> {
  const r = await git(['--git-dir', repo, 'diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to], { cwd: path.dirname(repo) })
  return r.stdout.split('\0').filter(Boolean)
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
export async function treeFolders(repo: string, commit: string): Promise<string[]> {
  const r = await git(['--git-dir', repo, 'ls-tree', '-r', '-d', '-z', '--name-only', commit], { cwd: path.dirname(repo) })
  return r.stdout.split('\0').filter(Boolean)
}

/**
 * A fresh checkout's folders (its root and `folders`, as git made them: nothing has run in it) go
 * to the gate user (it may create files: reports, coverage, build output); tracked files stay
 * root's, so the gate cannot rewrite one in place — only replace it, which changes its inode and
 * owner, and the next checkout's stat check puts it back. (A ctime check alone has a one-second
 * blind spot.) No link is followed; the dependency folders are not in the tree.
 */
export function chownFolders(dir: string, folders: string[], user: AgentUser): void {
  for (const rel of ['', ...folders]) {
    const folder = path.join(dir, rel)
    const st = lstatSync(folder, { throwIfNoEntry: false })
    if (st?.isDirectory() && st.uid !== user.uid) lchownSync(folder, user.uid, user.gid)
  }
}

/** The directories on the way to each of `paths` (inside `dir`) go to the gate user; no link is followed. */
export function chownParents(dir: string, paths: string[], user: AgentUser, prune: string[]): void {
  const parents = paths.map((rel) => rel.split('/').slice(0, -1)).filter((parts) => !(parts.length && prune.includes(parts[0])))
  walkComponents(dir, parents, (current, st) => {
    if (!st.isDirectory()) return 'stop'
    if (st.uid === 0 && st.gid === 0 && (st.mode & 0o7777) === 0o1777) return // locked by lock()
    if (st.uid !== user.uid) chownSync(current, user.uid, user.gid)
  })
}

export function cp(args: string[]): void {
  execFileSync('cp', args, { stdio: 'pipe' })
}
