import { constants, accessSync, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * A cgroup v2 of one agent call: every process the call starts is in it, however it detaches
 * (setsid, double fork, `env -i`), so the call's end kills them all. Used where the agent has no
 * user of its own; where cgroup v2 is not writable it is simply not there.
 */
export class CallCgroup {
  private constructor(readonly dir: string) {}

  /** A fresh cgroup under loopgate's own, or null when cgroup v2 is unavailable or not ours to write. */
  static create(name: string): CallCgroup | null {
    const mount = cgroup2Mount()
    const own = ownCgroup()
    if (!mount || own === null) return null
    const dir = path.join(mount, own, name)
    try {
      mkdirSync(dir)
      accessSync(path.join(dir, 'cgroup.procs'), constants.W_OK)
      return new CallCgroup(dir)
    } catch {
      return null
    }
  }

  /** The command and arguments that start `command` inside the cgroup (no window to escape first). */
  wrap(command: string, args: string[]): { command: string; args: string[] } {
    return { command: '/bin/sh', args: ['-c', 'echo $$ > "$0" && exec "$@"', path.join(this.dir, 'cgroup.procs'), command, ...args] }
  }

  pids(): number[] {
    try {
      return readFileSync(path.join(this.dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number)
    } catch {
      return []
    }
  }

  /** Kills every process in the cgroup and removes it; returns how many were still there. */
  killAll(): number {
    let killed = 0
    const killFile = path.join(this.dir, 'cgroup.kill')
    for (let round = 0; round < 20; round++) {
      const left = this.pids()
      if (left.length === 0) break
      killed = Math.max(killed, left.length)
      if (existsSync(killFile)) {
        try {
          writeFileSync(killFile, '1')
        } catch {
          // fall back to one by one
        }
      }
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // gone
        }
      }
    }
    try {
      rmdirSync(this.dir)
    } catch {
      // a process is still exiting; the kernel drops an empty cgroup's last reference later
    }
    return killed
  }
}

function cgroup2Mount(): string | null {
  try {
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const [before, after] = line.split(' - ')
      if (after?.startsWith('cgroup2 ')) return before.split(' ')[4]
    }
  } catch {
    // not Linux
  }
  return null
}

function ownCgroup(): string | null {
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'))
    return line ? line.slice(3) : null
  } catch {
    return null
  }
}
