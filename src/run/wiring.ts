import path from 'node:path'
import { credentialsFor, prepareAdapter } from '../agents/adapter.js'
import { agentRunner } from '../agents/agent-runner.js'
import type { AgentCall } from '../agents/agent-call.js'
import type { Sandbox } from '../isolation/sandbox.js'
import type { Protection } from '../gate/open.js'
import type { GitRepository } from '../git/repository.js'
import { GitWorkspace } from '../git/workspace.js'
import type { Settings } from '../settings.js'
import { credentialFilesInWorkspace, stageCredentialFiles } from '../agents/credential-files.js'
import { agentEnv } from '../agents/agent-env.js'
import { withoutCredentials } from '../meter/metered-adapter.js'
import { meteredAgent } from '../meter/metered-wiring.js'
import { meterRouteFor } from '../meter/upstream-for.js'
import { FeaturesGuard } from '../gate/protection/features-guard.js'
import { systemClock, type CallGuard, type EngineDeps, type Workspace } from '../loop/engine-types.js'
import type { GateVerdict } from '../loop/engine-types.js'
import { AttemptLog } from '../records/attempt-log.js'
import { Ledger } from '../records/ledger.js'
import type { ProgressFile } from '../records/progress-file.js'
import type { RunContext, RunFiles } from './context.js'

export interface LoopWiring {
  deps: EngineDeps
  /** loopgate's own view of the workspace's git (its HEAD is the bump or start commit). */
  gitWorkspace: GitWorkspace
  notes: string[]
}

/**
 * The agent's environment before its user is known (the user's HOME and names come on top). A call
 * metered at the wire gets no model credential: the proxy holds it.
 */
function agentEnvOf(settings: Settings, ctx: RunContext, set: Record<string, string>): NodeJS.ProcessEnv {
  const metered = meterRouteFor(settings, ctx.env) !== undefined
  const credentials = metered ? [] : credentialsFor(settings)
  const env = agentEnv(ctx.env, { agent: settings.agent, extra: settings.agentEnv, provider: settings.provider, credentials, set })
  return metered ? withoutCredentials(env) : env
}

/**
 * loopgate's own view of the workspace's git: the progress file and the provider's credentials
 * files in the workspace stay out of its commits. Made before protection, which prepares it while
 * the gate opens (see ProtectionOptions.alongside).
 */
export function workspaceView(settings: Settings, ctx: RunContext, repository?: GitRepository): GitWorkspace {
  const exclude = credentialFilesInWorkspace(agentEnvOf(settings, ctx, {}), {
    agent: settings.agent,
    provider: settings.provider,
    workspace: settings.workspace
  })
  return new GitWorkspace({
    dir: settings.workspace,
    progressFile: settings.progressFile,
    featuresFile: settings.featuresFile,
    author: settings.commitAuthor,
    exclude,
    repository
  })
}

/** What the loop is wired from: the run's settings, context and protection, its files, loopgate's view of the workspace. */
interface LoopWiringParts {
  settings: Settings
  ctx: RunContext
  protection: Protection
  files: RunFiles & { callsDir: string; progress: ProgressFile }
  view: { gitWorkspace: GitWorkspace; measuredBase: string | undefined }
}

/**
 * The engine's ports for this run: the agent (its adapter, environment and user), loopgate's git
 * view of the workspace (prepared by then), the protected gate, the guards, and loopgate's records.
 */
export async function wireLoop({ settings, ctx, protection, files, view }: LoopWiringParts): Promise<LoopWiring> {
  const { gitWorkspace, measuredBase } = view
  const api = meterRouteFor(settings, ctx.env)?.upstream.api
  // behind the Bedrock and Vertex routes the proxy holds the credential: files are checked, never copied
  const heldByProxy = api === 'bedrock' || api === 'vertex'
  const staged = stageCredentialFiles(agentEnvOf(settings, ctx, protection.agentEnvSet), {
    agent: settings.agent,
    provider: settings.provider,
    user: heldByProxy ? undefined : protection.user,
    workspace: settings.workspace,
    runnerEnv: ctx.env,
    heldByProxy
  })
  const workspace: Workspace = measuredBase ? measuredFrom(gitWorkspace, measuredBase, await gitWorkspace.head()) : gitWorkspace
  const guards: CallGuard[] = [...protection.guards]
  if (settings.featuresFile) guards.push(new FeaturesGuard(settings.workspace, settings.featuresFile))
  const metered = meteredAgent(settings, ctx.env, await prepareAdapter(settings, { ...ctx, user: protection.user, agentPath: staged.env.PATH }))
  const agent = protection.wrapAgent(
    agentRunner({
      adapter: metered.adapter,
      cwd: path.join(settings.workspace, settings.packageDir ?? ''),
      maxTurns: settings.maxTurns,
      callBudgetUsd: settings.callBudgetUsd,
      env: staged.env,
      callsDir: files.callsDir,
      user: protection.user,
      sweepUser: protection.sweepUser,
      sandbox: sandboxFor(protection.sandbox)
    })
  )
  const deps: EngineDeps = {
    clock: ctx.clock ?? systemClock,
    agent,
    workspace,
    gate: {
      run: (commit) => protection.gate.run(commit),
      baselineFailures: () => baselineFailures(protection.gate.baseline?.verdict),
      rerun: (request) => protection.gate.rerun(request),
      testSources: (commit, failures) => protection.gate.testSources(commit, failures)
    },
    guards,
    ledger: new Ledger(files.ledgerFile),
    log: new AttemptLog(files.logFile),
    progress: files.progress,
    signal: ctx.signal,
    report: ctx.report,
    onIteration: ctx.onIteration,
    meteredAtWire: metered.meteredAtWire
  }
  return { deps, gitWorkspace, notes: staged.notes }
}

/** Each call starts in the run's sandbox, with the loopback origins it must reach (the metering proxy's) relayed into it. */
function sandboxFor(sandbox: Sandbox | null): AgentCall['sandbox'] {
  return sandbox ? (loopback) => sandbox.launcher('agent', loopback) : undefined
}

/** The tests the baseline failed, by id: the task, never flaky; null when it failed naming none. */
function baselineFailures(verdict: GateVerdict | undefined): string[] | null {
  if (!verdict) return []
  const failed = [...new Set([...(verdict.failedIds ?? []), ...verdict.failures.map((f) => f.id)])]
  return !verdict.passed && failed.length === 0 ? null : failed
}

/** A workspace whose "changed since the start" compares with `base` when asked about `start`. */
function measuredFrom(inner: Workspace, base: string, start: string): Workspace {
  return {
    head: () => inner.head(),
    commitIteration: (runId, iteration, changed) => inner.commitIteration(runId, iteration, changed),
    commitFeaturesFile: (runId, iteration, judged) => inner.commitFeaturesFile(runId, iteration, judged),
    hasChangesSince: (commit) => inner.hasChangesSince(commit === start ? base : commit)
  }
}
