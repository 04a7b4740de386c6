import { chmodSync, lstatSync, readdirSync } from 'node:fs'
import path from 'node:path'
import type { GateRepository } from '../../git/gate-repository.js'
import type { FolderDirt } from './folder-record.js'

/** Putting back, folder by folder, what a gate run changed in the clean checkout (see folder-record.ts). */

interface RestoreContext {
  /** The checkout. */
  dir: string
  /** The commit it holds (its index is that commit's). */
  commit: string
  /** Untracked paths that loopgate placed in the checkout (the dependency copies, at the root or in a workspace package). */
  keepAtRoot: string[]
  /** loopgate's git on the checkout and its index. */
  repository: Pick<GateRepository, 'lsTreeRecursive' | 'checkoutIndex'>
  /** `git cat-file --batch` on the checkout's repository. */
  objects: (specs: string[]) => Promise<Buffer>
  /** Moves a path out of the checkout (it is deleted in the background). */
  discard: (target: string) => void
}

const FOLDER_MODES = new Set(['040000', '160000'])

/** Names that lost bytes in decoding cannot be compared: the caller falls back to the whole tree. */
function decoded(name: string): string {
  if (name.includes('\uFFFD')) throw new Error(`a name that is not UTF-8 in the checkout: ${JSON.stringify(name)}`)
  return name
}

const join = (folder: string, name: string): string => (folder ? `${folder}/${name}` : name)

/** `<mode> <type> <object>\t<name>` records of `git ls-tree -z`. */
function parseTree(records: string[]): { name: string; mode: string }[] {
  return records.map((record) => {
    const tab = record.indexOf('\t')
    return { mode: record.slice(0, record.indexOf(' ')), name: decoded(record.slice(tab + 1)) }
  })
}

/** The entries each of `folders` has in `commit` (name → mode), read in one process. */
async function entriesOf(ctx: RestoreContext, folders: string[]): Promise<Map<string, string>[]> {
  if (folders.length === 0) return []
  if (folders.some((f) => f.includes('\n'))) throw new Error('a folder name with a line break')
  const out = await ctx.objects(folders.map((f) => `${ctx.commit}:${f}`))
  const trees: Map<string, string>[] = []
  let at = 0
  for (const folder of folders) {
    const eol = out.indexOf(0x0a, at)
    const [object, type, size] = out.subarray(at, eol).toString().split(' ')
    if (type !== 'tree') throw new Error(`${ctx.commit}:${folder} is not a tree`)
    const end = eol + 1 + Number(size)
    trees.push(parseTreeObject(out.subarray(eol + 1, end), object.length / 2))
    at = end + 1
  }
  return trees
}

/** A raw tree object: `<mode> <name>\0<hash bytes>` per entry. */
function parseTreeObject(data: Buffer, hashBytes: number): Map<string, string> {
  const entries = new Map<string, string>()
  let at = 0
  while (at < data.length) {
    const space = data.indexOf(0x20, at)
    const nul = data.indexOf(0, space)
    entries.set(decoded(data.subarray(space + 1, nul).toString()), data.subarray(at, space).toString().padStart(6, '0'))
    at = nul + 1 + hashBytes
  }
  return entries
}

/** Every file, link and submodule under `folder` in `commit`. */
async function pathsUnder(ctx: RestoreContext, folder: string): Promise<string[]> {
  return parseTree(await ctx.repository.lsTreeRecursive(`${ctx.commit}:${folder}`)).map((e) => join(folder, e.name))
}

/**
 * Puts back what the gate run changed: in each folder of `dirt.entries`, whatever the commit
 * does not have is removed (the dependency copies left alone) and its files are
 * checked out again where their stat differs from the index; each folder of `dirt.whole` is
 * removed with whatever now stands in its place, and checked out again whole. No link is
 * followed: `findDirt` saw every folder on the way as the one recorded. Returns the paths checked
 * out (for their folders' owner and their modes, see giveBack and fixModes).
 */
export async function restoreDirt(ctx: RestoreContext, dirt: FolderDirt): Promise<string[]> {
  const [entries, under] = await Promise.all([entriesOf(ctx, dirt.entries), Promise.all(dirt.whole.map((f) => pathsUnder(ctx, f)))])
  const paths: string[] = []
  dirt.entries.forEach((folder, i) => {
    const tracked = entries[i]
    for (const name of readdirSync(path.join(ctx.dir, folder))) {
      if (tracked.has(decoded(name)) || ctx.keepAtRoot.includes(join(folder, name))) continue
      ctx.discard(path.join(ctx.dir, folder, name))
    }
    for (const [name, mode] of tracked) if (!FOLDER_MODES.has(mode)) paths.push(join(folder, name))
  })
  dirt.whole.forEach((folder, i) => {
    ctx.discard(path.join(ctx.dir, folder))
    paths.push(...under[i])
  })
  if (paths.length) await ctx.repository.checkoutIndex(paths, { quiet: true })
  return paths
}

/**
 * Files loopgate's git wrote are root's, 0644 or 0755 — unless their folder carries a default
 * ACL, which the folder's owner (the gate user) may have set: the new file then inherits an
 * entry that lets the gate user write it in place, where no folder's ctime would show it. Such a
 * file shows group or other write bits (the ACL's mask); setting its mode clears them. Returns
 * the paths whose mode was set (the index takes in their new stat).
 */
export function fixModes(dir: string, paths: Iterable<string>): string[] {
  const fixed: string[] = []
  for (const rel of paths) {
    let st
    try {
      st = lstatSync(path.join(dir, rel))
    } catch {
      continue // not there (removed, or a folder on its way is a file now): nothing was written
    }
    if (!st.isFile() || st.uid !== 0 || (st.mode & 0o022) === 0) continue
    chmodSync(path.join(dir, rel), st.mode & 0o755)
    fixed.push(rel)
  }
  return fixed
}
