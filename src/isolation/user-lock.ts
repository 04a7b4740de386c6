import { closeSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import path from 'node:path'
import { ConfigError } from '../errors.js'

/** Where the locks on named agent users live: a root-only folder no other user can plant in. */
const USER_LOCK_DIR = '/run/loopgate/agent-users'

/** How long a run waits for another run to let go of a named user before it refuses. */
const USER_LOCK_WAIT_MS = 10_000

interface LockHolder {
  pid: number
  /** The holder's start time in clock ticks (/proc/<pid>/stat): a reused pid is not the holder. */
  start: string
  runId: string
  since: string
}

function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 22, counted after the command name (which may hold spaces and parentheses).
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

/** The lock folder, made root-only; one that is a link, not root's, or open to others is refused. */
function lockDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  for (let current = dir; current !== path.dirname(current); current = path.dirname(current)) {
    const st = lstatSync(current)
    const open = current === dir ? (st.mode & 0o077) !== 0 : (st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0
    if (!st.isDirectory() || st.uid !== 0 || open)
      throw new Error(`the lock folder ${dir} is not root's own (${current} is not a root-owned folder others cannot write)`)
  }
  return dir
}

function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>
    return typeof h.pid === 'number' && typeof h.start === 'string' ? (h as LockHolder) : null
  } catch {
    return null
  }
}

function alive(holder: LockHolder): boolean {
  return processStart(holder.pid) === holder.start
}

export interface UserLock {
  release(): void
}

function tryCreate(file: string, holder: LockHolder): boolean {
  let fd: number
  try {
    fd = openSync(file, 'wx', 0o600)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  }
  writeSync(fd, JSON.stringify(holder))
  closeSync(fd)
  return true
}

/** A lock of a dead holder (or an unreadable one) is moved aside, so two runs recovering it never both win. */
function recoverStale(file: string): void {
  const holder = readHolder(file)
  if (holder && alive(holder)) return
  const aside = `${file}.stale-${process.pid}`
  try {
    renameSync(file, aside)
  } catch {
    return // another run recovered it first
  }
  // Another run may have recovered it and taken it anew in between: a live lock goes back.
  const moved = readHolder(aside)
  if (moved && alive(moved)) {
    try {
      linkSync(aside, file)
    } catch {
      // taken again meanwhile
    }
  }
  unlinkSync(aside)
}

/**
 * Takes the named agent user for this run (held until release, or until this process dies). A
 * second run with the same name waits a short while, then refuses: two runs never share a user,
 * since each run kills every process of its user after each call.
 */
export async function lockAgentUser(name: string, runId: string, opts: { dir?: string; waitMs?: number } = {}): Promise<UserLock> {
  const file = path.join(lockDir(opts.dir ?? USER_LOCK_DIR), `${name}.lock`)
  const me: LockHolder = { pid: process.pid, start: processStart(process.pid) ?? '', runId, since: new Date().toISOString() }
  const until = Date.now() + (opts.waitMs ?? USER_LOCK_WAIT_MS)
  for (;;) {
    recoverStale(file)
    if (tryCreate(file, me)) break
    if (Date.now() >= until) {
      const holder = readHolder(file)
      throw new ConfigError(
        'LOOPGATE_AGENT_USER',
        name,
        `a user no other live run holds (run ${holder?.runId ?? 'unknown'}, pid ${holder?.pid ?? '?'}, holds ${name} since ${holder?.since ?? '?'}); ` +
          'give each concurrent run its own LOOPGATE_AGENT_USER, or leave it unset for a user of its own per run'
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return {
    release() {
      const holder = readHolder(file)
      if (holder && holder.pid === me.pid && holder.start === me.start && holder.runId === runId) unlinkSync(file)
    }
  }
}
