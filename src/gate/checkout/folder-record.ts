import { lstatSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * What a gate run may have changed in the clean checkout, found from its folders alone.
 *
 * With a gate user of its own, the checkout's tracked files are root's and read-only to it: code
 * under test can change the tree only by adding, removing, renaming or replacing entries of the
 * folders it owns, and each of those sets the folder's ctime, which no unprivileged process can
 * set back. So a folder whose identity and ctime are what they were before the run holds what it
 * held; only the others need to be looked into. The check costs one lstat per folder, where a
 * full `clean` and `checkout -f` read every entry of the tree.
 *
 * ctime comes from the kernel's coarse clock (or whole seconds on some file systems): a change in
 * the same tick as the record can leave it equal. The fence — a file written right after the
 * record, on the same file system — has a ctime no later than any change that follows it; a
 * folder whose recorded ctime is not older than the fence's is looked into whatever it shows now.
 */

interface FolderStamp {
  dev: bigint
  ino: bigint
  ctimeNs: bigint
}

export interface FolderRecord {
  /** The checkout root ('') and every tracked folder, by path relative to the root; null when it was not a folder. */
  stamps: Map<string, FolderStamp | null>
  fenceNs: bigint
}

/** What differs since the record: folders to look into, and folders to restore whole (gone, or another folder now). */
export interface FolderDirt {
  /** Folders that are the same folder: their own entries may have changed. */
  entries: string[]
  /** Folders that are missing or were replaced: everything under them is restored. */
  whole: string[]
}

function stampOf(file: string): FolderStamp | null {
  const st = lstatSync(file, { bigint: true, throwIfNoEntry: false })
  return st?.isDirectory() ? { dev: st.dev, ino: st.ino, ctimeNs: st.ctimeNs } : null
}

/** Records the root and `folders` of the checkout at `dir`, then writes the fence (a file of loopgate's on the same file system). */
export function recordFolders(dir: string, folders: Iterable<string>, fence: string): FolderRecord {
  const stamps = new Map<string, FolderStamp | null>()
  for (const rel of ['', ...folders]) stamps.set(rel, stampOf(path.join(dir, rel)))
  writeFileSync(fence, '')
  return { stamps, fenceNs: lstatSync(fence, { bigint: true }).ctimeNs }
}

/**
 * The folders that changed since `record`. Parents are checked before their children, so each
 * lstat goes only through folders found to be the ones recorded: a folder replaced by a link is
 * seen as the link, and nothing under it is visited. The root must be the folder recorded.
 */
export function findDirt(dir: string, record: FolderRecord, touched: Iterable<string> = []): FolderDirt {
  // Folders where loopgate itself changed entries after the checkout (a protected file set back
  // to the base, a stale report removed): looked into like the ones the run changed.
  const looked = new Set<string>()
  for (const rel of touched) {
    let folder = path.posix.dirname(rel)
    while (folder !== '.' && !record.stamps.has(folder)) folder = path.posix.dirname(folder)
    looked.add(folder === '.' ? '' : folder)
  }
  const dirt: FolderDirt = { entries: [], whole: [] }
  const whole = new Set<string>()
  const underWhole = (rel: string): boolean => {
    for (let i = rel.indexOf('/'); i !== -1; i = rel.indexOf('/', i + 1)) if (whole.has(rel.slice(0, i))) return true
    return false
  }
  for (const rel of [...record.stamps.keys()].sort(byParentFirst)) {
    if (underWhole(rel)) continue
    const before = record.stamps.get(rel) ?? null
    const now = stampOf(path.join(dir, rel))
    if (!before || !now || now.dev !== before.dev || now.ino !== before.ino) {
      if (rel === '') throw new Error('the checkout root is not the folder recorded')
      whole.add(rel)
      dirt.whole.push(rel)
    } else if (now.ctimeNs !== before.ctimeNs || before.ctimeNs >= record.fenceNs || looked.has(rel)) {
      dirt.entries.push(rel)
    }
  }
  return dirt
}

/** Orders paths so that every folder comes before what is under it ('' first). */
function byParentFirst(a: string, b: string): number {
  const pa = a.split('/')
  const pb = b.split('/')
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0)
}
