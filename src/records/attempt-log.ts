import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { appendJsonLine } from './json-lines.js'

/** The attempt log: one JSON line per event, flushed as it is written. */
export class AttemptLog {
  readonly entries: Record<string, unknown>[] = []

  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  }

  write(entry: Record<string, unknown>): void {
    const record = { at: new Date().toISOString(), ...entry }
    this.entries.push(record)
    appendJsonLine(this.file, record)
  }
}
