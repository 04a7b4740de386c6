import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import path from 'node:path'
import type { AgentCall } from '../../src/agents/agent-call.js'

export type AgentUser = NonNullable<AgentCall['user']>

/** LOOPGATE_TEST_NS keeps two test runs on one machine apart (each its own users). */
export const AGENT_USER_NAME = `loopgate-test${process.env.LOOPGATE_TEST_NS ?? ''}`
const USER_ROOT = `/home/${AGENT_USER_NAME}`

function idOf(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, AGENT_USER_NAME], { encoding: 'utf8' }).trim())
}

/**
 * The unprivileged user the real CLIs run as (Claude Code refuses to skip permissions as root).
 * Created with useradd when missing; each call gets a fresh HOME it owns, so CLI state (settings,
 * sessions) never leaks from one test file to the next.
 */
export function agentUser(): AgentUser {
  let exists = true
  try {
    idOf('-u')
  } catch {
    exists = false
  }
  if (!exists) {
    execFileSync('useradd', ['--create-home', '--home-dir', USER_ROOT, '--shell', '/bin/bash', AGENT_USER_NAME], { stdio: 'ignore' })
  }
  const uid = idOf('-u')
  const gid = idOf('-g')
  mkdirSync(USER_ROOT, { recursive: true })
  chownSync(USER_ROOT, uid, gid)
  const home = mkdtempSync(path.join(USER_ROOT, 'home-'))
  chownSync(home, uid, gid)
  return { uid, gid, name: AGENT_USER_NAME, home }
}

/**
 * Fails with a clear message when the agent user cannot reach a CLI. The jest global setup links
 * the CLIs into a world-traversable folder, so this fires only when that setup did not run.
 */
export function assertUserCanRun(user: AgentUser, binary: string): void {
  const r = spawnSync('/bin/sh', ['-c', 'test -x "$0" && test -r "$0"', binary], { uid: user.uid, gid: user.gid })
  if (r.status !== 0) {
    throw new Error(
      `the agent user ${user.name} cannot run ${binary}: run the tests through jest (npm test), whose global setup links the CLIs where test users can reach them`
    )
  }
}

/** Gives a directory tree (a test repository) to the agent user. */
export function chownTree(dir: string, user: Pick<AgentUser, 'uid' | 'gid'>): void {
  chownSync(dir, user.uid, user.gid)
  for (const entry of readdirSync(dir)) {
    const p = path.join(dir, entry)
    const st = lstatSync(p)
    if (st.isSymbolicLink()) continue
    if (st.isDirectory()) chownTree(p, user)
    else chownSync(p, user.uid, user.gid)
  }
}
