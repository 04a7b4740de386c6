import { lstatSync, mkdirSync, readdirSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { removeInBackground } from '../../fs/remove-in-background.js'

/**
 * Where the gate's folders go. Test runners look in every folder above the checkout (pytest for its
 * configuration and conftest files, npm for `node_modules/.bin` on a script's PATH), so no folder
 * from the checkout up to `/` may be one a run's user could write: each is a directory owned by
 * root or by the user who started loopgate, with no write bit for group or others. A temp folder
 * under a shared `/tmp` (mode 1777) is not: the gate then goes in loopgate's own folder instead.
 */

/** loopgate's own folder for gate checkouts when the run's temp folder is not safe to judge in. */
export const OWN_GATE_ROOT = '/var/lib/loopgate/gate'

/** The uids whose folders a run's users cannot write: root, loopgate's own, sudo's caller. */
function trustedOwners(env: NodeJS.ProcessEnv): Set<number> {
  const owners = new Set<number>([0])
  const uid = process.getuid?.()
  if (uid !== undefined) owners.add(uid)
  const caller = Number(env.SUDO_UID)
  if (Number.isInteger(caller) && caller >= 0) owners.add(caller)
  return owners
}

/** Why another user could write `dir` (or put something in its place), or null when none could. */
function writableByOthers(dir: string, owners: Set<number>): string | null {
  const st = lstatSync(dir)
  if (!st.isDirectory()) return 'not a folder'
  const mode = (st.mode & 0o7777).toString(8).padStart(4, '0')
  if (st.mode & 0o002) return `every user may write it (mode ${mode})`
  if (st.mode & 0o020 && st.gid !== 0) return `its group ${st.gid} may write it (mode ${mode})`
  if (!owners.has(st.uid)) return `it belongs to user ${st.uid}`
  return null
}

/** The first folder from `dir` up to `/` that a run's user could write, with why; null when none. */
export function unsafeAncestor(dir: string, env: NodeJS.ProcessEnv): { dir: string; why: string } | null {
  const owners = trustedOwners(env)
  for (let d = realpathSync(dir); ; d = path.dirname(d)) {
    const why = writableByOthers(d, owners)
    if (why) return { dir: d, why }
    if (d === path.dirname(d)) return null
  }
}

/** Longer than any run may last (`time-limit-minutes` is at most 7 days): a gate folder this old was left by a killed run. */
const LEFT_BEHIND_MS = 8 * 24 * 60 * 60 * 1000

/** Removes, in the background, the gate folders of runs that were killed before they could remove their own. */
export function sweepLeftBehind(root: string, now = Date.now()): string[] {
  // Another run may remove its own folder meanwhile: one that is gone is passed over.
  const old = readdirSync(root)
    .map((name) => path.join(root, name))
    .filter((entry) => now - (lstatSync(entry, { throwIfNoEntry: false })?.mtimeMs ?? now) > LEFT_BEHIND_MS)
  removeInBackground(old)
  return old
}

/** Makes (or takes) loopgate's own gate root: root's, passable by the gate user, writable by none. */
function ownGateRoot(env: NodeJS.ProcessEnv): string {
  mkdirSync(path.dirname(OWN_GATE_ROOT), { recursive: true, mode: 0o755 })
  try {
    mkdirSync(OWN_GATE_ROOT, { mode: 0o711 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const unsafe = unsafeAncestor(OWN_GATE_ROOT, env)
  if (unsafe) throw new Error(`loopgate cannot judge in ${OWN_GATE_ROOT}: ${unsafe.dir} is unsafe (${unsafe.why}); make it root's and not writable by others`)
  sweepLeftBehind(OWN_GATE_ROOT)
  return OWN_GATE_ROOT
}

/**
 * The folder the gate's folder is made in: `<tempDir>/loopgate-gate` when nothing from the temp
 * folder up is writable by a run's user, else (as root) loopgate's own folder, with a note saying
 * why. Without root there is no other user to keep out, and the temp folder is used as it is.
 */
export function gateRoot(tempDir: string, env: NodeJS.ProcessEnv): { root: string; note?: string } {
  const inTemp = path.join(tempDir, 'loopgate-gate')
  if (process.getuid?.() !== 0) return { root: inTemp }
  const unsafe = unsafeAncestor(tempDir, env)
  if (!unsafe) return { root: inTemp }
  return {
    root: ownGateRoot(env),
    note: `the gate judges in ${OWN_GATE_ROOT}, not under ${tempDir}: ${unsafe.dir} is a folder other users could write (${unsafe.why}), and test runners read configuration and programs from every folder above the checkout`
  }
}
