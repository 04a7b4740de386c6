import type { GitRepository } from '../git/repository.js'
import type { Launcher } from '../process/run-process.js'
import type { AgentUser } from '../isolation/agent-user.js'
import type { GateVerdict } from '../loop/engine-types.js'
import type { BrokenGate } from './baseline/baseline-health.js'
import type { BaseSnapshot } from './baseline/snapshot.js'
import type { FirstCheckout } from './checkout/first-checkout.js'
import type { DependencyReference } from './dependencies/dependency-reference.js'
import type { PackageCache } from './toolchain/package-caches.js'
import type { BaselineIds } from './verdict.js'

/** The `gate-report` value that judges a gate with no countable runner by its exit code alone. */
export const EXIT_CODE_REPORT = 'exit-code'

/** What the summary and the pull request say of a gate judged that way: the weaker guarantee. */
export const EXIT_CODE_NOTE =
  'the gate is judged by its exit code alone (`gate-report: exit-code`) where loopgate has no report of its own to read: no test count and no test id is checked, so a change that skips, removes or never reaches tests can pass it'

/** What a protected gate is made with, and what its baseline run records. */

export interface ProtectedGateOptions {
  workspace: string
  /** The workspace's repository, through loopgate's git directory while it holds it. */
  repository: GitRepository
  snapshot: BaseSnapshot
  command: string
  /** The folder of the checkout the command runs in (one package of a monorepo); gate-setup runs at the top. */
  packageDir?: string
  setup?: string
  /** Path of the JUnit XML / TAP report the gate writes, relative to the checkout; or EXIT_CODE_REPORT. */
  report?: string
  timeoutMs: number
  /** The scrubbed gate environment (gateEnv). */
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
  privateDir: string
  gateDir: string
  user?: AgentUser
  /** `user` is the gate's own: no other user's process can reach the checkout (see CheckoutOptions). */
  ownUser?: boolean
  /** The runner's package caches, given read-only to each run that has a `setup` step. */
  packageCaches?: PackageCache[]
  /** The first clean checkout, begun before the rest of the setup. */
  first?: FirstCheckout
  /** The baseline runs on loopgate's dependency bump: no test running there (an import error) is the task. */
  bumpBaseline?: boolean
  /** The dependencies the gate trusts (see DependencyReference). */
  dependencies?: DependencyReference
  /** Starts every gate process (the sandbox's namespaces). */
  launch?: Launcher
}

export interface Baseline {
  tests: number | null
  skipped: number | null
  /** The ids its report listed: each must pass in a candidate. */
  ids?: BaselineIds | null
  verdict: GateVerdict
  /** The protected paths its run wrote (a fixture a test rewrites and puts back). */
  wrote?: string[]
  /** Set when the gate cannot run on the base at all (not when its tests fail). */
  broken: BrokenGate | null
}

/** Per-step timings of the last gate run (for the benchmark and the log). */
export type GateTimings = Record<string, number>
