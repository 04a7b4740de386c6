import { spawn } from 'node:child_process'
import { renameSync, rmSync } from 'node:fs'

/** Deletes `paths` in one background process that outlives loopgate's (a large tree takes seconds to remove). */
export function removeInBackground(paths: string[]): void {
  if (paths.length) spawn('rm', ['-rf', '--', ...paths], { detached: true, stdio: 'ignore' }).unref()
}

/**
 * Moves `dir` aside at once, so its name is free and nothing reads it by that name again, and
 * deletes it in the background. Where it cannot be moved it is deleted now.
 */
export function discardInBackground(dir: string): void {
  const aside = `${dir}.removed-${process.pid}-${Date.now()}`
  try {
    renameSync(dir, aside)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') rmSync(dir, { recursive: true, force: true })
    return
  }
  removeInBackground([aside])
}
