import { chmodSync, chownSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import type { AgentSettings, GateSettings, PublishSettings, StateSettings, WorkspaceSettings } from '../settings.js'
import { AgentAccount, type IsolationMode } from '../isolation/agent-account.js'
import type { AgentUser } from '../isolation/agent-user.js'
import { baselineInputs, baselineKey, fromCached, healthKey, toCached, type BaselineStore } from './baseline-cache.js'
import { stashCredentials } from '../git/persisted-credentials.js'
import { refusedNames } from '../isolation/env.js'
import { heldRepositoryFor } from '../git/custody-registry.js'
import { userConfigOf } from '../git/custody.js'
import { fetchEnv } from '../git/fetch-auth.js'
import { git, gitEnv } from '../git/git.js'
import type { AttemptLog, BaselineEntry } from '../records/attempt-log.js'
import type { AgentRunner, CallGuard } from '../loop/engine-types.js'
import { resolveBase, type BaseRef } from './base.js'
import { GateBrokenError } from './baseline-health.js'
import { beginFirstCheckout, disposeGateLocation, type FirstCheckout, type GateLocation } from './first-checkout.js'
import { describeTampering } from './compare.js'
import { ProtectedGate, type Baseline } from './protected-gate.js'
import { runnerPackageCaches } from './package-caches.js'
import { ProtectedPaths } from './protected-paths.js'
import { BaseSnapshot } from './snapshot.js'
import { TamperGuard, workTreePaths } from './tamper.js'
import { codeSpan } from '../report/inert.js'
import type { DependencyReference } from './dependency-reference.js'
import { takeDependencyReference } from './dependency-trust.js'

/**
 * What protection reads: the gate's settings and workspace, the loop id (its folders and user),
 * the agent's extra environment (refused names are noted), and the token and author for the base.
 */
export type ProtectionSettings = GateSettings &
  WorkspaceSettings &
  Pick<StateSettings, 'loopId'> &
  Pick<AgentSettings, 'agentEnv'> &
  Pick<PublishSettings, 'githubToken' | 'commitAuthor'>

export interface ProtectionOptions {
  settings: ProtectionSettings
  /** The runner's environment (read for the event and the isolation switch only). */
  env: NodeJS.ProcessEnv
  /** The scrubbed gate environment. */
  gateEnv: NodeJS.ProcessEnv
  tempDir: string
  /** Root-only run directory (ledger, log, state, snapshot, stashed credentials). */
  runDir: string
  /** Per-call directories the agent must read and write. */
  callsDir: string
  runId: string
  signal?: AbortSignal
  /** `weak` forces the fallback (no separate user); also LOOPGATE_ISOLATION=weak. */
  isolation?: IsolationMode
  /** Name of the dedicated agent user (default loopgate-agent; LOOPGATE_AGENT_USER). */
  agentUserName?: string
  /** Baselines of earlier runs by key (the loop state); a hit is not run again. */
  baselines?: BaselineStore
  /**
   * Whether the baseline may run alongside the first call on a gate environment known to work
   * (not when the baseline decides whether to call the agent at all, as for a dependency upgrade).
   */
  baselineAlongside?: boolean
  /**
   * The commit whose dependencies the gate trusts (loopgate's bump commit, or where a resumed run's
   * work began) and the packages of loopgate's own bump; default: the workspace's HEAD at setup.
   */
  dependencyReference?: { commit?: string; pinned?: string[] }
  /** The attempt log: gets the baseline entry. */
  log?: AttemptLog
  /**
   * The commit the baseline runs on when it is not the workspace's HEAD: a resumed run's HEAD is
   * the WIP an earlier run's agent wrote, so its baseline runs on the base it started from.
   */
  baselineCommit?: string
  /** The baseline runs on loopgate's dependency bump (task: dependency-upgrade), where an import error is the task. */
  baselineOnBump?: boolean
  /**
   * Work on the workspace that must follow the protected paths' restore and end before the first
   * call (loopgate's view of the workspace is prepared): it runs while the gate opens and the
   * baseline runs, and the setup ends once it has.
   */
  alongside?: () => Promise<void>
}

export interface Protection {
  base: BaseRef
  snapshot: BaseSnapshot
  gate: ProtectedGate
  /** Null while it runs alongside the first call (see establishBaseline). */
  baseline: Baseline | null
  guards: CallGuard[]
  /** Set when the agent runs as the dedicated user. */
  user?: AgentUser
  /** Kills every process of the agent's user (set with it): the run does after each call. */
  sweepUser?: () => void
  /** Resolves once the workspace is the agent user's (at once without one): the first call waits for it. */
  handedOver: Promise<void>
  /** Environment values the agent and gate get on top of the allow-list (HOME, USER). */
  agentEnvSet: Record<string, string>
  /** One-line notes for the run summary. */
  notes: string[]
  wrapAgent(runner: AgentRunner): AgentRunner
  /** After the loop: agent processes killed, the workspace given back to its owner; the run's users' removal begins. */
  finish(): Promise<void>
  /** Settles once the run's users are removed (after finish). */
  retired(): Promise<void>
}

/**
 * Everything that makes "done" unforgeable, set up before the first agent call: the stashed
 * credential, the base snapshot, the agent user, the pristine dependencies, the baseline gate.
 */
export async function setupProtection(opts: ProtectionOptions): Promise<Protection> {
  const { settings } = opts
  const ws = settings.workspace
  const notes: string[] = []
  mkdirSync(opts.runDir, { recursive: true, mode: 0o700 })
  chmodSync(opts.runDir, 0o700)

  // The slowest step before the first verdict, the gate's first clean checkout, begins now; the
  // run's users are created while the base is resolved and snapshotted. None needs the others.
  const location = gateLocation(opts)
  const first = beginFirstCheckout(location, opts.baselineCommit ?? (await git(['rev-parse', 'HEAD'], { cwd: ws })).stdout.trim())
  const opening = AgentAccount.open({
    loopId: settings.loopId,
    runId: opts.runId,
    env: opts.env,
    runDir: opts.runDir,
    workspace: ws,
    isolation: opts.isolation,
    agentUserName: opts.agentUserName
  })
  const [snapshotted, account] = await Promise.all([
    baseSnapshot(opts, notes).catch(async (err: unknown) => {
      await (await opening).close()
      await first.done
      disposeGateLocation(location)
      throw err
    }),
    opening
  ])
  const { base, snapshot, tamper, dependencies } = snapshotted
  const alongside = opts.alongside?.() ?? Promise.resolve()
  alongside.catch(() => undefined)

  const refused = refusedNames(settings.agentEnv)
  if (refused.length)
    notes.push(
      `agent-env: ${refused.join(', ')} not passed to the agent or the gate (tokens, secrets, runner internals and provider credentials never are; the provider input passes those to the agent)`
    )
  notes.push(...account.notes)

  let gate: ProtectedGate
  let opened: ProtectedGate | null = null
  let baseline: Baseline | null
  let startCommit: string
  let handedOver: Promise<void> = Promise.resolve()
  try {
    // The gate copies the dependency folders while the workspace is still its owner's: once it is
    // handed over, any process of the agent's user could write them (a job a named user left
    // behind, say). The hand-over's tree walk then goes on while the baseline is looked up; the
    // first call waits for it, and loopgate's index takes in the new stat data after it.
    gate = await openGate(opts, { snapshot, account, location, first, dependencies }, notes)
    opened = gate
    handedOver = account.handOver()
    tamper.waitFor(
      handedOver.then(
        () => refreshIndex(ws, Boolean(account.user)),
        () => undefined
      )
    )
    account.reach([opts.callsDir, location.gateDir])
    // The first checkout of a large tree is the slow one: it is made while the rest of the setup goes on.
    startCommit = opts.baselineCommit ?? (await git(['rev-parse', 'HEAD'], { cwd: settings.workspace })).stdout.trim()
    gate.prepareAhead(startCommit)
    // Globs such as `**/*.test.*` are markdown emphasis unless quoted as code.
    notes.push(`protected paths (resolved): ${snapshot.paths.patterns.map((p) => codeSpan(p)).join(', ')}`.slice(0, 4000))
    baseline = await establishBaseline(opts, { base, snapshot, gate, startCommit }, notes)
    await alongside
  } catch (err) {
    await Promise.allSettled([alongside, account.close(), first.done, opened?.settle(), opened?.idle()])
    disposeGateLocation(location)
    throw err
  }
  const caches = gate.lastCaches
  if (caches.given.length) notes.push(`gate-setup reads the runner's package caches (${caches.given.join(', ')}) read-only, in a fresh HOME each gate run`)
  if (caches.skipped.length) notes.push(`package caches not given to the gate: ${caches.skipped.join('; ')}`)

  const written = (): string[] => [settings.progressFile, ...(settings.featuresFile ? [settings.featuresFile] : []), ...tamper.restored]
  const handBack = account.guard(written)
  let retired: Promise<void> = Promise.resolve()
  return {
    base,
    snapshot,
    gate,
    baseline,
    guards: handBack ? [handBack, tamper] : [tamper],
    user: account.user,
    sweepUser: account.sweep,
    handedOver,
    agentEnvSet: account.agentEnvSet,
    notes,
    wrapAgent: (runner) => account.wrapAgent(stopWhenGateBroken(runner, gate.gateBroken), opts.callsDir),
    finish: async () => {
      // A checkout made ahead and a baseline still running end first; the checkout's last clean
      // goes on while the workspace is handed back and the users are removed.
      await gate.settle()
      const ending = tamper.idle().then(() => account.end())
      retired = ending.then((e) => e.done)
      retired.catch(() => undefined)
      await Promise.all([gate.idle(), ending.then((e) => e.handedBack)])
      disposeGateLocation(location)
    },
    retired: () => retired
  }
}

/**
 * Handing the workspace over changed every file's ctime, so git's first status would read the
 * whole tree again to see that nothing changed. loopgate's index takes in the new stat data now,
 * while the baseline or the first call runs; git refreshes only files whose content still matches,
 * so what the agent writes meanwhile is seen as changed all the same.
 */
async function refreshIndex(workspace: string, handedOver: boolean): Promise<void> {
  if (!handedOver) return
  await git(['update-index', '-q', '--refresh'], { cwd: workspace, okCodes: [1] }).catch(() => undefined)
}

/** A call in flight ends as soon as the baseline alongside it finds the gate cannot run (the run then stops gate-broken). */
function stopWhenGateBroken(runner: AgentRunner, gateBroken: AbortSignal): AgentRunner {
  return { run: (iteration, prompt, timeoutMs, signal, limit) => runner.run(iteration, prompt, timeoutMs, AbortSignal.any([signal, gateBroken]), limit) }
}

/**
 * The protected gate: its clean checkout outside the workspace, run as the gate's own user (whose
 * folder the agent's user cannot enter), with pristine dependencies that never name the workspace.
 */
async function openGate(
  opts: ProtectionOptions,
  parts: { snapshot: BaseSnapshot; account: AgentAccount; location: GateLocation; first: FirstCheckout; dependencies: DependencyReference },
  notes: string[]
): Promise<ProtectedGate> {
  const { settings } = opts
  const { snapshot, account, location, first, dependencies } = parts
  const { user, gateUser } = account
  const { gateDir } = location
  const gate = new ProtectedGate({
    workspace: location.workspace,
    snapshot,
    command: settings.gateCommand,
    setup: settings.gateSetup,
    report: settings.gateReport,
    timeoutMs: settings.gateTimeoutMs,
    env: opts.gateEnv,
    signal: opts.signal,
    privateDir: location.privateDir,
    gateDir,
    user: gateUser ?? user,
    ownUser: Boolean(gateUser),
    packageCaches: settings.gateSetup ? runnerPackageCaches(opts.env) : [],
    first,
    bumpBaseline: opts.baselineOnBump,
    dependencies
  })
  await gate.init()
  if (gateUser) {
    // Only the gate user (and root) may enter the gate's folder: not the agent's user.
    chownSync(gateDir, 0, gateUser.gid)
    chmodSync(gateDir, 0o710)
  }
  const redirected = gate.checkout.redirected
  if (redirected.length) {
    notes.push(
      `dependency paths that named the workspace (editable installs, scripts, links) were rewritten to name the gate's checkout, so the gate tests the commit, never the workspace: ${redirected.slice(0, 10).join(', ')}${redirected.length > 10 ? ` and ${redirected.length - 10} more` : ''}`
    )
  }
  return gate
}

/** The gate's folders: its private repository in the run directory, its checkout in the runner's temp. */
function gateLocation(opts: ProtectionOptions): GateLocation {
  return {
    workspace: opts.settings.workspace,
    privateDir: path.join(opts.runDir, 'gate'),
    gateDir: path.join(opts.tempDir, 'loopgate-gate', `${opts.settings.loopId}-${opts.runId}`)
  }
}

/**
 * The baseline: the gate on the start commit. On an environment the loop's gate has not run on
 * before (gate command and setup, report, lockfiles), before the first call, so a gate that cannot
 * run on the base stops the run before anything is spent. On one it has, alongside the first call
 * (the first verdict waits for it). A later run on the same tree, gate and lockfiles reuses the
 * result from the loop state.
 */
async function establishBaseline(
  opts: ProtectionOptions,
  parts: { base: BaseRef; snapshot: BaseSnapshot; gate: ProtectedGate; startCommit: string },
  notes: string[]
): Promise<Baseline | null> {
  const { settings } = opts
  const { base, snapshot, gate, startCommit } = parts
  const inputs = await baselineInputs(settings.workspace, startCommit, {
    command: settings.gateCommand,
    setup: settings.gateSetup,
    report: settings.gateReport
  })
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
    opts.log?.write(baselineEntry(base, snapshot.size, startCommit, baseline))
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

/**
 * The base the protected paths come from (fetched with the token or the persisted credential,
 * which stays in loopgate's copy of the repository), its snapshot, and the protected paths set to
 * it before the first call, in a commit of their own.
 */
async function baseSnapshot(
  opts: ProtectionOptions,
  notes: string[]
): Promise<{ base: BaseRef; snapshot: BaseSnapshot; tamper: TamperGuard; dependencies: DependencyReference }> {
  const { settings } = opts
  const ws = settings.workspace
  const held = heldRepositoryFor(ws)
  if (!held) throw new Error(`loopgate does not hold the repository of ${ws}`)
  // Nothing writes the work tree before the restore below: its candidates are listed meanwhile.
  const listed = workTreePaths(ws)
  listed.catch(() => undefined)
  const stash = await stashCredentials(userConfigOf(held), path.join(opts.runDir, 'credentials.json'))
  if (stash.found.length)
    notes.push(`the persisted git credential stays in loopgate's copy of the repository, never in the agent's (${stash.found.join(', ')})`)

  const base = await resolveBase(ws, {
    env: opts.env,
    baseRef: settings.baseRef,
    fetchEnv: fetchEnv({ token: settings.githubToken, env: opts.env, persisted: stash.auth })
  })
  const snapshot = await BaseSnapshot.take(ws, base.sha, new ProtectedPaths(settings.protectedPaths), [settings.gateCommand, settings.gateSetup])
  const dependencies = await takeDependencyReference(opts, snapshot)
  const tamper = new TamperGuard({ workspace: ws, snapshot, dependencies })
  const initial = await tamper.restore(true, listed)
  if (initial.dependencies.length)
    notes.push(`dependency files set to ${dependencies.commit.slice(0, 7)} before the first call: ${describeTampering(initial.dependencies, 10)}`)
  if (initial.found.length || initial.dependencies.length) {
    // Its own commit before the loop starts, so the agent's work is measured from there.
    await git(['commit', '-q', '--no-verify', '-m', `loopgate: protected paths from the base ${base.sha.slice(0, 7)}`], {
      cwd: ws,
      env: gitEnv(settings.commitAuthor)
    })
    notes.push(`protected paths set to the base ${base.sha.slice(0, 7)} before the first call (committed): ${describeTampering(initial.found, 10)}`)
  }
  return { base, snapshot, tamper, dependencies }
}

/** The attempt log's record of the baseline run: what the gate said on the start commit. */
function baselineEntry(base: BaseRef, protectedFiles: number, commit: string, baseline: Baseline): BaselineEntry {
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
