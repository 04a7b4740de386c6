import { chmodSync, chownSync } from 'node:fs'
import path from 'node:path'
import { gateRoot } from './gate-root.js'
import type { AgentAccount } from '../../isolation/agent-account.js'
import type { GitRepository } from '../../git/repository.js'
import type { AgentRunner } from '../../loop/engine-types.js'
import { layersDirOf, type FirstCheckout, type GateLocation } from '../checkout/first-checkout.js'
import { probeOverlay } from '../mount-namespace.js'
import { probeMemoryLayers } from '../memory-layers.js'
import { ProtectedGate } from '../protected-gate.js'
import { gateCaches, runnerPackageCaches } from '../toolchain/package-caches.js'
import type { BaseSnapshot } from '../baseline/snapshot.js'
import type { DependencyReference } from '../dependencies/dependency-reference.js'
import type { Launcher } from '../../process/run-process.js'
import type { ProtectionOptions } from './protection-options.js'

/**
 * Handing the workspace over changed every file's ctime, so git's first status would read the
 * whole tree again to see that nothing changed. loopgate's index takes in the new stat data now,
 * while the baseline or the first call runs; git refreshes only files whose content still matches,
 * so what the agent writes meanwhile is seen as changed all the same.
 */
export async function refreshIndex(repository: GitRepository, handedOver: boolean): Promise<void> {
  if (!handedOver) return
  await repository.refreshIndex().catch(() => undefined)
}

/** A call in flight ends as soon as the baseline alongside it finds the gate cannot run (the run then stops gate-broken). */
export function stopWhenGateBroken(runner: AgentRunner, gateBroken: AbortSignal): AgentRunner {
  return { run: (request) => runner.run({ ...request, signal: AbortSignal.any([request.signal, gateBroken]) }) }
}

/**
 * The protected gate: its clean checkout outside the workspace, run as the gate's own user (whose
 * folder the agent's user cannot enter), with pristine dependencies that never name the workspace.
 */
export async function createProtectedGate(
  opts: ProtectionOptions,
  parts: {
    snapshot: BaseSnapshot
    account: AgentAccount
    location: GateLocation
    first: FirstCheckout
    dependencies: DependencyReference
    gateEnv: Promise<NodeJS.ProcessEnv>
    launch?: Launcher
  },
  notes: string[]
): Promise<ProtectedGate> {
  const { settings } = opts
  const { snapshot, account, location, first, dependencies } = parts
  const { user, gateUser } = account
  const { gateDir } = location
  await Promise.all([probeOverlay(layersDirOf(location)), probeMemoryLayers()])
  const gate = new ProtectedGate({
    workspace: location.workspace,
    repository: location.repository,
    snapshot,
    command: settings.gateCommand,
    packageDir: settings.packageDir,
    setup: settings.gateSetup,
    report: settings.gateReport,
    timeoutMs: settings.gateTimeoutMs,
    env: await parts.gateEnv,
    signal: opts.signal,
    privateDir: location.privateDir,
    gateDir,
    user: gateUser ?? user,
    ownUser: Boolean(gateUser),
    packageCaches: gateCaches(runnerPackageCaches(opts.env), Boolean(settings.gateSetup)),
    first,
    bumpBaseline: opts.baselineOnBump,
    dependencies,
    launch: parts.launch
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

/**
 * The gate's folders: its private repository in the run directory, its checkout in the runner's
 * temp (or in loopgate's own folder, when a run's user could write a folder above it: see gate-root.ts).
 */
export function gateLocation(opts: ProtectionOptions, notes: string[]): GateLocation {
  const { root, note } = gateRoot(opts.tempDir, opts.env)
  if (note) notes.push(note)
  return {
    workspace: opts.settings.workspace,
    repository: opts.repository,
    privateDir: path.join(opts.runDir, 'gate'),
    gateDir: path.join(root, `${opts.settings.loopId}-${opts.runId}`)
  }
}
