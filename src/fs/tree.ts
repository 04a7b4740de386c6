import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, rmSync, unlinkSync, writeFileSync, type Stats } from 'node:fs'
import path from 'node:path'

/*
 * Files the agent can write are read here as data only: no symlink is followed on the way (every
 * ancestor is lstat'ed, the file itself opened with O_NOFOLLOW), only a regular file is read, a
 * FIFO or device never blocks (O_NONBLOCK), and what is read is capped.
 */

/** What a path in a tree is, without following any symlink on the way. */
export type TreeEntry =
  | { kind: 'file'; data: Buffer; executable: boolean }
  | { kind: 'missing' }
  | { kind: 'symlink' }
  | { kind: 'dir' }
  | { kind: 'other' }
  /** An ancestor directory is a symlink or a file. */
  | { kind: 'bad-ancestor'; ancestor: string }
  | { kind: 'too-large'; size: number }

/** The default cap of one read: larger than any source or test file loopgate compares. */
const MAX_TREE_FILE_BYTES = 64 * 1024 * 1024

/** Opens `file` without following a final symlink and without blocking; null if not a regular file. */
function readRegular(file: string, maxBytes: number): TreeEntry {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ELOOP') return { kind: 'symlink' }
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    return { kind: 'other' }
  }
  try {
    const st = fstatSync(fd)
    if (st.isDirectory()) return { kind: 'dir' }
    if (!st.isFile()) return { kind: 'other' }
    if (st.size > maxBytes) return { kind: 'too-large', size: st.size }
    const data = Buffer.alloc(st.size)
    let read = 0
    while (read < st.size) {
      const n = readSync(fd, data, read, st.size - read, read)
      if (n === 0) break
      read += n
    }
    return { kind: 'file', data: data.subarray(0, read), executable: (st.mode & 0o111) !== 0 }
  } finally {
    closeSync(fd)
  }
}

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file)
  } catch {
    return null
  }
}

/** Reads root/rel without following symlinks in rel's components (at most `maxBytes`). */
export function readTreeEntry(root: string, rel: string, maxBytes = MAX_TREE_FILE_BYTES): TreeEntry {
  const parts = rel.split('/')
  let dir = root
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part)
    const st = lstatOrNull(dir)
    if (!st) return { kind: 'missing' }
    if (!st.isDirectory()) return { kind: 'bad-ancestor', ancestor: path.relative(root, dir) }
  }
  const file = path.join(root, rel)
  const st = lstatOrNull(file)
  if (!st) return { kind: 'missing' }
  if (st.isSymbolicLink()) return { kind: 'symlink' }
  if (st.isDirectory()) return { kind: 'dir' }
  if (!st.isFile()) return { kind: 'other' }
  return readRegular(file, maxBytes)
}

/** The text of an agent-written file, or null when it is missing, not a regular file, or over the cap. */
export function readAgentText(root: string, rel: string, maxBytes: number): string | null {
  const entry = readTreeEntry(root, rel, maxBytes)
  return entry.kind === 'file' ? entry.data.toString('utf8') : null
}

/** The same for an absolute path. */
export function readAgentFile(file: string, maxBytes: number): string | null {
  return readAgentText(path.dirname(file), path.basename(file), maxBytes)
}

/** Makes every ancestor of rel a real directory, replacing symlinks and files in the way. */
function realAncestors(root: string, rel: string): void {
  let dir = root
  for (const part of rel.split('/').slice(0, -1)) {
    dir = path.join(dir, part)
    const st = lstatOrNull(dir)
    if (st && st.isDirectory()) continue
    if (st) unlinkSync(dir)
    mkdirSync(dir)
  }
}

/** Removes root/rel whatever it is (a symlink is removed, never followed); false when nothing was there. */
export function removeTreeEntry(root: string, rel: string): boolean {
  const entry = readTreeEntry(root, rel)
  if (entry.kind === 'missing' || entry.kind === 'bad-ancestor') return false
  rmSync(path.join(root, rel), { recursive: true, force: true })
  return true
}

/** A regular file to write at root/rel, with its content and whether it is executable. */
interface TreeFileWrite {
  root: string
  rel: string
  data: Buffer | string
  executable?: boolean
}

/** Writes root/rel as a regular file, replacing a symlink, dir or symlinked ancestor in the way. */
export function writeTreeFile({ root, rel, data, executable = false }: TreeFileWrite): void {
  realAncestors(root, rel)
  const file = path.join(root, rel)
  if (lstatOrNull(file)) rmSync(file, { recursive: true, force: true })
  writeFileSync(file, data, { flag: 'wx', mode: executable ? 0o755 : 0o644 })
  chmodSync(file, executable ? 0o755 : 0o644)
}
