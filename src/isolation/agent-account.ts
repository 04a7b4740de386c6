import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { chmodSync, chownSync, mkdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { handBackPaths } from '../fs/hand-back.js'
import type { AgentRunner, CallGuard, GuardReport } from '../loop/types.js'
import {
  ensureAgentUser,
  GATE_USER_RECORD,
  gateUserName,
  killUserProcesses,
  killedSinceAsked,
  recordAgentUser,
  retireAgentUser,
  runAgentUserName,
  type AgentUser
} from './agent-user.js'

const execFileAsync = promisify(execFile)

export type IsolationMode = 'auto' | 'weak'

export interface AccountOptions {
  loopId: string
  runId: string
  /** The runner's environment (read for the isolation switch and the user's name only). */
  env: NodeJS.ProcessEnv
  /** Root-only run directory: the record of the users, so the post step can retire them. */
  runDir: string
  workspace: string
  /** `weak` forces the fallback (no separate user); also LOOPGATE_ISOLATION=weak. */
  isolation?: IsolationMode
  /** A user of the caller's choosing (kept after the run); else one is created for this run. */
  agentUserName?: string
}

/**
 * Who the agent and the gate run as for one run: a user of its own for the agent and one for the
 * gate (created for the run and removed after, so reaping is exact and two runs never touch each
 * other), or loopgate's own user when isolation is weak — and everything that follows from it:
 * the workspace handed over and back, the call folders, the processes killed after each call.
 */
export class AgentAccount {
  readonly notes: string[] = []
  /** Environment values the agent gets on top of the allow-list (HOME, USER). */
  readonly agentEnvSet: Record<string, string> = {}
  private readonly owner: { uid: number; gid: number }
  /** Kills every process of the agent's user (after each call, and when a call's process exits). */
  readonly sweep?: () => void
  private handingOver: Promise<void> = Promise.resolve()

  private constructor(
    private readonly opts: AccountOptions,
    readonly user: AgentUser | undefined,
    readonly gateUser: AgentUser | undefined
  ) {
    this.owner = statSync(opts.workspace)
    if (user) {
      this.sweep = () => void killUserProcesses(user)
      Object.assign(this.agentEnvSet, { HOME: user.home, USER: user.name, LOGNAME: user.name })
    }
  }

  static async open(opts: AccountOptions): Promise<AgentAccount> {
    const forced = opts.isolation === 'weak' || opts.env.LOOPGATE_ISOLATION === 'weak'
    const named = opts.agentUserName ?? opts.env.LOOPGATE_AGENT_USER ?? undefined
    const account = forced
      ? { why: 'the separate agent user was turned off (LOOPGATE_ISOLATION=weak)' }
      : await ensureAgentUser(named ?? runAgentUserName(opts.loopId, opts.runId))
    const user = 'user' in account ? account.user : undefined
    if (user) recordAgentUser(opts.runDir, user, named === undefined)
    // The gate's own user: code under test can neither write the workspace nor reach the agent's processes.
    const gateAccount = user ? await ensureAgentUser(gateUserName(user.name)) : null
    const gateUser = gateAccount && 'user' in gateAccount ? gateAccount.user : undefined
    if (gateUser) recordAgentUser(opts.runDir, gateUser, named === undefined, GATE_USER_RECORD)
    const opened = new AgentAccount(opts, user, gateUser)
    if (!user) {
      opened.notes.push(
        `isolation is weak: ${'why' in account ? account.why : ''}; the agent runs as loopgate's own user and could read its process environment, the ledger and the gate snapshot`
      )
    }
    return opened
  }

  /** The workspace goes to the agent's user. The tree walk goes on while the rest of the setup does; the first call and close() wait for it. */
  handOver(): Promise<void> {
    if (!this.user) return Promise.resolve()
    makeReachable(this.opts.workspace)
    this.handingOver = execFileAsync('chown', ['-hR', `${this.user.uid}:${this.user.gid}`, this.opts.workspace]).then(() => undefined)
    return this.handingOver
  }

  /** The folders the agent's user must reach (besides the workspace) become traversable. */
  reach(dirs: string[]): void {
    if (this.user) for (const dir of dirs) makeReachable(dir)
  }

  /** Before each call: files loopgate wrote go back to the agent; after it, its processes die. */
  guard(written: () => string[]): CallGuard | null {
    return this.user ? new HandBackGuard(this.opts.workspace, this.user, written) : null
  }

  /** Each call gets a fresh folder of loopgate's, and nothing of the agent outlives it. */
  wrapAgent(runner: AgentRunner, callsDir: string): AgentRunner {
    const user = this.user
    return {
      async run(iteration, prompt, timeoutMs, signal, limit) {
        prepareCallDir(path.join(callsDir, `call-${iteration}`), user)
        try {
          return await runner.run(iteration, prompt, timeoutMs, signal, limit)
        } finally {
          if (user) killUserProcesses(user)
        }
      }
    }
  }

  /** After a failed setup: every process killed, the workspace back to its owner, the run's users removed. */
  close(): Promise<void> {
    return this.end().done
  }

  /**
   * After the loop: every process killed, then the workspace goes back to its owner (`handedBack`;
   * later steps, and actions/checkout's post step, run git there as the runner's user) while the
   * run's users are removed (`done` once both are).
   */
  end(): { handedBack: Promise<void>; done: Promise<void> } {
    const user = this.user
    if (!user) return { handedBack: Promise.resolve(), done: Promise.resolve() }
    const killed = this.handingOver.catch(() => undefined).then(() => void killUserProcesses(user))
    const handedBack = killed.then(() => execFileAsync('chown', ['-hR', `${this.owner.uid}:${this.owner.gid}`, this.opts.workspace])).then(() => undefined)
    const removed = killed.then(() => retireAgentUser(this.opts.runDir))
    return { handedBack, done: Promise.all([handedBack, removed]).then(() => undefined) }
  }
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

/**
 * Hands the files loopgate wrote in the workspace since the last call (the progress and features
 * files, protected paths it restored) back to the agent user before each call; the whole tree was
 * handed over at setup, and everything else there the agent wrote itself.
 */
class HandBackGuard implements CallGuard {
  constructor(
    private readonly workspace: string,
    private readonly user: AgentUser,
    private readonly written: () => string[]
  ) {}

  async beforeCall(): Promise<void> {
    killUserProcesses(this.user)
    handBackPaths(this.workspace, this.written(), this.user)
  }

  async afterCall(): Promise<GuardReport> {
    // The call's end swept the user (when its process exited, and once the call was over).
    const killed = killedSinceAsked(this.user)
    return { rejected: [], tampered: false, notes: killed ? [`${killed} leftover agent process(es) killed`] : [] }
  }
}
