import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, mkdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import type { Settings } from '../inputs.js'
import { ensureAgentUser, killUserProcesses, recordAgentUser, retireAgentUser, runAgentUserName, type AgentUser } from '../isolation/agent-user.js'
import { stashCredentials } from '../isolation/credentials.js'
import { refusedNames } from '../isolation/env.js'
import { heldRepositoryFor } from '../git/custody-registry.js'
import { userConfigOf } from '../git/custody.js'
import { fetchEnv } from '../git/fetch-auth.js'
import { git } from '../git/git.js'
import type { AttemptLog } from '../loop/attempt-log.js'
import type { AgentRunner, CallGuard, GuardReport } from '../loop/types.js'
import { resolveBase, type BaseRef } from './base.js'
import { GateBrokenError } from './baseline-health.js'
import { describeTampering } from './compare.js'
import { ProtectedGate, type Baseline } from './protected-gate.js'
import { ProtectedPaths } from './protected-paths.js'
import { BaseSnapshot } from './snapshot.js'
import { TamperGuard } from './tamper.js'

export type IsolationMode = 'auto' | 'weak'

export interface ProtectionOptions {
  settings: Settings
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
  /** The attempt log: gets the baseline entry. */
  log?: AttemptLog
}

export interface Protection {
  base: BaseRef
  snapshot: BaseSnapshot
  gate: ProtectedGate
  baseline: Baseline
  guards: CallGuard[]
  /** Set when the agent runs as the dedicated user. */
  user?: AgentUser
  /** Environment values the agent and gate get on top of the allow-list (HOME, USER). */
  agentEnvSet: Record<string, string>
  /** One-line notes for the run summary. */
  notes: string[]
  wrapAgent(runner: AgentRunner): AgentRunner
  /** After the loop: agent processes killed, the workspace given back to its owner. */
  finish(): Promise<void>
}

/** Adds o+x (traverse only, no listing) to each ancestor so the agent user can reach `dir`. */
function makeReachable(dir: string): void {
  let current = path.resolve(dir)
  while (current !== path.dirname(current)) {
    const parent = path.dirname(current)
    const mode = statSync(parent).mode
    if ((mode & 0o001) === 0) chmodSync(parent, (mode & 0o7777) | 0o001)
    current = parent
  }
}

function chownTree(dir: string, user: AgentUser, prune: string[] = []): void {
  const args = [dir]
  for (const p of prune) args.push('-path', path.join(dir, p), '-prune', '-o')
  args.push('!', '-user', String(user.uid), '-exec', 'chown', '-h', `${user.uid}:${user.gid}`, '{}', '+')
  execFileSync('find', args, { stdio: 'pipe' })
}

/**
 * One call's folder: loopgate's (root-owned, readable) with the prompt it writes, and an `out/`
 * folder the agent writes its reports to (the cost file). loopgate never writes into a folder the
 * agent can write, and reads what the agent left there only as bounded data.
 */
function prepareCallDir(callDir: string, user: AgentUser | undefined): void {
  rmSync(callDir, { recursive: true, force: true })
  mkdirSync(callDir, { mode: 0o755 })
  chmodSync(callDir, 0o755)
  const out = path.join(callDir, 'out')
  mkdirSync(out, { mode: 0o700 })
  if (user) chownSync(out, user.uid, user.gid)
}

/** Hands the workspace (and files loopgate wrote there) back to the agent user before each call. */
class HandBackGuard implements CallGuard {
  constructor(
    private readonly workspace: string,
    private readonly user: AgentUser
  ) {}

  async beforeCall(): Promise<void> {
    killUserProcesses(this.user)
    chownTree(this.workspace, this.user, ['node_modules', '.venv', 'venv'])
  }

  async afterCall(): Promise<GuardReport> {
    const killed = killUserProcesses(this.user)
    return { rejected: [], tampered: false, notes: killed ? [`${killed} leftover agent process(es) killed`] : [] }
  }
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

  const held = heldRepositoryFor(ws)
  if (!held) throw new Error(`loopgate does not hold the repository of ${ws}`)
  const stash = await stashCredentials(userConfigOf(held), path.join(opts.runDir, 'credentials.json'))
  if (stash.found.length) notes.push(`the persisted git credential stays in loopgate's copy of the repository, never in the agent's (${stash.found.join(', ')})`)

