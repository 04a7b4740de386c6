import { chmodSync, mkdirSync } from 'node:fs'
import { AgentAccount } from '../isolation/agent-account.js'
import { refusedNames } from '../agents/agent-env.js'
import type { BaseRef } from './baseline/base.js'
import { beginFirstCheckout, disposeGateLocation, layersDirOf, type FirstCheckout, type GateLocation } from './checkout/first-checkout.js'
import type { ProtectedGate, Baseline } from './protected-gate.js'
import type { BaseSnapshot } from './baseline/snapshot.js'
import type { TamperGuard } from './protection/tamper.js'
import { JudgeGuard } from './protection/judge-guard.js'
import { codeSpan } from '../report/inert.js'
import type { DependencyReference } from './dependencies/dependency-reference.js'
import { baseSnapshot, establishBaseline, startInputs } from './setup/protection-base.js'
import { createProtectedGate, gateLocation, refreshIndex, stopWhenGateBroken } from './setup/protection-gate.js'
import type { Protection, ProtectionOptions } from './setup/protection-options.js'
import { AgentIndexGuard } from './protection/agent-index-guard.js'
import { protectedListNote } from './setup/protected-set-check.js'
import { egressGuard, refusalNotes } from '../isolation/egress-guard.js'
import { probeOverlay } from './mount-namespace.js'
import { probeMemoryLayers } from './memory-layers.js'

export type { Protection, ProtectionOptions, ProtectionSettings } from './setup/protection-options.js'
export { declaredPackageManager, missingGateProgram } from './setup/missing-gate-program.js'
export { fetchedRunner } from './setup/fetched-runner.js'

/** What the first step of the set-up leaves: the gate's folders, the run's users, the base. */
interface Begun {
  location: GateLocation
  first: FirstCheckout
  account: AgentAccount
  base: BaseRef
  snapshot: BaseSnapshot
  tamper: TamperGuard
  dependencies: DependencyReference
  gateEnv: Promise<NodeJS.ProcessEnv>
}

/** What the second leaves: the open gate, its baseline, the workspace's hand-over under way. */
interface Opened {
  gate: ProtectedGate
  baseline: Baseline | null
  handedOver: Promise<void>
}

/** The set-up under way: its options, what the first step left, and the notes it writes. */
interface BegunSetup {
  opts: ProtectionOptions
  begun: Begun
  notes: string[]
}

/**
 * The gate's one entrance: from the run's settings, everything that makes "done" unforgeable, set
 * up before the first agent call (the stashed credential, the base snapshot, the agent user, the
 * pristine dependencies, the baseline gate), and the gate the loop judges with.
 */
export async function openGate(opts: ProtectionOptions): Promise<Protection> {
  const notes: string[] = []
  mkdirSync(opts.runDir, { recursive: true, mode: 0o700 })
  chmodSync(opts.runDir, 0o700)
  const begun = await beginSetup(opts, notes)
  const alongside = opts.alongside?.() ?? Promise.resolve()
  alongside.catch(() => undefined)
  noteAccount(opts, begun.account, notes)
  const opened = await openWithBaseline({ opts, begun, alongside, notes })
  return protectionOf({ opts, begun, opened, notes })
}

/**
 * The slowest step before the first verdict, the gate's first clean checkout, begins now; the
 * run's users are created while the base is resolved and snapshotted. None needs the others.
 */
async function beginSetup(opts: ProtectionOptions, notes: string[]): Promise<Begun> {
  const { settings } = opts
  const ws = settings.workspace
  const location = gateLocation(opts, notes)
  const first = beginFirstCheckout(location, opts.baselineCommit ?? (await opts.repository.head()))
  // Whether the gate's runs get a write layer is known by the time the gate is made.
  probeOverlay(layersDirOf(location)).catch(() => undefined)
  probeMemoryLayers().catch(() => undefined)
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
  return { location, first, account, ...snapshotted }
}

function noteAccount(opts: ProtectionOptions, account: AgentAccount, notes: string[]): void {
  const refused = refusedNames(opts.settings.agentEnv)
  if (refused.length)
    notes.push(
      `agent-env: ${refused.join(', ')} not passed to the agent or the gate (tokens, secrets, runner internals and provider credentials never are; the provider input passes those to the agent)`
    )
  notes.push(...account.notes)
}

