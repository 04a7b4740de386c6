import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../isolation/agent-user.js'

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

/** The PATH without the folders its user cannot enter (searching them would fail with EACCES, not ENOENT). */
export function withoutUnreachable(pathVar: string | undefined, unreachable: string[]): string | undefined {
  if (pathVar === undefined || unreachable.length === 0) return pathVar
  const drop = new Set(unreachable)
  return pathVar
    .split(':')
    .filter((d) => !drop.has(d))
    .join(':')
}

/** One sentence for a gate that could not start: which PATH folders the gate cannot use, and what to do. */
export function describeUnreachable(dirs: string[], user: AgentUser): string {
  return `the gate user ${user.name} cannot reach ${dirs.join(', ')}, left off its PATH (a toolchain installed for one user only): install it where every user can read it (a system-wide install; in a workflow, setup-node and setup-python use the world-readable tool cache) or name a reachable interpreter in \`gate-command\``
}
