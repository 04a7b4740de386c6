import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs'

/** Appends one JSON line to a loopgate record (root-only), flushed to disk before it returns. */
export function appendJsonLine(file: string, entry: unknown): void {
  const fd = openSync(file, 'a', 0o600)
  try {
    writeSync(fd, `${JSON.stringify(entry)}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
