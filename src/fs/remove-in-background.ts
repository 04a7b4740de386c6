import { spawn } from 'node:child_process'
import { renameSync, rmSync } from 'node:fs'

/** Deletes `paths` in one background process that outlives loopgate's (a large tree takes seconds to remove). */
export function removeInBackground(paths: string[]): void {
  if (paths.length) spawn('rm', ['-rf', '--', ...paths], { detached: true, stdio: 'ignore' }).unref()
}

/**
 * Moves each of `dirs` aside at once, so its name is free and nothing reads it by that name again,
 * and deletes them in one background process. One that is not there is passed over; one that
 * cannot be moved is deleted now.
 */
export function discardInBackground(dirs: string[]): void {
  const aside: string[] = []
  for (const dir of dirs) {
    const moved = `${dir}.removed-${process.pid}-${Date.now()}`
    try {
      renameSync(dir, moved)
      aside.push(moved)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') rmSync(dir, { recursive: true, force: true })
    }
  }
  removeInBackground(aside)
}
