import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { ROOT } from './action-runner.js'
import { tempDir } from './repo.js'

/** The bundled CLI, as users run it. */
const CLI = path.join(ROOT, 'dist', 'cli.js')

/** `node dist/cli.js <args>` in `cwd`, with only PATH and HOME from the test's environment. */
export function cli(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string; all: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, all: `${r.stdout}\n${r.stderr}` }
}

/** `loopgate run` with a command agent running `agentCommand` and `gate` as the gate command, at most two iterations. */
export function runWithCommandAgent(repo: string, agentCommand: string, gate: string, extra: string[] = []): ReturnType<typeof cli> {
  const args = ['run', '--agent', 'command', '--agent-command', agentCommand, '--prompt', 'x', '--gate-command', gate, '--max-iterations', '2']
  return cli([...args, '--temp-dir', tempDir(), ...extra], repo)
}