  const base = await resolveBase(ws, { env: opts.env, baseRef: settings.baseRef, fetchEnv: fetchEnv({ token: settings.githubToken, env: opts.env, persisted: stash.auth }) })
  const snapshot = await BaseSnapshot.take(ws, base.sha, new ProtectedPaths(settings.protectedPaths), [settings.gateCommand, settings.gateSetup])
  const tamper = new TamperGuard({
    workspace: ws,
    snapshot
  })
  const initial = await tamper.restore()
  if (initial.found.length) {
    // Its own commit before the loop starts, so the agent's work is measured from there.
    await git(['commit', '-q', '--no-verify', '-m', `loopgate: protected paths from the base ${base.sha.slice(0, 7)}`], { cwd: ws })
    notes.push(`protected paths set to the base ${base.sha.slice(0, 7)} before the first call (committed): ${describeTampering(initial.found, 10)}`)
  }

  const refused = refusedNames(settings.agentEnv)
  if (refused.length) notes.push(`agent-env: ${refused.join(', ')} not passed to the agent or the gate (tokens, secrets and runner internals never are)`)

  const forced = opts.isolation === 'weak' || opts.env.LOOPGATE_ISOLATION === 'weak'
  const named = opts.agentUserName ?? opts.env.LOOPGATE_AGENT_USER ?? undefined
  const account = forced
    ? { why: 'the separate agent user was turned off (LOOPGATE_ISOLATION=weak)' }
    : ensureAgentUser(named ?? runAgentUserName(settings.loopId, opts.runId))
  const user = 'user' in account ? account.user : undefined
  if (user) recordAgentUser(opts.runDir, user, named === undefined)
  if (!user) {
    notes.push(
      `isolation is weak: ${'why' in account ? account.why : ''}; the agent runs as loopgate's own user and could read its process environment, the ledger and the gate snapshot`
    )
  }

  const gateDir = path.join(opts.tempDir, 'loopgate-gate', `${settings.loopId}-${opts.runId}`)
  const gate = new ProtectedGate({
    workspace: ws,
    snapshot,
    command: settings.gateCommand,
    setup: settings.gateSetup,
    report: settings.gateReport,
    timeoutMs: settings.gateTimeoutMs,
    env: opts.gateEnv,
    signal: opts.signal,
    privateDir: path.join(opts.runDir, 'gate'),
    gateDir,
    user
  })
  await gate.init()

  const agentEnvSet: Record<string, string> = {}
  const owner = statSync(ws)
  if (user) {
    execFileSync('chown', ['-hR', `${user.uid}:${user.gid}`, ws])
    for (const dir of [ws, opts.callsDir, gateDir]) makeReachable(dir)
    Object.assign(agentEnvSet, { HOME: user.home, USER: user.name, LOGNAME: user.name })
  }

  notes.push(`protected paths (resolved): ${snapshot.paths.patterns.join(', ')}`.slice(0, 4000))

  const startCommit = (await git(['rev-parse', 'HEAD'], { cwd: ws })).stdout.trim()
  let baseline: Baseline
  try {
    baseline = await gate.runBaseline(startCommit)
    notes.push(
      `protected gate: base ${base.sha.slice(0, 7)} (${base.source}), ${snapshot.size} protected file(s); baseline ${baseline.tests ?? 'unknown'} test(s), ${baseline.skipped ?? 'unknown'} skipped (${baseline.verdict.passed ? 'passing' : baseline.verdict.reason})`
    )
    opts.log?.write(baselineEntry(base, snapshot.size, startCommit, baseline))
    // No agent could make a gate pass that cannot run on the base: stop before any spend.
    if (baseline.broken) throw new GateBrokenError(baseline.broken, baseline.verdict, notes)
  } catch (err) {
    if (user) {
      execFileSync('chown', ['-hR', `${owner.uid}:${owner.gid}`, ws])
      retireAgentUser(opts.runDir)
    }
    throw err
  }

  const guards: CallGuard[] = user ? [new HandBackGuard(ws, user), tamper] : [tamper]
  const wrapAgent = (runner: AgentRunner): AgentRunner => ({
    async run(iteration, prompt, timeoutMs, signal) {
      prepareCallDir(path.join(opts.callsDir, `call-${iteration}`), user)
      try {
        return await runner.run(iteration, prompt, timeoutMs, signal)
      } finally {
        if (user) killUserProcesses(user)
      }
    }
  })
  const finish = async (): Promise<void> => {
    if (!user) return
    killUserProcesses(user)
    // Later steps (and actions/checkout's post step) run git here as the runner's user.
    execFileSync('chown', ['-hR', `${owner.uid}:${owner.gid}`, ws])
    retireAgentUser(opts.runDir)
  }
  return { base, snapshot, gate, baseline, guards, user, agentEnvSet, notes, wrapAgent, finish }
}

/** The attempt log's record of the baseline run: what the gate said on the start commit. */
function baselineEntry(base: BaseRef, protectedFiles: number, commit: string, baseline: Baseline): Record<string, unknown> {
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
