import { chmodSync, lstatSync, mkdirSync, mkdtempSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * The CLI's temp root: a fresh folder made by mkdtemp (a random name, created by this process, never
 * one that existed), so no other local user can squat it or point it elsewhere with a symlink. Mode
 * 0711: other users cannot list or create anything in it, while the agent's and the gate's users can
 * still pass through to the folders loopgate makes for them inside.
 */

export class TempRootError extends Error {}

const ROOT_MODE = 0o711

/** A folder of this user nobody else can write, or null (missing, a symlink, someone else's). */
function ownFolder(dir: string): string | null {
  try {
    mkdirSync(dir, { mode: ROOT_MODE })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return null
  }
  const st = lstatSync(dir)
  const uid = process.getuid?.() ?? st.uid
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) return null
  chmodSync(dir, ROOT_MODE)
  return dir
}

/** Where the temp root goes: the folder the user named (it must exist), else a per-user folder in the OS temp dir. */
function parentFor(given: { dir: string; name: string } | null): string {
  if (given) {
    let isDir = false
    try {
      isDir = statSync(given.dir).isDirectory()
    } catch {
      throw new TempRootError(`${given.name} ${given.dir} does not exist: create it (mkdir -p ${given.dir}) or leave ${given.name} unset`)
    }
    if (!isDir) throw new TempRootError(`${given.name} ${given.dir} is not a folder: point it at a folder, or leave it unset`)
    return given.dir
  }
  const tmp = os.tmpdir()
  const uid = process.getuid?.() ?? 'user'
  // Someone else's folder of that name is passed over, never used: mkdtemp in the OS temp dir is just as safe.
  return ownFolder(path.join(tmp, `loopgate-${uid}`)) ?? tmp
}

/** Makes the run's temp root: under --temp-dir, else RUNNER_TEMP, else the per-user folder. */
export function makeTempRoot(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const given = flag ? { dir: flag, name: '--temp-dir' } : env.RUNNER_TEMP ? { dir: env.RUNNER_TEMP, name: 'RUNNER_TEMP' } : null
  const parent = parentFor(given)
  let root: string
  try {
    root = mkdtempSync(path.join(parent, 'loopgate-run-'))
  } catch (err) {
    throw new TempRootError(
      `cannot create a folder in ${parent} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): choose another with --temp-dir`
    )
  }
  chmodSync(root, ROOT_MODE)
  return root
}
