import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { findProcesses } from '../process/proc.js'

/** The unprivileged account an agent's process runs as. */
export interface AgentUser {
  uid: number
  gid: number
  name: string
  home: string
}

const DEFAULT_AGENT_USER = 'loopgate-agent'

/**
 * The user one run's agent (and gate) runs as: its own, so reaping every process of that uid is
 * exact and two runs on one machine never touch each other's processes or homes.
 */
export function runAgentUserName(loopId: string, runId: string): string {
  return `lg-${createHash('sha256').update(`${loopId}\0${runId}\0${process.pid}`).digest('hex').slice(0, 12)}`
}

const USER_RECORD = 'agent-user.json'

interface UserRecord {
  name: string
  uid: number
  /** Created for this run: removed (with its home) when the run ends. */
  ephemeral: boolean
}

/** A run's user to note in its directory: whether it was created for the run, and the record's file name. */
interface RunUserNote {
  runDir: string
  user: AgentUser
  ephemeral: boolean
  record?: string
}

/** Notes in the run's root-only directory which user the agent runs as (the post step reads it). */
export function recordAgentUser({ runDir, user, ephemeral, record: record_ = USER_RECORD }: RunUserNote): void {
  const record: UserRecord = { name: user.name, uid: user.uid, ephemeral }
  writeFileSync(path.join(runDir, record_), JSON.stringify(record), { mode: 0o600 })
}

/** The record of the gate's own user (see gateUserName). */
export const GATE_USER_RECORD = 'gate-user.json'

/**
 * The gate runs as a user of its own, not the agent's: the baseline runs while the agent works,
 * and an agent process can neither signal it nor write into its checkout.
 */
export function gateUserName(agentUserName: string): string {
  return `${agentUserName.slice(0, 28)}-g`
}

function readUserRecord(runDir: string, name = USER_RECORD): UserRecord | null {
  const file = path.join(runDir, name)
  try {
    if (!lstatSync(file).isFile()) return null
    const r = JSON.parse(readFileSync(file, 'utf8')) as Partial<UserRecord>
    return typeof r.name === 'string' && typeof r.uid === 'number' ? { name: r.name, uid: r.uid, ephemeral: r.ephemeral === true } : null
  } catch {
    return null
  }
}

/** Removes a run's own agent user and its home (every process of it must be gone). */
async function removeAgentUser(user: AgentUser): Promise<void> {
  await run('userdel', ['--remove', user.name])
  if (user.home.startsWith('/home/lg-')) rmSync(user.home, { recursive: true, force: true })
}

/** The end of a run's agent user: every process killed, the user removed if the run created it. */
export async function retireAgentUser(runDir: string, recordName = USER_RECORD): Promise<string[]> {
  if (recordName === USER_RECORD) await retireAgentUser(runDir, GATE_USER_RECORD)
  const record = readUserRecord(runDir, recordName)
  if (!record || process.getuid?.() !== 0) return []
  const user = await lookup(record.name)
  if (!user || user.uid !== record.uid || user.uid === 0) return []
  const notes: string[] = []
  const killed = killUserProcesses(user)
  if (killed > 0) notes.push(`killed ${killed} process(es) the agent left running`)
  if (record.ephemeral) await removeAgentUser(user)
  rmSync(path.join(runDir, recordName), { force: true })
  return notes
}

/** The user as the local passwd file has it (where useradd puts the users loopgate makes). */
function localUser(name: string): AgentUser | null {
  let text: string
  try {
    text = readFileSync('/etc/passwd', 'utf8')
  } catch {
    return null
  }
  const line = text.split('\n').find((l) => l.startsWith(`${name}:`))
  return line ? passwdEntry(name, line) : null
}

function passwdEntry(name: string, line: string): AgentUser | null {
  if (!line) return null
  const [, , uid, gid, , home] = line.trim().split(':')
  return { name, uid: Number(uid), gid: Number(gid), home }
}

/** Runs a command without blocking the run's other setup; its exit code and output. */
function run(command: string, args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0
      resolve({ status: code, stdout, stderr })
    })
  })
}

/** The user from the local passwd file, else from every source the system names (getent). */
async function lookup(name: string): Promise<AgentUser | null> {
  const local = localUser(name)
  if (local) return local
  const r = await run('getent', ['passwd', name])
  return r.status === 0 ? passwdEntry(name, r.stdout) : null
}

