import type { CachedBaseline } from '../gate/baseline/baseline-cache.js'
import { knownStopReason } from '../loop/stop-reasons.js'
import {
  STATE_VERSION,
  StateCorruptError,
  type GiveUpRecord,
  type LoopState,
  type PeriodCharge,
  type PrRunCount,
  type RunRecord,
  type UpgradeAttempt,
  type UpgradeOutcome,
  type WipRecord
} from './schema.js'
import { LIMITS } from '../records/state-limits.js'

/** A stop reason's shape (lower-case words joined by '-'): anything else is not a record of ours. */
const STOP_REASON_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

type Obj = Record<string, unknown>

function fail(where: string, what: string): never {
  throw new StateCorruptError(`${where}: ${what}`)
}

function obj(v: unknown, where: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(where, 'expected an object')
  return v as Obj
}

function arr(v: unknown, where: string, max: number): unknown[] {
  if (!Array.isArray(v)) fail(where, 'expected a list')
  if (v.length > max) fail(where, `more than ${max} entries`)
  return v
}

function str(v: unknown, where: string, max: number = LIMITS.text): string {
  if (typeof v !== 'string') fail(where, 'expected a string')
  if (v.length > max) fail(where, `longer than ${max} characters`)
  return v
}

function time(v: unknown, where: string): string {
  const s = str(v, where, 40)
  if (Number.isNaN(Date.parse(s))) fail(where, `not a time: ${JSON.stringify(s)}`)
  return s
}

function num(v: unknown, where: string, opts: { integer?: boolean; min?: number } = {}): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(where, 'expected a finite number')
  if (opts.integer && !Number.isInteger(v)) fail(where, 'expected an integer')
  if (opts.min !== undefined && v < opts.min) fail(where, `below ${opts.min}`)
  return v
}

function nullable<T>(v: unknown, read: (x: unknown) => T): T | null {
  return v === null ? null : read(v)
}

const UPGRADE_OUTCOMES: readonly UpgradeOutcome[] = ['verified', 'failed', 'bump-failed']

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/

function commit(v: unknown, where: string): string {
  const s = str(v, where, 64)
  if (!COMMIT.test(s)) fail(where, 'not a commit id')
  return s
}

function readPeriodCharge(c: unknown, w: string): PeriodCharge {
  const e = obj(c, w)
  return { at: time(e.at, `${w}.at`), usd: num(e.usd, `${w}.usd`, { min: 0 }), runId: str(e.runId, `${w}.runId`, 100) }
}

function readRun(r: unknown, w: string): RunRecord {
  const e = obj(r, w)
  const recorded = str(e.stopReason, `${w}.stopReason`, 40)
  if (!STOP_REASON_NAME.test(recorded)) fail(`${w}.stopReason`, `not a stop reason: ${JSON.stringify(recorded)}`)
  // A reason added or renamed by another version is history, not corruption.
  const stopReason = knownStopReason(recorded) ?? recorded
  return {
    runId: str(e.runId, `${w}.runId`, 100),
    startedAt: time(e.startedAt, `${w}.startedAt`),
    endedAt: time(e.endedAt, `${w}.endedAt`),
    outcome: str(e.outcome, `${w}.outcome`, 40),
    stopReason,
    spentUsd: num(e.spentUsd, `${w}.spentUsd`, { min: 0 }),
    iterations: num(e.iterations, `${w}.iterations`, { integer: true, min: 0 }),
    pr: nullable(e.pr, (x) => num(x, `${w}.pr`, { integer: true, min: 1 }))
  }
}

function readLastFailure(x: unknown): NonNullable<LoopState['lastFailure']> {
  const e = obj(x, 'state.lastFailure')
  return {
    fingerprint: nullable(e.fingerprint, (f) => str(f, 'state.lastFailure.fingerprint', 200)),
    evidence: arr(e.evidence, 'state.lastFailure.evidence', LIMITS.evidenceLines).map((l, i) =>
      str(l, `state.lastFailure.evidence[${i}]`, LIMITS.evidenceLineChars)
    )
  }
}

function readWip(x: unknown): WipRecord {
  const e = obj(x, 'state.wip')
  return { branch: str(e.branch, 'state.wip.branch', 300), head: commit(e.head, 'state.wip.head'), base: commit(e.base, 'state.wip.base') }
}

function readPrRun(p: unknown, w: string): PrRunCount {
  const e = obj(p, w)
  return {
    pr: num(e.pr, `${w}.pr`, { integer: true, min: 1 }),
    runs: num(e.runs, `${w}.runs`, { integer: true, min: 0 }),
    lastAt: time(e.lastAt, `${w}.lastAt`)
  }
}

function readUpgradeAttempt(u: unknown, w: string): UpgradeAttempt {
  const e = obj(u, w)
  const outcome = str(e.outcome, `${w}.outcome`, 40)
  if (!UPGRADE_OUTCOMES.includes(outcome as UpgradeOutcome)) fail(`${w}.outcome`, `not an upgrade outcome: ${JSON.stringify(outcome)}`)
  return {
    package: str(e.package, `${w}.package`, 214),
    from: str(e.from, `${w}.from`, 100),
    target: str(e.target, `${w}.target`, 100),
    baseCommit: commit(e.baseCommit, `${w}.baseCommit`),
    lockfileHash: str(e.lockfileHash, `${w}.lockfileHash`, 100),
    testsHash: str(e.testsHash, `${w}.testsHash`, 100),
    outcome: outcome as UpgradeOutcome,
    fingerprint: nullable(e.fingerprint, (f) => str(f, `${w}.fingerprint`, 200)),
    runId: str(e.runId, `${w}.runId`, 100),
    at: time(e.at, `${w}.at`)
  }
}

