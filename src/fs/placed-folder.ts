import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * `dir` holding `files` (name → content), every one readable by all and writable by loopgate's
 * user alone. Written once: beside `dir`, then renamed into place, so a process never sees it half
 * written; a folder already there (an earlier gate run of the same run) is kept as it is.
 * For loopgate's own folders only, under a parent nobody else can write.
 */
export function placedFolder(dir: string, files: Readonly<Record<string, string>>): string {
  if (existsSync(dir)) return dir
  const making = `${dir}.${process.pid}`
  mkdirSync(making, { recursive: true, mode: 0o755 })
  chmodSync(making, 0o755)
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(making, name), content, { mode: 0o644 })
  renameSync(making, dir)
  return dir
}
