import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { ROOT } from './action-runner.js'

/** The bundled CLI, as users run it. */
const CLI = path.join(ROOT, 'dist', 'cli.js')

/** `node dist/cli.js <args>` in `cwd`, with only PATH and HOME from the test's environment. */
export function cli(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string; all: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, all: `${r.stdout}\n${r.stderr}` }
}
