import { spawnSync } from 'node:child_process'
import path from 'node:path'

/**
 * An agent command that hangs in `sleep`, named by a marker of its own: its pid inside the call's
 * PID namespace means nothing outside, so the tests find it by its command line.
 */
export function hangingSleep(dir: string): { exec: string; marker: string } {
  const marker = `loopgate-hang-${path.basename(dir)}`
  return { exec: `exec -a ${marker} sleep 60`, marker }
}

/** Whether a process started with `marker` as its name still runs. */
export function markedAlive(marker: string): boolean {
  return spawnSync('pgrep', ['-f', `^${marker}`]).status === 0
}

/** Kills every process started with `marker` as its name. */
export function killMarked(marker: string): void {
  spawnSync('pkill', ['-9', '-f', `^${marker}`])
}
