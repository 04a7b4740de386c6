import type { GateVerdict } from '../loop/engine-types.js'
import type { Tampering } from './baseline/compare.js'
import type { CleanCheckout } from './checkout/checkout.js'
import { eggInfoFolders, setupInstallFolders } from './toolchain/runner-folders.js'
import { setupSteps } from './toolchain/setup-installs.js'
import { outsideVenvsNamingWorkspace } from './toolchain/workspace-paths.js'
import { failedVerdict, tamperedVerdict } from './verdict.js'

/** A checkout the gate must not run in: protected files that differ, or a PATH that leads back to the workspace. */
export function checkoutRefusal(mismatches: Tampering[], started: number, opts: { env: NodeJS.ProcessEnv; workspace: string }): GateVerdict | null {
  if (mismatches.length > 0) return tamperedVerdict(mismatches, started)
  const leading = outsideVenvsNamingWorkspace(opts.env.PATH, opts.workspace)
  if (leading.length === 0) return null
  return failedVerdict(
    `refused: a virtualenv on the gate's PATH names the workspace (${leading.slice(0, 3).join(', ')}), so the gate would import the workspace instead of the commit; keep the virtualenv in the workspace (.venv or venv), where loopgate redirects it to the checkout, or install the project without -e`,
    { failures: [], durationMs: Date.now() - started }
  )
}

/** The root folders gate-setup may install into (see setupInstallFolders), the egg-info its build writes and each workspace package's node_modules. */
export function setupFolders(setup: string | undefined, dir: string, checkout: CleanCheckout): string[] {
  if (!setup) return []
  const installs = setupSteps(setup, () => '').folders
  return [...new Set([...setupInstallFolders(setup), ...installs, ...eggInfoFolders(dir), ...checkout.packageFolders()])]
}
