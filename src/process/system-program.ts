import { accessSync, constants } from 'node:fs'
import path from 'node:path'

/** The system's own program folders: the only places a program loopgate runs as root is taken from. */
export const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

/**
 * The absolute path of a system program, or null. A program run as root is never looked up on a
 * PATH the run's environment sets: a folder there could hold a file of the agent's by that name.
 */
export function systemProgram(name: string): string | null {
  for (const dir of SYSTEM_PATH.split(':')) {
    const file = path.join(dir, name)
    try {
      accessSync(file, constants.X_OK)
      return file
    } catch {
      // not here
    }
  }
  return null
}
