import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync, type Stats } from 'node:fs'
import path from 'node:path'

/** What a path in a tree is, without following any symlink on the way. */
export type TreeEntry =
  | { kind: 'file'; data: Buffer; executable: boolean }
  | { kind: 'missing' }
  | { kind: 'symlink' }
  | { kind: 'dir' }
  | { kind: 'other' }
  /** An ancestor directory is a symlink or a file. */
  | { kind: 'bad-ancestor'; ancestor: string }

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file)
  } catch {
    return null
  }
}

/** Reads root/rel without following symlinks in rel's components. */
export function readTreeEntry(root: string, rel: string): TreeEntry {
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
  return { kind: 'file', data: readFileSync(file), executable: (st.mode & 0o111) !== 0 }
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

/** Removes root/rel whatever it is (a symlink is removed, never followed). */
export function removeTreeEntry(root: string, rel: string): void {
  const entry = readTreeEntry(root, rel)
  if (entry.kind === 'missing' || entry.kind === 'bad-ancestor') return
  rmSync(path.join(root, rel), { recursive: true, force: true })
}

/** Writes root/rel as a regular file, replacing a symlink, dir or symlinked ancestor in the way. */
export function writeTreeFile(root: string, rel: string, data: Buffer | string, executable = false): void {
  realAncestors(root, rel)
  const file = path.join(root, rel)
  if (lstatOrNull(file)) rmSync(file, { recursive: true, force: true })
  writeFileSync(file, data, { flag: 'wx', mode: executable ? 0o755 : 0o644 })
  chmodSync(file, executable ? 0o755 : 0o644)
}
