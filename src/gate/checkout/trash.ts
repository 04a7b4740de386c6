import { lstatSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { removeInBackground } from '../../fs/remove-in-background.js'

/** Paths moved aside at once and deleted in one background process (a 200 MB tree takes seconds to remove). */
export class Trash {
  private count = 0
  private readonly moved: string[] = []

  constructor(private readonly privateDir: string) {}

  /** Moves a path aside; it is deleted in the background with the rest (see empty). */
  discard(target: string): void {
    try {
      lstatSync(target)
    } catch {
      return
    }
    const trash = path.join(this.privateDir, `trash-${process.pid}-${this.count++}`)
    try {
      renameSync(target, trash)
      this.moved.push(trash)
    } catch {
      rmSync(target, { recursive: true, force: true })
    }
  }

  empty(): void {
    removeInBackground(this.moved.splice(0))
  }
}
