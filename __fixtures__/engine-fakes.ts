import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AgentResult } from '../src/agents/types.js'
import { emptyResult } from '../src/agents/types.js'
import { AttemptLog } from '../src/loop/attempt-log.js'
import type { EngineConfig, EngineDeps } from '../src/loop/engine.js'
import { Ledger } from '../src/loop/ledger.js'
import { ProgressFile } from '../src/loop/progress.js'
import type { GateVerdict, IterationChange } from '../src/loop/types.js'

/** One scripted iteration for the fake engine collaborators. */
export interface ScriptedStep {
  status?: AgentResult['status']
  /** Reported cost; undefined → the agent reports none (worst case). */
  cost?: number
  /** Files this iteration changes (empty → no change). */
  files?: string[]
  /** Gate result on this iteration's tree. */
  gate?: 'pass' | 'fail'
  /** Failure id used for the fingerprint when the gate fails. */
  failure?: string
  /** Simulated minutes the call takes. */
  minutes?: number
  tampered?: boolean
}

export function passVerdict(): GateVerdict {
  return { passed: true, reason: 'exit 0', exitCode: 0, timedOut: false, failures: [], fingerprint: null, outputTail: '', durationMs: 1 }
}

export function failVerdict(id: string): GateVerdict {
  return {
    passed: false,
    reason: 'exit 1',
    exitCode: 1,
    timedOut: false,
    failures: [{ id, message: 'boom' }],
    fingerprint: `fp-${id}`,
    outputTail: '',
    durationMs: 1
  }
}

export interface FakeWorld {
  config: EngineConfig
  deps: EngineDeps
  calls: { iteration: number; prompt: string; timeoutMs: number; spentBefore: number }[]
  gateRuns: string[]
  progressFile: string
  ledger: Ledger
}

/** Engine collaborators driven by a script: no git, no processes, a fake clock. */
export function fakeWorld(steps: ScriptedStep[], overrides: Partial<EngineConfig> = {}, fallback: ScriptedStep = {}): FakeWorld {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-fake-'))
  let now = 0
  let head = 'c0'
  let commits = 0
  let lastGate: ScriptedStep = {}
  const calls: FakeWorld['calls'] = []
  const gateRuns: string[] = []
  const ledger = new Ledger(path.join(dir, 'ledger.jsonl'))
  const progressFile = path.join(dir, 'progress.md')
  const config: EngineConfig = {
    runId: 'run-1',
    task: 'do the thing',
    maxIterations: 20,
    callBudgetUsd: 4,
    spendCeilingUsd: 40,
    callTimeoutMs: 45 * 60_000,
    timeLimitMs: 300 * 60_000,
    noProgressLimit: 3,
    sameFailureLimit: 2,
    progressFileName: '.loopgate/progress.md',
    ...overrides
  }
  const step = (i: number): ScriptedStep => steps[i - 1] ?? fallback
  const deps: EngineDeps = {
    clock: { now: () => now },
    agent: {
      run: async (iteration, prompt, timeoutMs) => {
        calls.push({ iteration, prompt, timeoutMs, spentBefore: ledger.spentUsd })
        const s = step(iteration)
        now += (s.minutes ?? 1) * 60_000
        lastGate = s
        return emptyResult({
          status: s.status ?? 'claimed-done',
          reason: s.status && s.status !== 'claimed-done' ? 'scripted failure' : 'ok',
          costUsd: s.cost ?? 0,
          costSource: s.cost === undefined ? 'worst-case' : 'reported',
          turns: 1
        })
      }
    },
    workspace: {
      head: async () => head,
      commitIteration: async (): Promise<IterationChange> => {
        const files = lastGate.files ?? []
        if (files.length === 0) return { commit: null, changedFiles: [], stat: { files: 0, insertions: 0, deletions: 0 } }
        head = `c${++commits}`
        return { commit: head, changedFiles: files, stat: { files: files.length, insertions: 1, deletions: 0 } }
      },
      hasChangesSince: async () => commits > 0
    },
    gate: {
      run: async (commit) => {
        gateRuns.push(commit)
        return lastGate.gate === 'pass' ? passVerdict() : failVerdict(lastGate.failure ?? `t${gateRuns.length}`)
      }
    },
    guards: [
      {
        afterCall: async () => ({ rejected: lastGate.tampered ? ['rejected: protected files changed: test/a.test.js'] : [], tampered: !!lastGate.tampered })
      }
    ],
    ledger,
    log: new AttemptLog(path.join(dir, 'attempts.jsonl')),
    progress: new ProgressFile(path.dirname(progressFile), path.basename(progressFile))
  }
  return { config, deps, calls, gateRuns, progressFile, ledger }
}
