import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { LogDetails, LoopLogEntry } from '../loop/engine-types.js'
import { appendJsonLine } from './json-lines.js'

/** The baseline run: what the gate said on the start commit. */
export type BaselineEntry = LogDetails & { type: 'baseline'; base: string; commit: string; passed: boolean; reason: string }

/** A dependency bump that passes the gate alone (no agent call). */
type UpgradeEntry = LogDetails & { type: 'upgrade'; package: string; from: string; to: string; bumpCommit: string }

/** The upgrade a run starts on, written before the gate and any call so a killed run can be told apart. */
export interface UpgradeStartEntry {
  type: 'upgrade-start'
  attempt: { package: string; from: string; target: string; baseCommit: string; runId: string } & LogDetails
  refused: unknown[]
}

/** Every kind of entry of the attempt log, by its `type`. */
type AttemptEntry = LoopLogEntry | BaselineEntry | UpgradeEntry | UpgradeStartEntry

/** An entry as written: with the time it was written. */
type LoggedEntry = AttemptEntry & { at: string }

const KINDS: ReadonlySet<string> = new Set<AttemptEntry['type']>(['run-start', 'admission', 'iteration', 'stop', 'baseline', 'upgrade', 'upgrade-start'])

/** The attempt log: one JSON line per event, flushed as it is written. */
export class AttemptLog {
  readonly entries: LoggedEntry[] = []

  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  }

  write(entry: AttemptEntry): void {
    const record = { at: new Date().toISOString(), ...entry } as LoggedEntry
    this.entries.push(record)
    appendJsonLine(this.file, record)
  }
}

/**
 * The entries of an attempt log file of a known kind; a line cut by a kill, or one of no known kind,
 * is skipped. Fields are as written by loopgate: a reader still checks the values it acts on.
 */
export function readAttemptLog(file: string): LoggedEntry[] {
  if (!existsSync(file)) return []
  const out: LoggedEntry[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    try {
      const entry: unknown = JSON.parse(line)
      if (entry && typeof entry === 'object' && KINDS.has(String((entry as { type?: unknown }).type))) out.push(entry as LoggedEntry)
    } catch {
      // a line cut by the kill
    }
  }
  return out
}