function readGiveUp(x: unknown): GiveUpRecord {
  const e = obj(x, 'state.gaveUp')
  return {
    promptHash: str(e.promptHash, 'state.gaveUp.promptHash', 100),
    baseCommit: commit(e.baseCommit, 'state.gaveUp.baseCommit'),
    testsHash: str(e.testsHash, 'state.gaveUp.testsHash', 100),
    reason: str(e.reason, 'state.gaveUp.reason', LIMITS.text),
    runId: str(e.runId, 'state.gaveUp.runId', 100),
    at: time(e.at, 'state.gaveUp.at')
  }
}

function readBaseline(b: unknown, w: string): CachedBaseline {
  const e = obj(b, w)
  const count = (x: unknown, where: string): number | null => nullable(x, (n) => num(n, where, { integer: true, min: 0 }))
  if (typeof e.passed !== 'boolean') fail(`${w}.passed`, 'not a boolean')
  return {
    key: str(e.key, `${w}.key`, 100),
    tests: count(e.tests, `${w}.tests`),
    skipped: count(e.skipped, `${w}.skipped`),
    passed: e.passed,
    reason: str(e.reason, `${w}.reason`, LIMITS.text),
    ...(e.health === undefined ? {} : { health: str(e.health, `${w}.health`, 100) }),
    ...(e.ids === undefined ? {} : { ids: readBaselineIds(e.ids, `${w}.ids`) }),
    ...(e.failed === undefined
      ? {}
      : { failed: arr(e.failed, `${w}.failed`, LIMITS.baselineIds).map((id, i) => str(id, `${w}.failed[${i}]`, LIMITS.baselineIdChars)) }),
    ...(e.wrote === undefined
      ? {}
      : { wrote: arr(e.wrote, `${w}.wrote`, LIMITS.baselineIds).map((p, i) => str(p, `${w}.wrote[${i}]`, LIMITS.baselineIdChars)) })
  }
}

function readBaselineIds(v: unknown, w: string): { ran: string[]; skipped: string[] } | null {
  if (v === null) return null
  const e = obj(v, w)
  const ids = (x: unknown, where: string): string[] => arr(x, where, LIMITS.baselineIds).map((id, i) => str(id, `${where}[${i}]`, LIMITS.baselineIdChars))
  return { ran: ids(e.ran, `${w}.ran`), skipped: ids(e.skipped, `${w}.skipped`) }
}

/** A list field of the state: its value, its name, its bound and how one entry is read. */
interface ListField<T> {
  value: unknown
  field: string
  max: number
  read: (x: unknown, where: string) => T
  optional?: boolean
}

/** A list field: each entry read by `read`, named `field[i]`; an absent optional list is empty. */
function list<T>({ value: v, field, max, read, optional = false }: ListField<T>): T[] {
  if (optional && v === undefined) return []
  return arr(v, `state.${field}`, max).map((x, i) => read(x, `state.${field}[${i}]`))
}

/** Hand-written validation of a restored state; throws StateCorruptError naming the bad field. */
export function validateState(data: unknown, loopId: string): LoopState {
  const o = obj(data, 'state')
  if (o.version !== STATE_VERSION) fail('state.version', `expected ${STATE_VERSION}, found ${JSON.stringify(o.version)}`)
  const savedLoop = str(o.loopId, 'state.loopId', 100)
  if (savedLoop !== loopId) {
    // Another loop whose id starts with this one's and a '-' shares the key prefix.
    fail(
      'state.loopId',
      `belongs to loop ${JSON.stringify(savedLoop)}, not ${JSON.stringify(loopId)}; give the loops ids where neither is the other's id followed by '-'`
    )
  }
  const periodLedger = list({ value: o.periodLedger, field: 'periodLedger', max: LIMITS.periodCharges, read: readPeriodCharge })
  const runs = list({ value: o.runs, field: 'runs', max: LIMITS.runs, read: readRun })
  const lastFailure = nullable(o.lastFailure, readLastFailure)
  const wip = nullable(o.wip, readWip)
  const prRuns = list({ value: o.prRuns, field: 'prRuns', max: LIMITS.prCounts, read: readPrRun })
  const upgradeAttempts = list({ value: o.upgradeAttempts, field: 'upgradeAttempts', max: LIMITS.upgradeAttempts, read: readUpgradeAttempt, optional: true })
  const baselines = list({ value: o.baselines, field: 'baselines', max: LIMITS.baselines, read: readBaseline, optional: true })
  return {
    version: STATE_VERSION,
    loopId: savedLoop,
    updatedAt: time(o.updatedAt, 'state.updatedAt'),
    periodLedger,
    runs,
    lastFailure,
    wip,
    escalationIssue: nullable(o.escalationIssue, (x) => num(x, 'state.escalationIssue', { integer: true, min: 1 })),
    openPullRequests: list({
      value: o.openPullRequests,
      field: 'openPullRequests',
      max: LIMITS.prCounts,
      read: (x, w) => num(x, w, { integer: true, min: 1 })
    }),
    prRuns,
    upgradeAttempts,
    baselines,
    gaveUp: o.gaveUp === undefined ? null : nullable(o.gaveUp, readGiveUp)
  }
}

/** Parses the state file's text; JSON errors are corruption too. */
export function parseState(text: string, loopId: string): LoopState {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw new StateCorruptError(`state is not JSON: ${(err as Error).message}`)
  }
  return validateState(data, loopId)
}
