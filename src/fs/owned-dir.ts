import { chmodSync, lstatSync, mkdirSync } from 'node:fs'
import path from 'node:path'

/**
 * `parent/name` as a directory loopgate owns: created with `mode`, or, when it exists, accepted only
 * if it is a real directory (not a symlink) owned by loopgate's user that nobody else can write. A
 * folder someone else planted there first (e.g. in a shared /tmp) is refused, never used.
 */
function ownedDir(parent: string, name: string, mode: number): string {
  const dir = path.join(parent, name)
  try {
    mkdirSync(dir, { mode })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const st = lstatSync(dir)
  const uid = process.getuid?.() ?? st.uid
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) {
    throw new Error(
      `${dir} exists and is not a private directory of uid ${uid} (${st.isSymbolicLink() ? 'a symlink' : `uid ${st.uid}, mode ${(st.mode & 0o7777).toString(8)}`}): remove it or choose another temp folder`
    )
  }
  if ((st.mode & 0o7777) !== mode) chmodSync(dir, mode)
  return dir
}

/** ownedDir for each part of `parts` under `root` (root itself is trusted). */
export function ownedPath(root: string, parts: string[], mode: number): string {
  let dir = root
  for (const part of parts) dir = ownedDir(dir, part, mode)
  return dir
}
