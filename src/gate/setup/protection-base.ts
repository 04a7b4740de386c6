import path from 'node:path'
import { baselineInputs, baselineKey, fromCached, healthKey, toCached, type BaselineInputs } from '../baseline/baseline-cache.js'
import { stashCredentials } from '../../git/persisted-credentials.js'
import { userConfigOf } from '../../git/custody.js'
import { fetchEnv } from '../../git/fetch-auth.js'
import { GitRepository } from '../../git/repository.js'
import { commitPublishable, OWN_CHANGE, ownCommitSource } from '../../git/publishable-tree.js'
import { resolveBase, type BaseRef } from '../baseline/base.js'
import { GateBrokenError } from '../baseline/baseline-health.js'
import type { BaselineEntry } from '../../records/attempt-log.js'
import { describeTampering } from '../baseline/compare.js'
import type { ProtectedGate, Baseline } from '../protected-gate.js'
import { ProtectedPaths } from '../protection/protected-paths.js'
import { BaseSnapshot, listTree } from '../baseline/snapshot.js'
import { TamperGuard, workTreePaths } from '../protection/tamper.js'
import type { DependencyReference } from '../dependencies/dependency-reference.js'
import { takeDependencyReference } from '../dependencies/dependency-trust.js'
import { withVcsVersion } from '../toolchain/vcs-version.js'
import type { ProtectionOptions } from './protection-options.js'
import { requireProtectedFiles } from './protected-set-check.js'

/**
 * The baseline: the gate on the start commit. On an environment the loop's gate has not run on
 * before (gate command and setup, report, lockfiles), before the first call, so a gate that cannot
 * run on the base stops the run before anything is spent. On one it has, alongside the first call
 * (the first verdict waits for it). A later run on the same tree, gate and lockfiles reuses the
 * result from the loop state.
 */
export async function establishBaseline(
  opts: ProtectionOptions,
  parts: { base: BaseRef; snapshot: BaseSnapshot; gate: ProtectedGate; startCommit: string; inputs: Promise<BaselineInputs> },
  notes: string[]
): Promise<Baseline | null> {
  const { base, snapshot, gate, startCommit } = parts
  const inputs = await parts.inputs
  const key = baselineKey(inputs)
  const health = healthKey(inputs)
  const describe = (b: Baseline, how: string): string =>
    `protected gate: base ${base.sha.slice(0, 7)} (${base.source}), ${snapshot.size} protected file(s); baseline ${b.tests ?? 'unknown'} test(s), ${b.skipped ?? 'unknown'} skipped (${b.verdict.passed ? 'passing' : b.verdict.reason}; ${how})`
  const cached = opts.baselines?.get(key) ?? null
  if (cached) {
    const baseline = fromCached(cached)
    gate.useBaseline(baseline)
    notes.push(describe(baseline, 'from an earlier run on the same tree, gate command and lockfiles'))
    return baseline
  }
  const record = (baseline: Baseline): void => {
    opts.log?.write(baselineEntry({ base, protectedFiles: snapshot.size, commit: startCommit, baseline }))
    const entry = baseline.broken ? null : toCached(key, baseline, health)
    if (entry) opts.baselines?.put(entry)
  }
  if (opts.baselineAlongside && opts.baselines?.healthy?.(health)) {
    gate.startBaseline(startCommit).then(record, () => undefined)
    notes.push(
      `protected gate: base ${base.sha.slice(0, 7)} (${base.source}), ${snapshot.size} protected file(s); baseline run alongside the first agent call (this gate ran on the same command, setup and lockfiles before; its counts are in the attempt log)`
    )
    return null
  }
  const baseline = await gate.runBaseline(startCommit)
  notes.push(describe(baseline, 'run before the first agent call'))
  record(baseline)
  // No agent could make a gate pass that cannot run on the base: stop before any spend.
  if (baseline.broken) throw new GateBrokenError(baseline.broken, baseline.verdict, notes)
  return baseline
}

/** What the baseline's key is made of on `startCommit`: its tree, the gate's settings, the lockfiles. */
export function startInputs(opts: ProtectionOptions, startCommit: string): Promise<BaselineInputs> {
  const { settings } = opts
  return baselineInputs(opts.repository, startCommit, { command: settings.gateCommand, setup: settings.gateSetup, report: settings.gateReport })
}