/**
 * The gate copies the dependency folders while the workspace is still its owner's: once it is
 * handed over, any process of the agent's user could write them (a job a named user left behind,
 * say). The hand-over's tree walk then goes on while the baseline is looked up; the first call
 * waits for it, and loopgate's index takes in the new stat data after it.
 */
async function openWithBaseline({ opts, begun, alongside, notes }: BegunSetup & { alongside: Promise<void> }): Promise<Opened> {
  const { location, first, account, base, snapshot, tamper, dependencies, gateEnv } = begun
  let opened: ProtectedGate | null = null
  // The start commit (after the protected paths' own commit) and the baseline's key are read while the gate opens.
  const starting = opts.baselineCommit ? Promise.resolve(opts.baselineCommit) : opts.repository.head()
  const inputs = starting.then((commit) => startInputs(opts, commit))
  inputs.catch(() => undefined)
  try {
    const gate = await createProtectedGate(opts, { snapshot, account, location, first, dependencies, gateEnv, launch: opts.sandbox?.launcher('gate') }, notes)
    opened = gate
    const handedOver = account.handOver()
    tamper.waitFor(
      handedOver.then(
        () => refreshIndex(opts.repository, Boolean(account.user)),
        () => undefined
      )
    )
    account.reach([opts.callsDir, location.gateDir])
    // The first checkout of a large tree is the slow one: it is made while the rest of the setup goes on.
    const startCommit = await starting
    gate.prepareAhead(startCommit)
    // Globs such as `**/*.test.*` are markdown emphasis unless quoted as code.
    notes.push(protectedListNote(snapshot.paths.patterns, snapshot.size, (p) => codeSpan(p)))
    const baseline = await establishBaseline(opts, { base, snapshot, gate, startCommit, inputs }, notes)
    if (baseline && opts.sandbox) notes.push(...refusalNotes('during the baseline gate', opts.sandbox.log.since('gate')))
    await alongside
    return { gate, baseline, handedOver }
  } catch (err) {
    await Promise.allSettled([alongside, account.close(), first.done, opened?.settle(), opened?.idle()])
    opened?.close()
    disposeGateLocation(location)
    throw err
  }
}

/** The protection the run holds: its guards, the agent's wrapper and the steps that end it. */
function protectionOf({ opts, begun, opened, notes }: BegunSetup & { opened: Opened }): Protection {
  const { settings } = opts
  const { location, account, base, snapshot, tamper } = begun
  const { gate, baseline, handedOver } = opened
  const caches = gate.lastCaches
  const reader = settings.gateSetup ? 'gate-setup reads' : 'the gate reads'
  if (caches.given.length) notes.push(`${reader} the runner's package caches (${caches.given.join(', ')}) read-only, in a fresh HOME each gate run`)
  if (caches.skipped.length) notes.push(`package caches not given to the gate: ${caches.skipped.join('; ')}`)
  if (gate.notKept) notes.push(gate.notKept)

  const judge = new JudgeGuard({ workspace: settings.workspace, repository: opts.repository, snapshot, changed: () => tamper.lastChanged })
  const written = (): string[] => [settings.progressFile, ...(settings.featuresFile ? [settings.featuresFile] : []), ...tamper.restored, ...judge.restored]
  const handBack = account.guard(written)
  const agentIndex = new AgentIndexGuard(settings.workspace, account.user, () => [...tamper.restored, ...judge.restored])
  const sandbox = opts.sandbox ?? null
  const guards = [...(handBack ? [handBack, agentIndex, tamper, judge] : [agentIndex, tamper, judge]), ...(sandbox ? [egressGuard(sandbox)] : [])]
  let retired: Promise<void> = Promise.resolve()
  return {
    base,
    snapshot,
    gate,
    baseline,
    guards,
    sandbox,
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
      gate.close()
      sandbox?.close()
      disposeGateLocation(location)
    },
    retired: () => retired
  }
}
