import { normalizeName } from './pip/lockfile.js'
import { lockEntries } from './registry.js'
import type { LockEntry } from './types.js'

/** One package a change of dependency files moved: its name and what it was and is (null: absent). */
export interface PackageChange {
  name: string
  from: string | null
  to: string | null
}

/** An npm or Python package name: not a lockfile's own field (`(metadata)`) nor an option line. */
const PACKAGE_NAME = /^(?:@[\w.-]+\/)?[\w.-]+$/

/** One package's entry: not the root, not a mirror of a manifest, not a lockfile's own field. */
const isPackageEntry = (e: LockEntry): boolean => e.key !== '' && e.mirror !== true && PACKAGE_NAME.test(e.name)

/** What a lockfile holds of each package, by normalized name: its versions (an entry without one: its text). */
function held(file: string, text: string | null): Map<string, { name: string; versions: Set<string> }> | null {
  const entries = text === null ? [] : lockEntries(file, text, [])
  if (entries === null) return null
  const out = new Map<string, { name: string; versions: Set<string> }>()
  for (const e of entries.filter(isPackageEntry)) {
    const key = normalizeName(e.name)
    const found = out.get(key) ?? { name: e.name, versions: new Set<string>() }
    found.versions.add(e.version ?? e.text)
    out.set(key, found)
  }
  return out
}

const listed = (versions: Set<string> | undefined): string | null => (versions && versions.size > 0 ? [...versions].sort().join(', ') : null)

/**
 * The packages whose locked versions lockfile `file` (a requirements file's pins among them) moved
 * from `before` to `after`, each ecosystem reading its own entries; null when no ecosystem reads
 * the file entry by entry.
 */
export function lockfileChanges(file: string, before: string | null, after: string | null): PackageChange[] | null {
  const old = held(file, before)
  const now = held(file, after)
  if (old === null || now === null) return null
  const out: PackageChange[] = []
  for (const key of new Set([...old.keys(), ...now.keys()])) {
    const from = listed(old.get(key)?.versions)
    const to = listed(now.get(key)?.versions)
    if (from !== to) out.push({ name: (now.get(key) ?? old.get(key))!.name, from, to })
  }
  return out
}
