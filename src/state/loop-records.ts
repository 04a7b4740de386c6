import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Ledger } from '../records/ledger.js'
import type { CacheLister } from './cache-list.js'
import { chargesKey, loopRecordsPrefix, type ChargeRecord } from './charge-records.js'
import { readLoopRecords, type Lease, type LoopRecords } from './lease.js'
import { saveDirectory, type CacheClient } from './store.js'

/** One record entry to save: its key, its content, and the run's temporary folder it is written in. */
interface LoopRecordSave {
  tempDir: string
  runId: string
  key: string
  content: unknown
  cache?: CacheClient
}

/**
 * Saves one record entry of the loop (a lease, a run's charges). The key is the record; the
 * entry's one file repeats it for people who download the entry.
 */
export async function saveLoopRecord({ tempDir, runId, key, content, cache }: LoopRecordSave): Promise<{ saved: boolean; message?: string }> {
  // `@` cannot occur in a loop id: this folder never is a loop's state folder.
  const dir = path.join(tempDir, 'loopgate-state', `@records-${runId}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = path.join(dir, 'record.json')
  writeFileSync(file, `${JSON.stringify({ key, ...(content as object) })}\n`, { mode: 0o600 })
  try {
    return await saveDirectory({ dir, file }, key, cache)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The charges in one run's ledger, with their iterations. */
function chargeRecordsFromLedger(file: string, runId: string): ChargeRecord[] {
  if (!existsSync(file)) return []
  const records: ChargeRecord[] = []
  for (const entry of Ledger.entries(readFileSync(file, 'utf8'))) {
    if (entry.type === 'charge' && Number.isFinite(entry.usd) && entry.usd > 0)
      records.push({ runId, iteration: entry.iteration, at: entry.at, usd: entry.usd })
  }
  return records
}

/** Saves the run's charges as its own entry; this also releases its lease. */
export async function saveRunCharges(opts: {
  tempDir: string
  loopId: string
  runId: string
  ledgerFile: string | null
  cache?: CacheClient
}): Promise<{ saved: boolean; message?: string }> {
  const charges = opts.ledgerFile ? chargeRecordsFromLedger(opts.ledgerFile, opts.runId) : []
  return saveLoopRecord({
    tempDir: opts.tempDir,
    runId: opts.runId,
    key: chargesKey(opts.loopId, opts.runId, charges),
    content: { charges },
    cache: opts.cache
  })
}

type LoopRecordsRead = { readable: true; records: LoopRecords } | { readable: false; message: string }

/** The loop's record entries to list through the cache list, for one run at one moment. */
interface LoopRecordsListing {
  list: CacheLister | undefined
  loopId: string
  self: { runId: string; scope: string }
  now: Date
}

/** Lists every record entry of the loop (all branches) and reads them. */
export async function listLoopRecords({ list, loopId, self, now }: LoopRecordsListing): Promise<LoopRecordsRead> {
  if (!list) {
    return { readable: false, message: "the repository's cache list can be read only in GitHub Actions (GITHUB_API_URL) with `github-token`" }
  }
  try {
    const entries = await list(loopRecordsPrefix(loopId))
    return { readable: true, records: readLoopRecords({ loopId, entries, self, now }) }
  } catch (err) {
    const message = (err as Error).message
    const denied = (err as { status?: unknown }).status === 403 || /not accessible|forbidden/i.test(message)
    return {
      readable: false,
      message: denied ? `the token may not read the repository's cache list (${message}); give the job \`permissions: actions: read\`` : message
    }
  }
}

export type { Lease }
