import { renameSync, writeFileSync } from 'node:fs'

/**
 * Replaces `file` in one step: the new content is written beside it and renamed over it, so a
 * process reading it meanwhile sees the old content or the new, never an empty or partial file
 * (git reads a repository's HEAD that way: an empty one is "not a git repository").
 * For loopgate's own folders only: the sibling name must be one no other process writes.
 */
export function replaceFile(file: string, data: string): void {
  const partial = `${file}.loopgate-${process.pid}`
  writeFileSync(partial, data)
  renameSync(partial, file)
}
