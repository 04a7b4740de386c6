import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs'
import path from 'node:path'

/** The attempt log: one JSON line per event, flushed as it is written. */
export class AttemptLog {
  readonly entries: Record<string, unknown>[] = []

  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  }

  write(entry: Record<string, unknown>): void {
    const record = { at: new Date().toISOString(), ...entry }
    this.entries.push(record)
    const fd = openSync(this.file, 'a', 0o600)
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }
}
