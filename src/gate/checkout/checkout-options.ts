import type { GitRepository } from '../../git/repository.js'
import type { AgentUser } from '../../isolation/agent-user.js'
import type { Tampering } from '../baseline/compare.js'
import type { BaseSnapshot } from '../baseline/snapshot.js'
import type { DependencyReference } from '../dependencies/dependency-reference.js'
import type { FirstCheckout } from './first-checkout.js'

export interface CheckoutOptions {
  workspace: string
  /** The workspace's repository, through loopgate's git directory while it holds it. */
  repository: GitRepository
  snapshot: BaseSnapshot
  /** Root-only directory: the private git dir and the pristine dependency copies. */
  privateDir: string
  /** Where the clean checkout is made (reachable by the gate user). */
  gateDir: string
  /** The gate runs as this user; the checkout is locked against it. */
  user?: AgentUser
  /**
   * `user` runs nothing but the gate and no other user can reach the checkout: once its processes
   * are gone, nothing changes the checkout until the next gate run. What a run changed is then
   * found from the folders (see folder-record.ts); otherwise the whole tree is cleaned and checked
   * out before every run.
   */
  ownUser?: boolean
  /** gate-report's path in the checkout: its folder is the runner's to write. */
  report?: string
  /** Whether gate-setup will rewrite the dependency folders (then they get a writable copy). */
  writableDeps: boolean
  /**
   * Each gate run writes the dependency folders in a copy-on-write layer of its own (see
   * write-layer.ts): they stay read-only links in the checkout, and only an install that is kept
   * (`keepsInstall`: gate-setup starts with one) gets a writable copy of them.
   */
  layeredDeps?: boolean
  keepsInstall?: boolean
  /** A first checkout begun before the rest of the setup (see first-checkout.ts), adopted by the first prepare. */
  first?: FirstCheckout
  /** The dependencies the gate trusts: a commit that changes them beyond the policy is refused. */
  dependencies?: DependencyReference
}

export interface PreparedCheckout {
  dir: string
  home: string
  tmp: string
  /** Protected paths that differ from the base in the checkout (empty when verified). */
  mismatches: Tampering[]
  /** The commit changes dependency files from the reference (as `dependency-changes: registry` allows). */
  dependenciesChanged: boolean
  /** The commit changes the files the project's own install reads (see changesProject in setup-installs.ts). */
  projectChanged?: boolean
  /** The run may write the dependency folders, in its layer (see layeredDeps). */
  depsInLayer?: boolean
  timings: Record<string, number>
}
