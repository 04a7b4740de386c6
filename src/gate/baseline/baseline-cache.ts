import { createHash } from 'node:crypto'
import { LOCKFILE_NAMES } from '../../ecosystems/registry.js'
import type { GitRepository } from '../../git/repository.js'
import { LIMITS } from '../../records/state-limits.js'
import type { Baseline } from '../protected-gate.js'
import type { BaselineIds } from '../verdict.js'

/**
 * The baseline's verdict depends only on the tree it runs on, the gate command and setup, the
 * report path and the installed dependencies (the lockfiles): a later run with the same inputs
 * reuses it instead of running the whole test suite again.
 */
export interface BaselineInputs {
  /** The tree the baseline runs on (the start commit's, protected paths at base). */
  tree: string
  command: string
  setup?: string
  report?: string
  /** sha256 over the lockfiles found in that tree (see lockfileHash). */
  lockfiles: string
}

/** What a run's state carries per key: the counts the fail-closed checks compare against. */
export interface CachedBaseline {
  key: string
  tests: number | null
  skipped: number | null
  passed: boolean
  reason: string
  /** The gate's environment key (see healthKey): the gate ran on it before, so it starts. */
  health?: string
  /** The ids of the baseline's tests, when a report gave them (each must pass in a candidate). */
  ids?: BaselineIds | null
  /** The ids of the tests the baseline failed: the task, never flaky nor the base's. */
  failed?: string[]
  /** The protected paths the baseline's run wrote (see write-judge.ts): a candidate's run may write them back. */
  wrote?: string[]
}

/** Where baselines are kept between runs (the loop state); absent, every run runs its own. */
export interface BaselineStore {
  get(key: string): CachedBaseline | null
  put(entry: CachedBaseline): void
  /** Whether a baseline ran on this environment key (the gate could run there, on some tree). */
  healthy?(health: string): boolean
}

/** The lockfiles whose change makes a new baseline: the ecosystems' and those of other languages. */
export const LOCKFILES = [...LOCKFILE_NAMES, 'requirements.txt', 'Cargo.lock', 'go.sum', 'Gemfile.lock', 'composer.lock']

export function baselineKey(inputs: BaselineInputs): string {
  const h = createHash('sha256')
  for (const part of [inputs.tree, inputs.command, inputs.setup ?? '', inputs.report ?? '', inputs.lockfiles]) h.update(`${part.length}:${part}`)
  return `baseline-v2-${h.digest('hex').slice(0, 32)}`
}

/**
 * What decides whether the gate can run at all, whatever the tree: the gate command and setup, the
 * report path and the lockfiles. A baseline that ran on the same key needs no check before the
 * first call.
 */
export function healthKey(inputs: BaselineInputs): string {
  const h = createHash('sha256')
  for (const part of [inputs.command, inputs.setup ?? '', inputs.report ?? '', inputs.lockfiles]) h.update(`${part.length}:${part}`)
  return `gate-health-v1-${h.digest('hex').slice(0, 32)}`
}

/** The lockfiles' blob ids at the root of `commit` (from git's objects: nothing the agent wrote). */
export async function lockfileHash(repository: GitRepository, commit: string): Promise<string> {
  const records = await repository.lsTreeRecords(commit, { paths: [...LOCKFILES] })
  return createHash('sha256')
    .update(records.map((r) => `${r}\0`).join(''))
    .digest('hex')
}

export async function baselineInputs(
  repository: GitRepository,
  commit: string,
  gate: { command: string; setup?: string; report?: string }
): Promise<BaselineInputs> {
  const [tree, lockfiles] = await Promise.all([repository.revParse(`${commit}^{tree}`), lockfileHash(repository, commit)])
  return { tree, command: gate.command, setup: gate.setup, report: gate.report, lockfiles }
}

/** The entry the state keeps; null for a baseline whose ids are more than the state keeps (it runs each time). */
export function toCached(key: string, b: Baseline, health?: string): CachedBaseline | null {
  const ids = b.ids ?? null
  if (ids && (ids.ran.length + ids.skipped.length > LIMITS.baselineIds || [...ids.ran, ...ids.skipped].some((id) => id.length > LIMITS.baselineIdChars)))
    return null
  const failed = [...new Set([...(b.verdict.failedIds ?? []), ...b.verdict.failures.map((f) => f.id)])]
  if (failed.length > LIMITS.baselineIds || failed.some((id) => id.length > LIMITS.baselineIdChars)) return null
  return {
    key,
    tests: b.tests,
    skipped: b.skipped,
    passed: b.verdict.passed,
    reason: b.verdict.reason,
    ids,
    ...(failed.length ? { failed } : {}),
    ...(b.wrote?.length ? { wrote: b.wrote } : {}),
    ...(health ? { health } : {})
  }
}

export function fromCached(c: CachedBaseline): Baseline {
  return {
    tests: c.tests,
    skipped: c.skipped,
    ids: c.ids ?? null,
    ...(c.wrote?.length ? { wrote: c.wrote } : {}),
    broken: null,
    verdict: {
      passed: c.passed,
      reason: `${c.reason} (cached)`,
      exitCode: null,
      timedOut: false,
      failures: [],
      ...(c.failed?.length ? { failedIds: c.failed } : {}),
      fingerprint: null,
      outputTail: '',
      durationMs: 0,
      testsRun: c.tests ?? undefined,
      skipped: c.skipped ?? undefined
    }
  }
}
