import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { systemProgram } from '../process/system-program.js'

/** A copy-on-write layer over `target`: its writes land in `upper` (with overlayfs's `work` beside it). */
export interface OverlayMount {
  target: string
  upper: string
  work: string
}

/** A process start: the program and its arguments. */
export interface ProcessStart {
  command: string
  args: string[]
}

/**
 * In a mount namespace of its own, the overlay is mounted over `target` itself (so the process sees
 * the checkout at its usual path), the process enters it, and then runs `script` under bash: as
 * `user` when given, its privileges dropped after the mount. Nothing mounted there is seen outside
 * that process and its children; the mount ends with the last of them.
 */
export function inMountNamespace(script: string, mount: OverlayMount, user?: { uid: number; gid: number }): ProcessStart {
  const options = `lowerdir=${mount.target},upperdir=${mount.upper},workdir=${mount.work},metacopy=on,volatile`
  const [unshare, mountBin, setpriv] = ['unshare', 'mount', 'setpriv'].map((name) => systemProgram(name) ?? `/usr/bin/${name}`)
  const drop = user ? `exec ${setpriv} --reuid=${user.uid} --regid=${user.gid} --clear-groups -- ` : 'exec '
  const inner = `${mountBin} -t overlay loopgate-gate -o "$1" "$2" && cd "$2" && ${drop}/bin/bash -c "$3"`
  return { command: unshare, args: ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', inner, 'sh', options, mount.target, script] }
}

let probed: string | null | undefined

/**
 * Whether this machine mounts an overlay in a private mount namespace (root, `unshare`, overlayfs
 * with metacopy): null when it does, else why not. Tried once per process, in `scratch`.
 */
export function overlayUnavailable(scratch: string): string | null {
  if (probed !== undefined) return probed
  if (process.getuid?.() !== 0) return (probed = 'loopgate does not run as root')
  mkdirSync(scratch, { recursive: true, mode: 0o700 })
  const dir = mkdtempSync(path.join(scratch, 'overlay-probe-'))
  try {
    const mount = { target: path.join(dir, 'lower'), upper: path.join(dir, 'upper'), work: path.join(dir, 'work') }
    for (const d of Object.values(mount)) mkdirSync(d)
    const start = inMountNamespace('echo probe > written', mount)
    const r = spawnSync(start.command, start.args, { encoding: 'utf8', timeout: 10_000 })
    probed =
      r.status === 0
        ? null
        : `an overlay mount in a private mount namespace failed (${(r.error?.message ?? r.stderr).trim().split('\n')[0] || `exit ${r.status}`})`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return probed
}
