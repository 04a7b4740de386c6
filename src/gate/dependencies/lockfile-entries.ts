import { normalizeName } from '../../ecosystems/pip/lockfile.js'
import type { LockEntry } from '../../ecosystems/types.js'

/*
 * Which files are lockfiles and how each is read are the ecosystems' facts (src/ecosystems/); a
 * lockfile no ecosystem reads entry by entry has null entries: any change to it is refused
 * whatever `dependency-changes` says.
 */
export { isLockfile, lockEntries, LOCKFILE_NAMES } from '../../ecosystems/registry.js'
export { npmRegistryHosts } from '../../ecosystems/npm/lockfile.js'
export type { LockEntry }

/** Entries added or changed from `before` to `after`, and the names of those removed. */
export function changedLockEntries(before: LockEntry[], after: LockEntry[]): { changed: LockEntry[]; removed: string[] } {
  const old = new Map(before.map((e) => [e.key, e.text]))
  const keys = new Set(after.map((e) => e.key))
  return {
    changed: after.filter((e) => old.get(e.key) !== e.text),
    removed: before.filter((e) => !keys.has(e.key)).map((e) => normalizeName(e.name))
  }
}
