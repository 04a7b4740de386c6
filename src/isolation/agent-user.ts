import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import type { AgentCall } from '../agents/types.js'

export type AgentUser = NonNullable<AgentCall['user']>

export const DEFAULT_AGENT_USER = 'loopgate-agent'

function lookup(name: string): AgentUser | null {
  const r = spawnSync('getent', ['passwd', name], { encoding: 'utf8' })
  if (r.status !== 0 || !r.stdout) return null
  const [, , uid, gid, , home] = r.stdout.trim().split(':')
  return { name, uid: Number(uid), gid: Number(gid), home }
}

/**
 * The dedicated unprivileged user the agent runs as, created when missing. Needs root (loopgate
 * spawns the agent with setuid); returns why not otherwise.
 */
export function ensureAgentUser(name = DEFAULT_AGENT_USER): { user: AgentUser } | { why: string } {
  if (typeof process.getuid !== 'function') return { why: 'this platform has no POSIX users' }
  if (process.getuid() !== 0) {
    const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' })
    return {
      why:
        sudo.status === 0
          ? `loopgate runs as uid ${process.getuid()} (passwordless sudo is available: run the action step with sudo, or as root, to get a separate agent user)`
          : `loopgate runs as uid ${process.getuid()} without root or passwordless sudo`
    }
  }
  const found = lookup(name)
  if (found) {
    if (found.uid === 0) return { why: `the user ${name} has uid 0` }
    return { user: found }
  }
  try {
    execFileSync('useradd', ['--system', '--create-home', '--home-dir', `/home/${name}`, '--shell', '/bin/bash', '--user-group', name], {
      stdio: 'pipe'
    })
  } catch (err) {
    const again = lookup(name) // created meanwhile by a concurrent run
    if (again) return { user: again }
    return { why: `useradd ${name} failed: ${String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim().slice(0, 200)}` }
  }
  const created = lookup(name)
  return created ? { user: created } : { why: `the user ${name} could not be found after useradd` }
}

/** Pids of live (non-zombie) processes owned by uid. */
export function processesOf(uid: number): number[] {
  const pids: number[] = []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return pids
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8')
      const real = /^Uid:\s+(\d+)/m.exec(status)
      const state = /^State:\s+(\S)/m.exec(status)
      if (real && Number(real[1]) === uid && state?.[1] !== 'Z') pids.push(Number(entry))
    } catch {
      // gone
    }
  }
  return pids
}

/**
 * Kills every process of the agent user: `kill -9 -1` run as that user reaches all of them at once
 * (a fork loop cannot outrun it), then whatever is left is killed by pid.
 */
export function killUserProcesses(user: AgentUser): number {
  let killed = 0
  for (let round = 0; round < 5; round++) {
    const left = processesOf(user.uid)
    if (left.length === 0) break
    spawnSync('/bin/kill', ['-9', '-1'], { uid: user.uid, gid: user.gid, stdio: 'ignore' })
    for (const pid of processesOf(user.uid)) {
      try {
        process.kill(pid, 'SIGKILL')
        killed++
      } catch {
        // gone
      }
    }
    killed += left.length
  }
  return killed
}

/**
 * After main was killed: ends every process of the agent user and gives the workspace back to its
 * owner (`uid:gid`, recorded by main). Root only; returns what it did.
 */
export function reclaimWorkspace(workspace: string, owner: string, name = DEFAULT_AGENT_USER): string[] {
  if (process.getuid?.() !== 0 || !/^\d+:\d+$/.test(owner)) return []
  const notes: string[] = []
  const user = lookup(name)
  if (user && user.uid !== 0) {
    const killed = killUserProcesses(user)
    if (killed > 0) notes.push(`killed ${killed} process(es) the agent left running`)
  }
  try {
    execFileSync('chown', ['-hR', owner, workspace], { stdio: 'ignore' })
    notes.push(`the workspace was handed back to ${owner}`)
  } catch {
    // the workspace is gone
  }
  return notes
}
