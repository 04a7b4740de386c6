import { readdirSync, readFileSync } from 'node:fs'

/**
 * Pids of the live processes for which `matches` holds, given a reader of one of their `/proc`
 * files (`status`, `environ`). A process that ends while it is read, or that is not ours to read,
 * does not match.
 */
export function findProcesses(matches: (read: (file: string, encoding?: BufferEncoding) => string) => boolean): number[] {
  const found: number[] = []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return found
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      if (matches((file, encoding = 'utf8') => readFileSync(`/proc/${entry}/${file}`, encoding))) found.push(Number(entry))
    } catch {
      // gone, or not ours to read
    }
  }
  return found
}
