// One loopgate run on 10,000 files with the time spent in each child command summed by name:
// `node --import tsx --cpu-prof bench/profile.ts` shows where loopgate's own time goes, this
// where its children's does. BENCH_TIMELINE=1 also prints when each child ran (the critical path
// before the first verdict), BENCH_CACHED=1 profiles a later run whose baseline is known, and
// BENCH_FILES sets the repository's size and BENCH_CHANGED how many files each call changes.
import type childProcess from 'node:child_process'
import { rmSync } from 'node:fs'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { git, settle, syntheticRepo } from './lib.js'

const require = createRequire(import.meta.url)
const cp = require('node:child_process') as typeof childProcess
const spent = new Map<string, { ms: number; n: number }>()
// BENCH_TIMELINE=1 also prints each child's start and end, from the start of the run.
const timeline: { k: string; start: number; end: number }[] = []
let origin = 0
function key(file: string, args: readonly string[] | undefined): string {
  const a = (args ?? []).filter((x) => !x.startsWith('-c') && !/=/.test(x) && !x.startsWith('--git-dir') && !x.startsWith('--work-tree'))
  const name = path(file)
  if (name === 'git') return `git ${a.find((x) => !x.startsWith('-') && !x.includes('/')) ?? ''}`
  if (name === 'bash' || name === 'sh') return `${name} -c`
  return name
}
function path(f: string): string {
  return f.split('/').pop() ?? f
}
// BENCH_STACKS=1 keys each child by the project frames that started it as well.
function caller(): string {
  if (!process.env.BENCH_STACKS) return ''
  const frames = (new Error().stack ?? '').split('\n').filter((l) => l.includes('/src/'))
  return (
    ' ← ' +
    frames
      .slice(0, 3)
      .map((l) => l.replace(/.*\/src\//, '').replace(/\)$/, ''))
      .join(' ← ')
  )
}
function add(k: string, ms: number): void {
  const now = performance.now()
  timeline.push({ k, start: now - ms - origin, end: now - origin })
  const e = spent.get(k) ?? { ms: 0, n: 0 }
  e.ms += ms
  e.n++
  spent.set(k, e)
}
const origSpawn = cp.spawn
cp.spawn = function (file: string, args?: unknown, opts?: unknown) {
  const t = performance.now()
  const child = (origSpawn as (...x: unknown[]) => childProcess.ChildProcess)(file, args, opts)
  const k = key(file, args as string[]) + caller()
  child.on('close', () => add(k, performance.now() - t))
  return child
} as typeof cp.spawn
const origExecFile = cp.execFile as (...x: unknown[]) => childProcess.ChildProcess
cp.execFile = function (file: string, args: unknown, opts: unknown, cb: (...r: unknown[]) => void) {
  const t = performance.now()
  const k = key(file, args as string[]) + caller()
  return origExecFile(file, args, opts, (...r: unknown[]) => {
    add(k, performance.now() - t)
    cb(...r)
  })
} as typeof cp.execFile
for (const name of ['execFileSync', 'spawnSync'] as const) {
  const orig = cp[name] as (...x: unknown[]) => unknown
  ;(cp as unknown as Record<string, unknown>)[name] = function (file: string, args?: unknown, opts?: unknown) {
    const t = performance.now()
    const k = key(file, Array.isArray(args) ? args : []) + caller()
    try {
      return orig(file, args, opts)
    } finally {
      add(k, performance.now() - t)
    }
  }
}
syncBuiltinESMExports()

const { agentTouching, loopgateRun, memoryBaselines } = await import('./loop.js')
const files = Number(process.env.BENCH_FILES ?? 10_000)
// BENCH_CACHED=1 profiles a later run on the same tree: the first run's baseline is reused.
const baselines = memoryBaselines()
if (process.env.BENCH_CACHED) await loopgateRun(syntheticRepo(files), 8, {}, { baselines })
const repo = syntheticRepo(files)
git(repo, ['status', '--porcelain'])
settle()
spent.clear()
timeline.length = 0
origin = performance.now()
const changed = Number(process.env.BENCH_CHANGED ?? 1)
const r = await loopgateRun(repo, 8, {}, { baselines, ...(changed > 1 ? { agent: agentTouching(changed) } : {}) })
console.log(`total ${r.totalMs} ms, before the first call ${r.beforeFirstCallMs} ms`)
console.log(r.records.map((x) => `it ${x.iteration}: ${x.endedAt - x.startedAt} ms (agent ${x.agent.durationMs}, gate ${x.gate?.durationMs})`).join('\n'))
rmSync(repo, { recursive: true, force: true })
for (const [k, v] of [...spent].sort((a, b) => b[1].ms - a[1].ms).slice(0, process.env.BENCH_STACKS ? 60 : 25))
  console.log(`${k.padEnd(24)} ${Math.round(v.ms).toString().padStart(6)} ms  ×${v.n}`)
if (process.env.BENCH_TIMELINE)
  for (const t of timeline.sort((a, b) => a.start - b.start))
    console.log(`${Math.round(t.start).toString().padStart(6)} → ${Math.round(t.end).toString().padStart(6)}  ${t.k}`)
