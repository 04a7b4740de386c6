import { spawnSync } from 'node:child_process'
import { closeSync, openSync, readSync, realpathSync } from 'node:fs'
import type { AgentUser } from '../isolation/agent-user.js'

/** The interpreter a script names with `#!/usr/bin/env <name>` (node, for the npm CLIs), or null. */
function envInterpreter(file: string): string | null {
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    const buf = Buffer.alloc(256)
    const first = buf
      .subarray(0, readSync(fd, buf, 0, buf.length, 0))
      .toString('utf8')
      .split('\n')[0]
    return /^#!\s*\/usr\/bin\/env\s+(?:-S\s+)?([A-Za-z0-9._+-]+)/.exec(first)?.[1] ?? null
  } catch {
    return null
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** A shell check with its arguments, and the user and PATH it runs with. */
interface UserCheck {
  script: string
  args: string[]
  user: AgentUser | undefined
  agentPath: string | undefined
}

/** Runs a check as `user` (root runs as itself), with only the PATH the agent gets. */
function asUser({ script, args, user, agentPath }: UserCheck): boolean {
  const r = spawnSync('/bin/sh', ['-c', script, 'sh', ...args], {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: { PATH: agentPath ?? '/usr/bin:/bin' },
    timeout: 10_000
  })
  return r.status === 0
}

/**
 * Why the agent's user cannot run the agent's CLI, or null: the file must be there, every folder
 * on the way searchable and the file executable by that user, and a script's `env` interpreter
 * (node) on the agent's PATH for that user. Checked as the user, so every permission counts.
 */
export function agentBinaryProblem(binary: string, user: AgentUser | undefined, agentPath: string | undefined): string | null {
  let real: string
  try {
    real = realpathSync(binary)
  } catch {
    return `the agent's CLI ${binary} does not exist. Fix: install it (npm install -g <package>) or leave agent-version unset so loopgate installs the pinned version. Nothing was spent.`
  }
  const who = user ? `the agent's user ${user.name}` : 'this user'
  if (!asUser({ script: '[ -x "$1" ] && [ -r "$1" ]', args: [real], user, agentPath })) {
    return `${who} cannot execute the agent's CLI ${binary} (a folder on the way, such as a home folder, is private to its owner). Fix: install the CLI where every user can run it (npm install -g, or let loopgate install it when it is not on PATH). Nothing was spent.`
  }
  const interpreter = envInterpreter(real)
  if (interpreter && !asUser({ script: 'p=$(command -v "$1") && [ -x "$p" ]', args: [interpreter], user, agentPath })) {
    return `${who} cannot find \`${interpreter}\`, which the agent's CLI ${binary} runs with, on the PATH the agent gets. Fix: install ${interpreter} where every user can run it (actions/setup-node does). Nothing was spent.`
  }
  return null
}
