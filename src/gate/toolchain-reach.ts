import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../isolation/agent-user.js'

/**
 * The folders on the gate's PATH that exist but that the gate user cannot search — a toolchain
 * installed for the runner's user only (a Python under /root/.pyenv, say). Checked as that user,
 * so every permission on the way counts.
 */
export function unreachablePathDirs(pathVar: string | undefined, user: AgentUser): string[] {
  const dirs = [...new Set((pathVar ?? '').split(':').filter((d) => path.isAbsolute(d)))].filter((d) => {
    try {
      return statSync(d).isDirectory()
    } catch {
      return false
    }
  })
  if (dirs.length === 0) return []
  const r = spawnSync('/bin/sh', ['-c', 'for d do [ -x "$d" ] || printf "%s\\n" "$d"; done', 'sh', ...dirs], {
    uid: user.uid,
    gid: user.gid,
    env: {},
    encoding: 'utf8',
    timeout: 10_000
  })
  if (r.status !== 0) return []
  return r.stdout.split('\n').filter(Boolean)
}

/** One sentence for a failed baseline: which PATH folders the gate cannot use, and what to do. */
export function describeUnreachable(dirs: string[], user: AgentUser): string {
  return `the gate user ${user.name} cannot reach ${dirs.join(', ')} on PATH (a toolchain installed for the runner's user only): install it where every user can read it (setup-node and setup-python use the world-readable tool cache) or name a reachable interpreter in gate-command`
}
