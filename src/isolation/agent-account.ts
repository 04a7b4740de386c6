import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { VariableConfigError } from '../errors.js'
import { handBackPaths } from '../fs/hand-back.js'
import type { AgentRunner, CallGuard, GuardReport } from '../loop/engine-types.js'
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
import { grantTraverse, keepToUsers, revokeAcls } from './private-paths.js'
import { lockAgentUser, type UserLock } from './user-lock.js'

const execFileAsync = promisify(execFile)

export type IsolationMode = 'auto' | 'weak'

interface AccountOptions {
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

/** What an account is made of once open: its options, the run's users and the named user's lock. */
interface OpenedAccount {
  opts: AccountOptions
  user: AgentUser | undefined
  gateUser: AgentUser | undefined
  lock: UserLock | null
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
  /** The workspace root's mode before the run (it is the agent's alone during the run). */
  private readonly workspaceMode: number
  /** The agent's own temp folder for this run (TMPDIR), in its home. */
  private readonly tmpDir?: string
  /** Folders whose ACLs let this run's users traverse them (revoked when the run ends). */
  private readonly granted = new Set<string>()

  private readonly opts: AccountOptions
  readonly user: AgentUser | undefined
  readonly gateUser: AgentUser | undefined
  private readonly lock: UserLock | null

  private constructor({ opts, user, gateUser, lock }: OpenedAccount) {
    this.opts = opts
    this.user = user
    this.gateUser = gateUser
    this.lock = lock
    const st = statSync(opts.workspace)
    this.owner = st
    this.workspaceMode = st.mode & 0o7777
    if (user) {
      this.sweep = () => void killUserProcesses(user)
      this.tmpDir = privateTmp(user)
      Object.assign(this.agentEnvSet, { HOME: user.home, USER: user.name, LOGNAME: user.name, TMPDIR: this.tmpDir })
    }
  }

  static async open(opts: AccountOptions): Promise<AgentAccount> {
    const forced = opts.isolation === 'weak' || opts.env.LOOPGATE_ISOLATION === 'weak'
    const named = opts.agentUserName ?? (opts.env.LOOPGATE_AGENT_USER || undefined)
    // A named user is this run's alone while it runs: each run kills every process of its user.
    const lock = !forced && named !== undefined && process.getuid?.() === 0 ? await lockAgentUser(named, opts.runId) : null
    let account: Awaited<ReturnType<typeof ensureAgentUser>>
    try {
      account = forced
        ? { why: 'the separate agent user was turned off (LOOPGATE_ISOLATION=weak)' }
        : await ensureAgentUser(named ?? runAgentUserName(opts.loopId, opts.runId))
    } catch (err) {
      lock?.release()
      throw err
    }
    const user = 'user' in account ? account.user : undefined
    const homeless = user && named !== undefined ? homeProblem(user) : null
    if (homeless) {
      lock?.release()
      throw new VariableConfigError('LOOPGATE_AGENT_USER', named ?? '', homeless)
    }
    if (user) recordAgentUser({ runDir: opts.runDir, user, ephemeral: named === undefined })
    // The gate's own user: code under test can neither write the workspace nor reach the agent's processes.
    const gateAccount = user ? await ensureAgentUser(gateUserName(user.name)) : null
    const gateUser = gateAccount && 'user' in gateAccount ? gateAccount.user : undefined
    if (gateUser) recordAgentUser({ runDir: opts.runDir, user: gateUser, ephemeral: named === undefined, record: GATE_USER_RECORD })
    const opened = new AgentAccount({ opts, user, gateUser, lock })
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
    this.makeReachable(this.opts.workspace)
    // Other users (other runs' agents among them) may not even enter it.
    chmodSync(this.opts.workspace, 0o700)
    this.handingOver = execFileAsync('chown', ['-hR', `${this.user.uid}:${this.user.gid}`, this.opts.workspace]).then(() => undefined)
    return this.handingOver
  }

  /** The folders the agent's user must reach (besides the workspace) become traversable. */
  reach(dirs: string[]): void {
    if (!this.user) return
    for (const dir of dirs) {
      this.makeReachable(dir)
      // What the folder gave every user it gives this run's users only.
      const note = keepToUsers(dir, this.runUids())
      if (note) this.notes.push(note)
    }
  }

  private runUids(): number[] {
    return [this.user, this.gateUser].filter((u): u is AgentUser => u !== undefined).map((u) => u.uid)
  }

  /** Lets this run's users (and no other) traverse each ancestor of `dir` that others may not. */
  private makeReachable(dir: string): void {
    const note = grantTraverse(dir, this.runUids(), this.granted)
    if (note && !this.notes.includes(note)) this.notes.push(note)
  }

  /** Before each call: files loopgate wrote go back to the agent; after it, its processes die. */
  guard(written: () => string[]): CallGuard | null {
    return this.user ? new HandBackGuard(this.opts.workspace, this.user, written) : null
  }

  /** Each call gets a fresh folder of loopgate's, and nothing of the agent outlives it. */
  wrapAgent(runner: AgentRunner, callsDir: string): AgentRunner {
    const user = this.user
    return {
      async run(request) {
        prepareCallDir(path.join(callsDir, `call-${request.iteration}`), user)
        try {
          return await runner.run(request)
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
    if (!user) {
      this.lock?.release()
      return { handedBack: Promise.resolve(), done: Promise.resolve() }
    }
    const killed = this.handingOver.catch(() => undefined).then(() => void killUserProcesses(user))
    const handedBack = killed
      .then(() => execFileAsync('chown', ['-hR', `${this.owner.uid}:${this.owner.gid}`, this.opts.workspace]))
      .then(() => chmodSync(this.opts.workspace, this.workspaceMode))
    const removed = killed.then(() => {
      revokeAcls(this.granted, this.runUids())
      if (this.tmpDir) rmSync(this.tmpDir, { recursive: true, force: true })
      return retireAgentUser(this.opts.runDir)
    })
    const done = Promise.all([handedBack, removed]).finally(() => this.lock?.release())
    return { handedBack, done: done.then(() => undefined) }
  }
}

/** Why a named agent user cannot be used: its home folder is missing or not its own; null when it can. */
function homeProblem(user: AgentUser): string | null {
  const create = `mkdir -p ${user.home} && chown ${user.name}: ${user.home}`
  let home
  try {
    home = statSync(user.home)
  } catch {
    return `a user with a home folder of its own; ${user.home} does not exist: create it (${create}), or leave LOOPGATE_AGENT_USER unset for a user of the run's own`
  }
  if (!home.isDirectory() || home.uid !== user.uid) {
    return `a user with a home folder of its own; ${user.home} is not ${user.name}'s folder: ${create}, or leave LOOPGATE_AGENT_USER unset`
  }
  return null
}

/** The agent's own temp folder for the run, in its home (which no other user may enter). */
function privateTmp(user: AgentUser): string {
  const home = statSync(user.home)
  if (!home.isDirectory() || home.uid !== user.uid) throw new Error(`the agent user ${user.name} does not own its home ${user.home}`)
  chmodSync(user.home, 0o700)
  const dir = mkdtempSync(path.join(user.home, '.loopgate-tmp-'))
  chownSync(dir, user.uid, user.gid)
  chmodSync(dir, 0o700)
  return dir
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
