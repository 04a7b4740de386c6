import { execFile, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { systemProgram } from '../process/system-program.js'

/**
 * A copy-on-write layer mounted at `target`: its writes land in `upper` (with overlayfs's `work`
 * beside it); what it shows below them is `lower` (the target's own content when not given).
 */
export interface OverlayMount {
  target: string
  upper: string
  work: string
  lower?: string
  /**
   * The target is in a folder the gate user owns (its HOME): mounted only where the path resolves
   * to itself, so a folder on the way that the user swapped for a symlink (to /usr/bin, say) never
   * gets a mount that root's later commands would run from.
   */
  canonical?: boolean
}

/** A process start: the program and its arguments. */
export interface ProcessStart {
  command: string
  args: string[]
}

/**
 * In a mount namespace of its own, the overlay is mounted over `target` itself (so the process sees
 * the checkout at its usual path), then each mount after it in `mounts` (a package cache in the gate's HOME, say), the
 * process enters the checkout, and then runs `script` under bash: as `user` when given, its
 * privileges dropped after the mounts. Nothing mounted there is seen outside that process and its
 * children; the mounts end with the last of them.
 */
export function inMountNamespace(script: string, mounts: OverlayMount | readonly OverlayMount[], user?: { uid: number; gid: number }): ProcessStart {
  const all = Array.isArray(mounts) ? mounts : [mounts as OverlayMount]
  return withMounts(script, { mounts: all, cwd: all[0].target }, user)
}

/** `script` in `cwd` (as `user`), in a mount namespace of its own with `mounts` mounted in order. */
export function withMounts(script: string, where: { mounts: readonly OverlayMount[]; cwd: string }, user?: { uid: number; gid: number }): ProcessStart {
  const [unshare, mountBin, setpriv] = ['unshare', 'mount', 'setpriv'].map((name) => systemProgram(name) ?? `/usr/bin/${name}`)
  const drop = user ? `exec ${setpriv} --reuid=${user.uid} --regid=${user.gid} --clear-groups -- ` : 'exec '
  const triples = where.mounts.flatMap((m) => [
    `lowerdir=${m.lower ?? m.target},upperdir=${m.upper},workdir=${m.work},metacopy=on,volatile`,
    m.target,
    m.canonical ? 'canonical' : 'as-is'
  ])
  const realpath = systemProgram('realpath') ?? '/usr/bin/realpath'
  const check = `if [ "$3" = canonical ] && [ "$(${realpath} -e -- "$2")" != "$2" ]; then echo "loopgate: $2 is not where it was made" >&2; exit 125; fi`
  const inner = `s="$1"; c="$2"; shift 2; while [ $# -gt 2 ]; do ${check}; ${mountBin} -t overlay loopgate-gate -o "$1" "$2" || exit 125; shift 3; done; cd "$c" && ${drop}/bin/bash -c "$s"`
  return { command: unshare, args: ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', inner, 'sh', script, where.cwd, ...triples] }
}

/**
 * `script` in a mount namespace of its own, as `user`: the overlay `layer` over its target, but
 * each of `folders` (names in that target) written in place, through a bind mount of the target's
 * own folder taken before the overlay hid it (stashed at `stash/<i>`), then `mounts` (the package
 * caches). gate-setup's kept install writes its dependency folders so, and whatever else it writes
 * in the tree lands in `layer`'s upper folder.
 */
export function withFoldersInPlace(
  script: string,
  where: { layer: OverlayMount; folders: readonly string[]; stash: string; mounts: readonly OverlayMount[] },
  user?: { uid: number; gid: number }
): ProcessStart {
  const [unshare, mountBin, setpriv, realpath] = ['unshare', 'mount', 'setpriv', 'realpath'].map((name) => systemProgram(name) ?? `/usr/bin/${name}`)
  const q = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`
  const { layer } = where
  const stashed = where.folders.map((name, i) => ({ inTree: path.join(layer.target, name), stash: path.join(where.stash, String(i)) }))
  const overlay = (m: OverlayMount): string =>
    `${mountBin} -t overlay loopgate-gate -o ${q(`lowerdir=${m.lower ?? m.target},upperdir=${m.upper},workdir=${m.work},metacopy=on,volatile`)} ${q(m.target)} || exit 125`
  const lines = [
    ...stashed.map(
      (f) =>
        `if [ -d ${q(f.inTree)} ] && [ ! -L ${q(f.inTree)} ]; then ${mountBin} --bind ${q(f.inTree)} ${q(f.stash)} || exit 125; else rmdir ${q(f.stash)}; fi`
    ),
    overlay(layer),
    ...stashed.map((f) => `if [ -d ${q(f.stash)} ]; then ${mountBin} --bind ${q(f.stash)} ${q(f.inTree)} || exit 125; fi`),
    ...where.mounts.map((m) =>
      [
        m.canonical
          ? `if [ "$(${realpath} -e -- ${q(m.target)})" != ${q(m.target)} ]; then echo "loopgate: ${m.target} is not where it was made" >&2; exit 125; fi`
          : 'true',
        overlay(m)
      ].join('; ')
    ),
    `cd ${q(layer.target)} && ${user ? `exec ${setpriv} --reuid=${user.uid} --regid=${user.gid} --clear-groups -- ` : 'exec '}/bin/bash -c "$1"`
  ]
  for (const f of stashed) mkdirSync(f.stash, { recursive: true, mode: 0o700 })
  return { command: unshare, args: ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', lines.join('\n'), 'sh', script] }
}

let probed: string | null | undefined
let probing: Promise<string | null> | undefined

/** The probe's mount: an overlay over an empty folder of `scratch`, written through once. */
function probeMount(scratch: string): { dir: string; start: ProcessStart } {
  mkdirSync(scratch, { recursive: true, mode: 0o700 })
  const dir = mkdtempSync(path.join(scratch, 'overlay-probe-'))
  const mount = { target: path.join(dir, 'lower'), upper: path.join(dir, 'upper'), work: path.join(dir, 'work') }
  for (const d of Object.values(mount)) mkdirSync(d)
  return { dir, start: inMountNamespace('echo probe > written', mount) }
}

function probeAnswer(status: number | null, why: string): string | null {
  return status === 0 ? null : `an overlay mount in a private mount namespace failed (${why.trim().split('\n')[0] || `exit ${status}`})`
}

/**
 * Whether this machine mounts an overlay in a private mount namespace (root, `unshare`, overlayfs
 * with metacopy): null when it does, else why not. Tried once per process, in `scratch`.
 */
export function overlayUnavailable(scratch: string): string | null {
  if (probed !== undefined) return probed
  if (process.getuid?.() !== 0) return (probed = 'loopgate does not run as root')
  const { dir, start } = probeMount(scratch)
  try {
    const r = spawnSync(start.command, start.args, { encoding: 'utf8', timeout: 10_000 })
    probed = probeAnswer(r.status, r.error?.message ?? r.stderr)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return probed
}

/** One probe in `scratch` (made when missing), without blocking the process and not remembered: null when the overlay mounts. */
export function probeOverlayIn(scratch: string): Promise<string | null> {
  return new Promise((resolve) => {
    let made: ReturnType<typeof probeMount>
    try {
      made = probeMount(scratch)
    } catch (err) {
      resolve(probeAnswer(null, (err as Error).message))
      return
    }
    execFile(made.start.command, made.start.args, { encoding: 'utf8', timeout: 10_000 }, (err, _stdout, stderr) => {
      rmSync(made.dir, { recursive: true, force: true })
      const status = err ? (typeof err.code === 'number' ? err.code : null) : 0
      resolve(probeAnswer(status, err && !stderr ? err.message : stderr))
    })
  })
}

/**
 * overlayUnavailable without blocking the process: begun at the start of the gate's set-up (a new
 * mount namespace takes a few hundred milliseconds on a busy machine), so the answer is there when
 * the gate is made; overlayUnavailable then returns it at once.
 */
export function probeOverlay(scratch: string): Promise<string | null> {
  if (probed !== undefined) return Promise.resolve(probed)
  if (process.getuid?.() !== 0) return Promise.resolve(overlayUnavailable(scratch))
  probing ??= probeOverlayIn(scratch).then((why) => (probed ??= why))
  return probing
}
