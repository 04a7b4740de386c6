import type { AgentSettings, GateSettings, PublishSettings, StateSettings, WorkspaceSettings } from '../../settings.js'
import type { GitRepository } from '../../git/repository.js'
import type { IsolationMode } from '../../isolation/agent-account.js'
import type { AgentUser } from '../../isolation/agent-user.js'
import type { BaselineStore } from '../baseline/baseline-cache.js'
import type { AttemptLog } from '../../records/attempt-log.js'
import type { AgentRunner, CallGuard } from '../../loop/engine-types.js'
import type { BaseRef } from '../baseline/base.js'
import type { ProtectedGate, Baseline } from '../protected-gate.js'
import type { BaseSnapshot } from '../baseline/snapshot.js'
import type { DependencyReferenceOptions } from '../dependencies/dependency-trust.js'
import type { Sandbox } from '../../isolation/sandbox.js'

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
  /** The workspace's repository, through loopgate's own git directory (the run holds it). */
  repository: GitRepository
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
  dependencyReference?: DependencyReferenceOptions
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
  /** The sandbox agent and gate processes start in (null: none on this runner, as `allowed-hosts: '*'` allowed). */
  sandbox?: Sandbox | null
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
  /** The sandbox the agent's calls start in (see ProtectionOptions.sandbox). */
  sandbox: Sandbox | null
  wrapAgent(runner: AgentRunner): AgentRunner
  /** After the loop: agent processes killed, the workspace given back to its owner; the run's users' removal begins. */
  finish(): Promise<void>
  /** Settles once the run's users are removed (after finish). */
  retired(): Promise<void>
}
