import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'

/** Set in the environment of the re-launched (root) loopgate, so it does not re-launch again. */
const ELEVATED_ENV = 'LOOPGATE_ELEVATED'

/**
 * GitHub-hosted runners run actions as an unprivileged user with passwordless sudo. The agent can
 * only run as a separate user when loopgate is root, so loopgate re-launches itself with sudo.
 * LOOPGATE_ISOLATION=weak turns this off.
 */
export function shouldElevate(env: NodeJS.ProcessEnv): boolean {
  if (process.platform !== 'linux' || typeof process.getuid !== 'function') return false
  if (process.getuid() === 0 || env[ELEVATED_ENV] === '1' || env.LOOPGATE_ISOLATION === 'weak') return false
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0
}

/** loopgate's own folders under RUNNER_TEMP, handed back to the runner's user after an elevated step. */
function ownFolders(tempDir: string): string[] {
  return ['loopgate', 'loopgate-calls', 'loopgate-gate', 'loopgate-state'].map((d) => path.join(tempDir, d)).filter((d) => existsSync(d))
}

/**
 * Runs `script` again as root through `sudo -n -E` (the environment — inputs, file commands — goes
 * along, never on the command line), forwards the runner's signals, and returns its exit status.
 */
export function relaunchElevated(script: string, env: NodeJS.ProcessEnv): Promise<number> {
  const uid = process.getuid?.() ?? 0
  const gid = process.getgid?.() ?? 0
  return new Promise((resolve) => {
    const child = spawn('sudo', ['-n', '-E', '--', 'env', `PATH=${env.PATH ?? ''}`, `${ELEVATED_ENV}=1`, process.execPath, script], {
      stdio: 'inherit',
      env
    })
    const forward = (sig: NodeJS.Signals): void => {
      child.kill(sig)
    }
    process.on('SIGINT', forward)
    process.on('SIGTERM', forward)
    child.on('close', (code, signal) => {
      process.removeListener('SIGINT', forward)
      process.removeListener('SIGTERM', forward)
      const tempDir = env.RUNNER_TEMP
      const folders = tempDir ? ownFolders(tempDir) : []
      if (folders.length > 0) spawnSync('sudo', ['-n', 'chown', '-R', `${uid}:${gid}`, ...folders], { stdio: 'ignore' })
      resolve(code ?? (signal ? 128 : 1))
    })
    child.on('error', () => resolve(1))
  })
}