/**
 * The dedicated unprivileged user the agent runs as, created when missing. Needs root (loopgate
 * spawns the agent with setuid); returns why not otherwise.
 */
export async function ensureAgentUser(name = DEFAULT_AGENT_USER): Promise<{ user: AgentUser } | { why: string }> {
  if (typeof process.getuid !== 'function') return { why: 'this platform has no POSIX users' }
  if (process.getuid() !== 0) {
    const sudo = await run('sudo', ['-n', 'true'])
    return {
      why:
        sudo.status === 0
          ? `loopgate runs as uid ${process.getuid()} (passwordless sudo is available: run the action step with sudo, or as root, to get a separate agent user)`
          : `loopgate runs as uid ${process.getuid()} without root or passwordless sudo`
    }
  }
  const usable = (user: AgentUser): { user: AgentUser } | { why: string } => (user.uid === 0 ? { why: `the user ${name} has uid 0` } : { user })
  // A user of the local passwd file is found without a process; one from elsewhere (a directory
  // service) makes useradd refuse, and is looked up then.
  const found = localUser(name)
  if (found) return usable(found)
  try {
    await useradd(name)
  } catch (err) {
    const again = await lookup(name) // known elsewhere, or created meanwhile by a concurrent run
    if (again) return usable(again)
    return {
      why: `useradd ${name} failed: ${String((err as { stderr?: string }).stderr ?? (err as Error).message)
        .trim()
        .slice(0, 200)}`
    }
  }
  const created = await lookup(name)
  return created ? usable(created) : { why: `the user ${name} could not be found after useradd` }
}

/** useradd, retried while another process holds the passwd lock (exit 10). */
async function useradd(name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const r = await run('useradd', ['--system', '--create-home', '--home-dir', `/home/${name}`, '--shell', '/bin/bash', '--user-group', name])
    if (r.status === 0) return
    if (r.status !== 10 || attempt >= 20) throw Object.assign(new Error(`useradd exited ${r.status}`), { stderr: r.stderr })
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Pids of live (non-zombie) processes owned by uid. */
export function processesOf(uid: number): number[] {
  return findProcesses((read) => {
    const status = read('status')
    const real = /^Uid:\s+(\d+)/m.exec(status)
    const state = /^State:\s+(\S)/m.exec(status)
    return real !== null && Number(real[1]) === uid && state?.[1] !== 'Z'
  })
}

/**
 * Kills every process of the agent user: `kill -9 -1` run as that user reaches all of them at once
 * (a fork loop cannot outrun it), then whatever is left is killed by pid.
 */
export function killUserProcesses(user: AgentUser): number {
  const killed = sweepUser(user)
  if (killed) killedUntold.set(user.uid, (killedUntold.get(user.uid) ?? 0) + killed)
  return killed
}

/** Processes of each user the sweeps killed that no one has been told of yet (see killedSinceAsked). */
const killedUntold = new Map<number, number>()

/** How many of the user's processes the sweeps killed since the last time this was asked. */
export function killedSinceAsked(user: Pick<AgentUser, 'uid'>): number {
  const n = killedUntold.get(user.uid) ?? 0
  killedUntold.delete(user.uid)
  return n
}

/** Kills the user's processes; returns how many there were (each counted once, however long it takes to die). */
function sweepUser(user: AgentUser): number {
  const killed = new Set<number>()
  for (let round = 0; round < 5; round++) {
    const left = processesOf(user.uid)
    if (left.length === 0) break
    for (const pid of left) killed.add(pid)
    spawnSync('/bin/kill', ['-9', '-1'], { uid: user.uid, gid: user.gid, stdio: 'ignore' })
    // A process killed a moment ago may not have died yet: it is signalled again, not counted again.
    for (const pid of processesOf(user.uid)) {
      killed.add(pid)
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // gone
      }
    }
  }
  return killed.size
}

/**
 * After main was killed: ends every process of the run's agent user (and removes it when the run
 * created it) and gives the workspace back to its owner (`uid:gid`, recorded by main). Root only.
 */
export async function reclaimWorkspace(workspace: string, owner: string, runDir: string): Promise<string[]> {
  if (process.getuid?.() !== 0 || !/^\d+:\d+$/.test(owner)) return []
  const notes = await retireAgentUser(runDir)
  try {
    execFileSync('chown', ['-hR', owner, workspace], { stdio: 'ignore' })
    notes.push(`the workspace was handed back to ${owner}`)
  } catch {
    // the workspace is gone
  }
  return notes
}
