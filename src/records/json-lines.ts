import { closeSync, openSync, writeSync } from 'node:fs'

/**
 * Appends one JSON line to a loopgate record (root-only), written before it returns: a main step
 * killed right after still leaves it for the post step. Not fsync'd: only an OS crash loses an
 * unsynced line, and that ends the job and its post step with it, while an fsync waits for every
 * file the gate's checkout is writing at the time (seconds on a busy disk).
 */
export function appendJsonLine(file: string, entry: unknown): void {
  const fd = openSync(file, 'a', 0o600)
  try {
    writeSync(fd, `${JSON.stringify(entry)}\n`)
  } finally {
    closeSync(fd)
  }
}
