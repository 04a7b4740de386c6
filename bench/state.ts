// State: restore + save round trip with the real @actions/cache library against the local cache
// service (Azurite blob storage), and the state's size after 1,000 simulated runs (bounded).
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { LocalCacheService } from '../__tests__/cache-server/server.js'
import { recordRun } from '../src/state/record-run.js'
import { emptyState, type LoopState } from '../src/state/schema.js'
import { LIMITS } from '../src/records/state-limits.js'
import { restoreLoopState, saveLoopState, stateKey, stateLocation } from '../src/state/store.js'
import { median, printTable, type Figure } from './lib.js'

const ROUND_TRIPS = 5
const RUNS = 1000
const SIZE_BOUND = 64 * 1024

/** The state after `runs` simulated hourly runs, each with charges, a PR number and long evidence. */
export function simulateRuns(runs: number): { state: LoopState; maxBytes: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-state-'))
  const ledgerFile = path.join(dir, 'ledger.jsonl')
  let state = emptyState('bench')
  let maxBytes = 0
  const start = Date.parse('2026-01-01T00:00:00Z')
  for (let i = 0; i < runs; i++) {
    const t = start + i * 3_600_000
    writeFileSync(
      ledgerFile,
      [1, 2, 3]
        .map((k) => JSON.stringify({ type: 'charge', at: new Date(t + k * 60_000).toISOString(), iteration: k, usd: 0.37 * k, source: 'reported' }))
        .join('\n') + '\n'
    )
    state = recordRun(
      state,
      {
        runId: `${1000 + i}-1`,
        startedAt: new Date(t),
        endedAt: new Date(t + 240_000),
        outcome: 'escalated',
        stopReason: 'same-failure',
        spentUsd: 2.22,
        iterations: 3,
        pr: (i % 300) + 1,
        ledgerFile,
        lastFailure: {
          fingerprint: `fp${i}`,
          evidence: Array.from({ length: 60 }, (_, k) => `failing: suite ${k} › case — ${'expected 5, got -1 '.repeat(40)}`)
        },
        wip: null,
        countsForPr: true
      },
      24
    )
    maxBytes = Math.max(maxBytes, Buffer.byteLength(JSON.stringify(state)))
  }
  return { state, maxBytes }
}

/** Keeps the library's own progress lines off the table. */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = (() => true) as typeof process.stdout.write
  try {
    return await fn()
  } finally {
    process.stdout.write = write
  }
}

export async function benchState(): Promise<Figure[]> {
  const { state, maxBytes } = simulateRuns(RUNS)
  const svc = new LocalCacheService()
  await svc.start()
  const saved = { ...process.env }
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-ws-'))
  const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-temp-'))
  Object.assign(process.env, svc.env(), { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp, GITHUB_SERVER_URL: 'https://github.com' })
  const location = stateLocation(runnerTemp, 'bench', null)
  const saveMs: number[] = []
  const restoreMs: number[] = []
  try {
    await quietly(async () => {
      for (let i = 0; i < ROUND_TRIPS; i++) {
        let t = performance.now()
        const r = await restoreLoopState({ loopId: 'bench', pr: null, location, primaryKey: stateKey('bench', `${i}-1`, null) })
        restoreMs.push(performance.now() - t)
        if (i > 0 && r.status !== 'restored') throw new Error(`round trip ${i}: restore ${r.status}`)
        t = performance.now()
        const s = await saveLoopState(i === 0 ? state : r.status === 'restored' ? r.state : state, { location, key: stateKey('bench', `${i}-1`, null) })
        saveMs.push(performance.now() - t)
        if (!s.saved) throw new Error(`round trip ${i}: save failed: ${s.message}`)
      }
    })
  } finally {
    process.env = saved
    await svc.stop()
  }
  const roundTrip = median(restoreMs.slice(1)) + median(saveMs)
  const archive = svc.entries.at(-1)?.sizeBytes ?? 0
  return [
    { name: 'state restore (real @actions/cache, local service)', value: `${median(restoreMs.slice(1)).toFixed(0)} ms` },
    { name: 'state save (real @actions/cache, local service)', value: `${median(saveMs).toFixed(0)} ms` },
    { name: 'state restore + save round trip', value: `${roundTrip.toFixed(0)} ms`, target: '≤ 5000 ms', ok: roundTrip <= 5000 },
    {
      name: `state size after ${RUNS} runs (max over the runs)`,
      value: `${Buffer.byteLength(JSON.stringify(state))} B (max ${maxBytes} B)`,
      target: `≤ ${SIZE_BOUND} B`,
      ok: maxBytes <= SIZE_BOUND
    },
    {
      name: 'state entries after 1,000 runs (runs / charges / PRs)',
      value: `${state.runs.length} / ${state.periodLedger.length} / ${state.prRuns.length}`,
      target: `≤ ${LIMITS.runs} / ${LIMITS.periodCharges} / ${LIMITS.prCounts}`,
      ok: state.runs.length <= LIMITS.runs && state.periodLedger.length <= LIMITS.periodCharges && state.prRuns.length <= LIMITS.prCounts
    },
    { name: 'state cache archive (zstd tar)', value: `${archive} B` }
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await benchState())
}
