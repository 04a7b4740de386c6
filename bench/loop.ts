// The loop against the naive loop it replaces (agent, `git add -A`, `git commit`, the tests in
// place), end to end on the same synthetic repository, measured side by side in one run; the
// per-iteration overhead beyond the agent and the gate command; how that overhead scales with the
// repository's size. Real git, real processes, the real isolation (an agent user when root).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { readSettings } from '../src/inputs.js'
import type { IterationRecord } from '../src/loop/types.js'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { executeRun } from '../src/run.js'
import { git, gitEnv, median, printTable, syntheticRepo, type Figure } from './lib.js'

export const AGENT = 'echo "// edit $LOOPGATE_ITERATION" >> src/m1/f1.js'
export const GATE = `node -e "console.log('✕ adds'); console.log('  expected 5, got -1'); process.exit(1)"`
const ITERATIONS = 8
const ROUNDS = 3

const NAIVE = `for i in $(seq 1 ${ITERATIONS}); do
  LOOPGATE_ITERATION=$i bash -c "$AGENT"
  git add -A
  git commit -q -m "iteration $i"
  bash -c "$GATE" >/dev/null 2>&1
done
true`

/** The naive loop as one shell process; wall ms. */
export function naiveLoop(repo: string): number {
  const t = performance.now()
  const r = spawnSync('/bin/bash', ['-c', NAIVE], { cwd: repo, env: { ...gitEnv, AGENT, GATE }, stdio: 'ignore' })
  if (r.status !== 0) throw new Error(`the naive loop failed (${r.status})`)
  return performance.now() - t
}

/** The gate command alone, in place; median wall ms. */
export function gateInPlace(repo: string, runs = 5): number {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    spawnSync('/bin/bash', ['-c', GATE], { cwd: repo, stdio: 'ignore' })
    times.push(performance.now() - t)
  }
  return median(times)
}

export interface LoopRun {
  totalMs: number
  /** From the call of executeRun to the first agent call's start. */
  beforeFirstCallMs: number
  records: IterationRecord[]
  stopReason: string
}

/** One whole loopgate run (custody, protection, baseline, loop, dry-run publish); wall ms. */
export async function loopgateRun(repo: string, iterations = ITERATIONS, extra: Record<string, string> = {}): Promise<LoopRun> {
  const inputs: Record<string, string> = {
    agent: 'command',
    'agent-command': AGENT,
    prompt: 'make the test pass',
    'gate-command': GATE,
    'dry-run': 'true',
    'max-iterations': String(iterations),
    'same-failure-limit': '99',
    'no-progress-limit': '99',
    ...extra
  }
  const settings = readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: repo })
  const records: IterationRecord[] = []
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-rt-'))
  const t = Date.now()
  const report = await executeRun(settings, {
    env: process.env,
    runId: `bench-${process.pid}-${t}`,
    tempDir,
    publisher: new DryRunPublisher(),
    signal: new AbortController().signal,
    report: () => undefined,
    onIteration: (r) => records.push(r)
  })
  const totalMs = Date.now() - t
  rmSync(tempDir, { recursive: true, force: true })
  if (records.length !== iterations) throw new Error(`loopgate ran ${records.length} iterations (${report.stopReason})`)
  return { totalMs, beforeFirstCallMs: (records[0]?.startedAt ?? t) - t, records, stopReason: report.stopReason }
}

/** Per-iteration time beyond the agent call and the gate command (iterations 2…: the first waits for the baseline). */
export function overheadPerIteration(run: LoopRun, gateMs: number): number {
  return median(run.records.slice(1).map((r) => r.endedAt - r.startedAt - r.agent.durationMs - gateMs))
}

function statusMs(repo: string): number {
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const t = performance.now()
    git(repo, ['status', '--porcelain'])
    times.push(performance.now() - t)
  }
  return median(times)
}

export async function benchLoop(): Promise<Figure[]> {
  const figures: Figure[] = []
  const naiveMs: number[] = []
  const loopMs: number[] = []
  const ratios: number[] = []
  const overhead: number[] = []
  const before: number[] = []
  const agentMs: number[] = []
  const gateMs: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    // Fresh repositories each round: a later run on the same base may reuse the cached baseline.
    const a = syntheticRepo(10_000)
    const b = syntheticRepo(10_000)
    git(a, ['status', '--porcelain'])
    git(b, ['status', '--porcelain'])
    const n = naiveLoop(a)
    const run = await loopgateRun(b)
    const g = gateInPlace(b)
    naiveMs.push(n)
    loopMs.push(run.totalMs)
    ratios.push(run.totalMs / n)
    gateMs.push(g)
    overhead.push(overheadPerIteration(run, g))
    before.push(run.beforeFirstCallMs)
    agentMs.push(median(run.records.map((r) => r.agent.durationMs)))
    rmSync(a, { recursive: true, force: true })
    rmSync(b, { recursive: true, force: true })
  }
  const ratio = median(ratios)
  const over = median(overhead)
  figures.push(
    { name: `loop: naive, ${ITERATIONS} iterations on 10,000 files`, value: `${Math.round(median(naiveMs))} ms` },
    { name: `loop: loopgate, ${ITERATIONS} iterations on 10,000 files`, value: `${Math.round(median(loopMs))} ms (${Math.round(median(before))} ms before the first call)` },
    { name: 'loop: loopgate / naive', value: `${ratio.toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`, target: '≤ 1.5', ok: ratio <= 1.5 },
    { name: 'loop: agent call / gate command (in place)', value: `${Math.round(median(agentMs))} ms / ${Math.round(median(gateMs))} ms` },
    { name: 'loop: overhead per iteration beyond agent + gate', value: `${Math.round(over)} ms`, target: '≤ 150 ms', ok: over <= 150 }
  )
  return figures
}

export async function benchScaling(): Promise<Figure[]> {
  const figures: Figure[] = []
  for (const files of [1_000, 10_000, 100_000]) {
    const repo = syntheticRepo(files)
    const status = statusMs(repo)
    const g = gateInPlace(repo, 3)
    const run = await loopgateRun(repo, 4)
    figures.push({
      name: `scaling: ${files.toLocaleString('en')} files, overhead per iteration`,
      value: `${Math.round(overheadPerIteration(run, g))} ms (git status ${Math.round(status)} ms; before first call ${run.beforeFirstCallMs} ms)`
    })
    rmSync(repo, { recursive: true, force: true })
  }
  return figures
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const which = process.argv[2]
  printTable(which === 'scaling' ? await benchScaling() : which === 'loop' ? await benchLoop() : [...(await benchLoop()), ...(await benchScaling())])
}
