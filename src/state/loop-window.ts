import type { CacheLister } from './cache-list.js'
import { unionWindowUsd } from './charge-records.js'
import { leaseKey, leaseScope, type Lease } from './lease.js'
import { listLoopRecords, saveLoopRecord, saveRunCharges } from './loop-records.js'
import type { LoopState } from './schema.js'
import type { CacheClient } from './store.js'

interface WindowInput {
  loopId: string
  pr: number | null
  runId: string
  tempDir: string
  env: NodeJS.ProcessEnv
  now: Date
  state: LoopState
  periodCeilingUsd?: number
  periodHours: number
  timeLimitMs: number
  spendCeilingUsd: number
  /** Whether the cache service answered the restore (no lease can be saved without it). */
  cacheAvailable: boolean
  list?: CacheLister
  cache?: CacheClient
}

type WindowResult = { kind: 'ready'; spentBeforeUsd: number | null; notes: string[]; warnings: string[] } | { kind: 'held'; message: string }

/** The URL of a run named `<run id>-<attempt>` in this repository, when it is a workflow run. */
export function runUrl(runId: string, env: NodeJS.ProcessEnv): string | null {
  const m = /^(\d+)-(\d+)$/.exec(runId)
  if (!m || !env.GITHUB_REPOSITORY) return null
  return `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${m[1]}/attempts/${m[2]}`
}

function heldMessage(input: WindowInput, holder: Lease): string {
  const url = runUrl(holder.runId, input.env)
  const scope = input.pr === null ? `loop ${input.loopId}` : `pull request #${input.pr} of loop ${input.loopId}`
  return (
    `another run of the ${scope} is live: run ${holder.runId}${url ? ` (${url})` : ''}, leased until ${holder.deadline}. ` +
    'This run stops before spending: two live runs of one loop would each spend against a window that does not yet hold the other. ' +
    `Give the workflow a concurrency group per loop (\`concurrency: { group: loopgate-${input.loopId}, cancel-in-progress: false }\`) so GitHub queues the next run, ` +
    'or give the jobs distinct `loop-id`s.'
  )
}

/**
 * Before anything is spent: takes the run's lease on its loop, then reads every run's records from
 * the repository's cache list. A scope another live run holds stops this run (its lease released
 * at once). The window's spend is the union of every run's charges; when it cannot be read with a
 * period ceiling set, it is unknown, and an unknown window counts as full (null).
 */
export async function admitToLoop(input: WindowInput): Promise<WindowResult> {
  const notes: string[] = []
  const warnings: string[] = []
  const scope = leaseScope(input.pr)
  const lease: Lease = {
    runId: input.runId,
    scope,
    deadline: new Date(input.now.getTime() + input.timeLimitMs).toISOString(),
    ceilingUsd: input.spendCeilingUsd
  }
  const leased = input.cacheAvailable
    ? await saveLoopRecord({ tempDir: input.tempDir, runId: input.runId, key: leaseKey(input.loopId, lease), content: lease, cache: input.cache })
    : { saved: false, message: 'the cache service is not available' }
  if (!leased.saved)
    warnings.push(`This run's lease on the loop was not saved (${leased.message ?? 'unknown reason'}): a run of the same loop started now cannot see this one.`)
  const read = await listLoopRecords({ list: input.list, loopId: input.loopId, self: { runId: input.runId, scope }, now: input.now })
  if (read.readable && read.records.holder) {
    await saveRunCharges({ tempDir: input.tempDir, loopId: input.loopId, runId: input.runId, ledgerFile: null, cache: input.cache })
    return { kind: 'held', message: heldMessage(input, read.records.holder) }
  }
  if (input.periodCeilingUsd === undefined) {
    if (!read.readable) notes.push(`Other live runs of this loop could not be looked for: ${read.message}.`)
    return { kind: 'ready', spentBeforeUsd: 0, notes, warnings }
  }
  if (!read.readable) {
    warnings.push(
      `The rolling window of period-ceiling-usd could not be read: ${read.message}. An unreadable window counts as full, so this run spends nothing ` +
        '(the charges of every run are read from the cache list, not only from the restored state).'
    )
    return { kind: 'ready', spentBeforeUsd: null, notes, warnings }
  }
  const { charges, unsettled } = read.records
  const spent = unionWindowUsd([input.state.periodLedger, ...charges, unsettled], input.now, input.periodHours)
  if (unsettled.length > 0) {
    notes.push(`${unsettled.length} earlier run(s) of this loop never recorded their charges (killed with their runner): each counts at its spend-ceiling-usd.`)
  }
  notes.push(
    `The window of the last ${input.periodHours} h holds $${spent.toFixed(2)} of period-ceiling-usd $${input.periodCeilingUsd.toFixed(2)}, from ${charges.length} run record(s).`
  )
  return { kind: 'ready', spentBeforeUsd: spent, notes, warnings }
}