/**
 * The base the protected paths come from (fetched with the token or the persisted credential,
 * which stays in loopgate's copy of the repository), its snapshot, and the protected paths set to
 * it before the first call, in a commit of their own; and the gate's environment with the base's
 * version for the version-from-git backends, read while the snapshot is taken.
 */
export async function baseSnapshot(
  opts: ProtectionOptions,
  notes: string[]
): Promise<{ base: BaseRef; snapshot: BaseSnapshot; tamper: TamperGuard; dependencies: DependencyReference; gateEnv: Promise<NodeJS.ProcessEnv> }> {
  const { settings } = opts
  const ws = settings.workspace
  const { repository } = opts
  const held = repository.held
  if (!held) throw new Error(`loopgate does not hold the repository of ${ws}`)
  // Nothing writes the work tree before the restore below: its candidates are listed meanwhile.
  const listed = workTreePaths(repository)
  listed.catch(() => undefined)
  const stash = await stashCredentials(userConfigOf(held), path.join(opts.runDir, 'credentials.json'))
  if (stash.found.length)
    notes.push(`the persisted git credential stays in loopgate's copy of the repository, never in the agent's (${stash.found.join(', ')})`)

  const base = await resolveBase(repository, {
    env: opts.env,
    baseRef: settings.baseRef,
    fetchEnv: fetchEnv({ token: settings.githubToken, env: opts.env, persisted: stash.auth })
  })
  const gateEnv = listTree(repository, base.sha).then(
    (tree) => withVcsVersion(opts.gateEnv, repository, { commit: base.sha, paths: tree.keys() }),
    () => opts.gateEnv
  )
  const snapshotting = BaseSnapshot.take(repository, base.sha, {
    paths: new ProtectedPaths(settings.protectedPaths),
    gateCommands: [settings.gateCommand, settings.gateSetup]
  })
  const referencing = takeDependencyReference(opts, snapshotting)
  referencing.catch(() => undefined)
  const snapshot = await snapshotting
  requireProtectedFiles(snapshot.size, settings.protectedPaths, base)
  const dependencies = await referencing
  const tamper = new TamperGuard({ workspace: ws, repository, snapshot, dependencies })
  const initial = await tamper.restore(true, listed)
  if (initial.dependencies.length)
    notes.push(`dependency files set to ${dependencies.commit.slice(0, 7)} before the first call: ${describeTampering(initial.dependencies, 10)}`)
  const restored = [...initial.found, ...initial.dependencies].map((t) => t.path)
  if (restored.length) {
    // Its own commit before the loop starts, so the agent's work is measured from there.
    const source = ownCommitSource(GitRepository.held(held, settings.commitAuthor), settings.progressFile)
    const message = `loopgate: protected paths from the base ${base.sha.slice(0, 7)}`
    const setup = await commitPublishable(source, OWN_CHANGE, { changed: restored, message })
    notes.push(...setup.tree.notes)
    if (setup.commit)
      notes.push(`protected paths set to the base ${base.sha.slice(0, 7)} before the first call (committed): ${describeTampering(initial.found, 10)}`)
  }
  return { base, snapshot, tamper, dependencies, gateEnv }
}

/** The baseline run: the base it protects, how many files that holds, the start commit and the gate's word on it. */
interface BaselineRun {
  base: BaseRef
  protectedFiles: number
  commit: string
  baseline: Baseline
}

/** The attempt log's record of the baseline run: what the gate said on the start commit. */
function baselineEntry({ base, protectedFiles, commit, baseline }: BaselineRun): BaselineEntry {
  const v = baseline.verdict
  return {
    type: 'baseline',
    base: base.sha,
    baseSource: base.source,
    commit,
    protectedFiles,
    passed: v.passed,
    reason: v.reason,
    exitCode: v.exitCode,
    timedOut: v.timedOut,
    tests: baseline.tests,
    skipped: baseline.skipped,
    failures: v.failures.slice(0, 50),
    fingerprint: v.fingerprint,
    broken: baseline.broken,
    durationMs: v.durationMs,
    outputTail: v.passed ? undefined : v.outputTail.slice(-4000)
  }
}
