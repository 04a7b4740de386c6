import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AgentResult } from '../src/agent-result.js'
import { emptyResult } from '../src/agent-result.js'
import { AttemptLog } from '../src/records/attempt-log.js'
import type { EngineConfig, EngineDeps } from '../src/loop/engine-types.js'

/** The engine's ports, with the real record files behind the log (tests read it back). */
export type FakeDeps = EngineDeps & { log: AttemptLog }
import { FeaturesGuard } from '../src/gate/protection/features-guard.js'
import type { Feature } from '../src/loop/features.js'
import { Ledger } from '../src/records/ledger.js'
import { ProgressFile } from '../src/records/progress-file.js'
import type { GateVerdict, IterationChange } from '../src/loop/engine-types.js'

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
  /** Features (indices) the agent flips to passing in the features file during this call. */
  flip?: number[]
  /** Ids the gate's report lists as passed; undefined → the gate has no report. */
  passedIds?: string[]
  /** The call ended on the model provider's failure. */
  providerFailure?: AgentResult['providerFailure']
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

/** One commit of the fake workspace, with the features file as it was committed. */
export interface FakeCommit {
  commit: string
  parent: string
  kind: 'iteration' | 'features'
  features: string | null
}

export interface FakeWorld {
  config: EngineConfig
  deps: FakeDeps
  calls: { iteration: number; prompt: string; timeoutMs: number; spentBefore: number }[]
  gateRuns: string[]
  progressFile: string
  ledger: Ledger
  /** The features file in the fake workspace (exists once withFeatures wrote it). */
  featuresFile: string
  /** Every commit the fake workspace made, in order. */
  commits: FakeCommit[]
}

/** Engine collaborators driven by a script: no git, no processes, a fake clock. */
export function fakeWorld(steps: ScriptedStep[], overrides: Partial<EngineConfig> = {}, fallback: ScriptedStep = {}): FakeWorld {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-fake-'))
  let now = 0
  let head = 'c0'
  let commits = 0
  const made: FakeCommit[] = []
  const featuresFile = path.join(dir, 'features.json')
  const readFeatures = (): string | null => (existsSync(featuresFile) ? readFileSync(featuresFile, 'utf8') : null)
  let startFeatures: string | null | undefined
  const committedFeatures = (commit: string): string | null => made.find((c) => c.commit === commit)?.features ?? startFeatures ?? null
  const commit = (id: string, kind: FakeCommit['kind']): string => {
    made.push({ commit: id, parent: head, kind, features: readFeatures() })
    head = id
    return id
  }
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
  const deps: FakeDeps = {
    clock: { now: () => now },
    agent: {
      run: async ({ iteration, prompt, timeoutMs }) => {
        calls.push({ iteration, prompt, timeoutMs, spentBefore: ledger.spentUsd })
        const s = step(iteration)
        now += (s.minutes ?? 1) * 60_000
        lastGate = s
        startFeatures ??= readFeatures()
        if (s.flip) {
          const list = JSON.parse(readFileSync(featuresFile, 'utf8')) as Feature[]
          for (const i of s.flip) list[i].passes = true
          writeFileSync(featuresFile, `${JSON.stringify(list, null, 2)}\n`)
        }
        return emptyResult({
          status: s.status ?? 'claimed-done',
          reason: s.status && s.status !== 'claimed-done' ? 'scripted failure' : 'ok',
          costUsd: s.cost ?? 0,
          costSource: s.cost === undefined ? 'worst-case' : 'reported',
          turns: 1,
          providerFailure: s.providerFailure
        })
      }
    },
    workspace: {
      head: async () => head,
      // Like `git add -A`: the features file goes in as the workspace has it (the engine must have held flips aside).
      commitIteration: async (): Promise<IterationChange> => {
        const files = lastGate.files ?? []
        const featuresChanged = readFeatures() !== committedFeatures(head)
        if (files.length === 0 && !featuresChanged) return { commit: null, changedFiles: [], stat: { files: 0, insertions: 0, deletions: 0 } }
        if (files.length > 0) commits++
        commit(`c${made.length + 1}`, 'iteration')
        return { commit: head, changedFiles: files, stat: { files: files.length, insertions: files.length > 0 ? 1 : 0, deletions: 0 } }
      },
      commitFeaturesFile: async (_runId, iteration) => (readFeatures() === committedFeatures(head) ? null : commit(`r${iteration}`, 'features')),
      hasChangesSince: async () => commits > 0
    },
    gate: {
      run: async (commit) => {
        gateRuns.push(commit)
        const verdict = lastGate.gate === 'pass' ? passVerdict() : failVerdict(lastGate.failure ?? `t${gateRuns.length}`)
        return lastGate.passedIds ? { ...verdict, passedIds: lastGate.passedIds } : verdict
      }
    },
    guards: [
      {
        afterCall: async () =>
          lastGate.tampered
            ? { rejected: ['rejected: protected files changed: test/a.test.js'], tampered: true, protectedPaths: ['test/a.test.js'] }
            : { rejected: [], tampered: false }
      }
    ],
    ledger,
    log: new AttemptLog(path.join(dir, 'attempts.jsonl')),
    progress: new ProgressFile(path.dirname(progressFile), path.basename(progressFile))
  }
  return { config, deps, calls, gateRuns, progressFile, ledger, featuresFile, commits: made }
}

/** Gives the fake workspace a features file and the engine its features guard. */
export function withFeatures(world: FakeWorld, features: Feature[]): FakeWorld {
  writeFileSync(world.featuresFile, `${JSON.stringify(features, null, 2)}\n`)
  world.deps.guards.push(new FeaturesGuard(path.dirname(world.featuresFile), path.basename(world.featuresFile)))
  return world
}
