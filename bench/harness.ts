// Harness overhead per iteration (everything but the agent and the gate command) with a no-op
// agent on a synthetic repository of 10,000 tracked files, against the bare git floor
// (git add -A, git diff --cached --quiet, git commit) measured in the same run.
import { appendFileSync, mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { emptyResult } from '../src/agents/types.js'
import { GitWorkspace } from '../src/git/workspace.js'
import { AttemptLog } from '../src/records/attempt-log.js'
import { runLoop } from '../src/loop/engine.js'
import { Ledger } from '../src/records/ledger.js'
import { ProgressFile } from '../src/records/progress-file.js'
import { systemClock } from '../src/loop/types.js'
import { git, median, printTable, syntheticRepo, type Figure } from './lib.js'

const FILES = 10_000
const ITERATIONS = 5
const ROUNDS = 4

async function floor(repo: string): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < ITERATIONS; i++) {
    appendFileSync(path.join(repo, 'src', 'm1', 'f1.js'), `// floor ${i}\n`)
    const t = performance.now()
    git(repo, ['add', '-A'])
    try {
      git(repo, ['diff', '--cached', '--quiet'])
    } catch {
      // exit 1: there are changes, as expected
    }
    git(repo, ['commit', '-q', '-m', `floor ${i}`])
    times.push(performance.now() - t)
  }
  return times
}

async function harness(repo: string): Promise<number[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-run-'))
  const workspace = new GitWorkspace(repo, '.loopgate/progress.md')
  await workspace.prepare()
  const starts: number[] = []
  const ends: number[] = []
  let agentMs = 0
  let gateMs = 0
  await runLoop(
    {
      runId: 'bench',
      task: 'bench',
      maxIterations: ITERATIONS,
      callBudgetUsd: 0.01,
      spendCeilingUsd: 1000,
      callTimeoutMs: 60_000,
      timeLimitMs: 3_600_000,
      noProgressLimit: 99,
      sameFailureLimit: 99,
      progressFileName: '.loopgate/progress.md'
    },
    {
      clock: systemClock,
      agent: {
        run: async (iteration) => {
          const t = performance.now()
          appendFileSync(path.join(repo, 'src', 'm2', 'f2.js'), `// harness ${iteration}\n`)
          agentMs += performance.now() - t
          return emptyResult({ status: 'claimed-done', reason: 'no-op', costUsd: 0, costSource: 'reported' })
        }
      },
      workspace,
      gate: {
        run: async (_commit, iteration) => {
          const t = performance.now()
          const verdict = { passed: false, reason: 'exit 1', exitCode: 1, timedOut: false, failures: [{ id: `t${iteration}`, message: '' }], fingerprint: `f${iteration}`, outputTail: '', durationMs: 0 }
          gateMs += performance.now() - t
          return verdict
        }
      },
      guards: [
        {
          beforeCall: async () => {
            starts.push(performance.now() - agentMs - gateMs)
          },
          afterCall: async () => ({ rejected: [], tampered: false })
        }
      ],
      ledger: new Ledger(path.join(dir, 'ledger.jsonl')),
      log: new AttemptLog(path.join(dir, 'attempts.jsonl')),
      progress: new ProgressFile(repo, '.loopgate/progress.md'),
      report: () => {
        ends.push(performance.now() - agentMs - gateMs)
      }
    }
  )
  // report() runs once at the start (worst case) and once per iteration; pair iteration ends with starts.
  const iterationEnds = ends.slice(1, 1 + starts.length)
  return starts.map((s, i) => iterationEnds[i] - s)
}

export async function benchHarness(): Promise<Figure[]> {
  const repoA = syntheticRepo(FILES)
  const repoB = syntheticRepo(FILES)
  // warm the page cache for both
  git(repoA, ['status', '--porcelain'])
  git(repoB, ['status', '--porcelain'])
  // Alternate rounds so that load from other processes falls on both alike.
  const floorTimes: number[] = []
  const harnessTimes: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    floorTimes.push(...(await floor(repoA)))
    harnessTimes.push(...(await harness(repoB)))
  }
  const floorMs = median(floorTimes)
  const harnessMs = median(harnessTimes)
  const ratio = harnessMs / floorMs
  return [
    { name: `bare git floor per iteration (${FILES} files)`, value: `${floorMs.toFixed(1)} ms` },
    { name: 'harness overhead per iteration', value: `${harnessMs.toFixed(1)} ms` },
    { name: 'harness / floor ratio', value: ratio.toFixed(2), target: '≤ 1.5', ok: ratio <= 1.5 }
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await benchHarness())
}
