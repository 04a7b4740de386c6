import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { CostSource } from '../agent-result.js'
import { appendJsonLine } from './json-lines.js'

export type LedgerEntry =
  | { type: 'call-start'; at: string; iteration: number; budgetUsd: number }
  | { type: 'charge'; at: string; iteration: number; usd: number; source: CostSource; note?: string }

/**
 * The run's spend ledger: append-only JSON Lines outside the workspace, each entry flushed to disk
 * before the next step. A call that started without a charge is worth its full budget.
 */
/** One charge against the open call: the reported cost (absent when unknown), its source and an optional note. */
interface ChargeRequest {
  iteration: number
  usd: number | undefined
  source: CostSource
  at?: Date
  note?: string
}

export class Ledger {
  private spent = 0
  private openCall: { iteration: number; budgetUsd: number } | null = null

  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    if (existsSync(file)) {
      const summary = Ledger.summarise(readFileSync(file, 'utf8'))
      this.spent = summary.chargedUsd
    }
  }

  get spentUsd(): number {
    return this.spent
  }

  get inFlight(): { iteration: number; budgetUsd: number } | null {
    return this.openCall
  }

  private append(entry: LedgerEntry): void {
    appendJsonLine(this.file, entry)
  }

  begin(iteration: number, budgetUsd: number, at: Date = new Date()): void {
    this.openCall = { iteration, budgetUsd }
    this.append({ type: 'call-start', at: at.toISOString(), iteration, budgetUsd })
  }

  /** Charges the open call. A missing or invalid cost is charged the full call budget. */
  charge({ iteration, usd, source, at = new Date(), note }: ChargeRequest): { usd: number; source: CostSource } {
    const budget = this.openCall?.budgetUsd ?? 0
    const valid = usd !== undefined && Number.isFinite(usd) && usd >= 0
    const charged = valid ? (usd as number) : budget
    const chargedSource: CostSource = valid ? source : 'worst-case'
    this.append({ type: 'charge', at: at.toISOString(), iteration, usd: charged, source: chargedSource, note })
    this.spent += charged
    this.openCall = null
    return { usd: charged, source: chargedSource }
  }

  /** The entries of a ledger file's text; a torn last line (a crash mid-write) is skipped. */
  static entries(text: string): LedgerEntry[] {
    const entries: LedgerEntry[] = []
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      try {
        entries.push(JSON.parse(line) as LedgerEntry)
      } catch {
        // torn line
      }
    }
    return entries
  }

  /** Reads a ledger file written by a process that may have died mid-call. */
  static summarise(text: string): { chargedUsd: number; openCalls: { iteration: number; budgetUsd: number }[] } {
    let chargedUsd = 0
    const open = new Map<number, number>()
    for (const entry of Ledger.entries(text)) {
      if (entry.type === 'call-start') open.set(entry.iteration, entry.budgetUsd)
      else if (entry.type === 'charge') {
        chargedUsd += entry.usd
        open.delete(entry.iteration)
      }
    }
    return { chargedUsd, openCalls: [...open].map(([iteration, budgetUsd]) => ({ iteration, budgetUsd })) }
  }

  /** Charges every call that started but never got a charge (the process died). Returns the total. */
  static settleOpenCalls(file: string, note: string): number {
    if (!existsSync(file)) return 0
    const { openCalls } = Ledger.summarise(readFileSync(file, 'utf8'))
    let added = 0
    for (const call of openCalls) {
      const entry: LedgerEntry = {
        type: 'charge',
        at: new Date().toISOString(),
        iteration: call.iteration,
        usd: call.budgetUsd,
        source: 'worst-case',
        note
      }
      appendJsonLine(file, entry)
      added += call.budgetUsd
    }
    return added
  }
}
