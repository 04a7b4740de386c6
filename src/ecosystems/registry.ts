import { npm } from './npm/index.js'
import { pip } from './pip/index.js'
import { pnpm } from './pnpm/index.js'
import { poetry } from './poetry/index.js'
import { pyproject } from './pyproject/index.js'
import { uv } from './uv/index.js'
import { yarn } from './yarn/index.js'
import type { Ecosystem, LockEntry, ManifestFacts, ManifestKind, PackageManager } from './types.js'
import { UNMANAGED_LOCKFILES } from './unmanaged.js'

/**
 * Every ecosystem, in the order a workspace is detected as one (package.json first; the managers
 * with a lockfile of their own before npm, so a project of theirs is refused in their words; the
 * same for Python: Poetry and uv before pip's requirements file, pyproject.toml alone last).
 */
export const ECOSYSTEMS: readonly Ecosystem[] = [pnpm, yarn, npm, poetry, uv, pip, pyproject]

const basename = (file: string): string => file.slice(file.lastIndexOf('/') + 1)

/** Lockfile names at any depth: the ecosystems' own and those of ecosystems without a folder. */
export const LOCKFILE_NAMES: readonly string[] = [...ECOSYSTEMS.flatMap((e) => e.lockfiles), ...Object.values(UNMANAGED_LOCKFILES).flat()]

const LOCKFILE_NAME_SET: ReadonlySet<string> = new Set(LOCKFILE_NAMES)
const LOCKFILE_PATTERNS: readonly RegExp[] = ECOSYSTEMS.flatMap((e) => (e.lockfilePattern ? [e.lockfilePattern] : []))

export function isLockfile(file: string): boolean {
  const base = basename(file)
  return LOCKFILE_NAME_SET.has(base) || LOCKFILE_PATTERNS.some((p) => p.test(base))
}

/** The ecosystem whose lockfile `file` is (null for an unmanaged one or not a lockfile). */
function lockfileOwner(file: string): Ecosystem | undefined {
  const base = basename(file)
  return ECOSYSTEMS.find((e) => e.lockfiles.includes(base) || e.lockfilePattern?.test(base) === true)
}

/** The entries of lockfile `file`, or null when no ecosystem reads that kind entry by entry. */
export function lockEntries(file: string, text: string, registryHosts: readonly string[]): LockEntry[] | null {
  return lockfileOwner(file)?.lockEntries(file, text, registryHosts) ?? null
}

const MANIFESTS: readonly ManifestFacts[] = ECOSYSTEMS.flatMap((e) => e.manifests)

// The first ecosystem to name a manifest file says its kind.
const MANIFEST_KINDS: ReadonlyMap<string, ManifestKind> = new Map(MANIFESTS.toReversed().map((m) => [m.file, m.kind]))

export function manifestKind(file: string): ManifestKind | null {
  return MANIFEST_KINDS.get(basename(file)) ?? null
}

/** The keys of a manifest kind a bump or the agent may change, from every ecosystem that owns one. */
export function manifestAllowedKeys(kind: ManifestKind): string[] {
  return [...new Set(MANIFESTS.filter((m) => m.kind === kind).flatMap((m) => m.allowedKeys))]
}

/** Untracked dependency folders at the root, taken from a pristine copy, never from the agent's workspace. */
export const ROOT_DEPENDENCY_DIRS: readonly string[] = [...new Set(ECOSYSTEMS.flatMap((e) => e.dependencyFolders.root))]

/** Folder names that hold installed packages at any depth. */
export const DEPENDENCY_FOLDER_NAMES: readonly string[] = [
  ...new Set(ECOSYSTEMS.flatMap((e) => [...e.dependencyFolders.root, ...e.dependencyFolders.anyDepth]))
]

/** Folders inside a root dependency folder that tools write while they run. */
export const DEPENDENCY_CACHE_DIRS: Record<string, string[]> = Object.fromEntries(
  ECOSYSTEMS.flatMap((e) => Object.entries(e.dependencyFolders.caches).map(([dir, caches]) => [dir, [...caches]]))
)

/** Committed archive folders (`.yarn/cache`), matched at any depth. */
const ARCHIVE_FOLDERS: readonly string[] = [...new Set(ECOSYSTEMS.flatMap((e) => e.dependencyFolders.archives))]

const ROOT_DIRS: ReadonlySet<string> = new Set(ROOT_DEPENDENCY_DIRS)
const ANY_DEPTH_DIRS: ReadonlySet<string> = new Set(ECOSYSTEMS.flatMap((e) => e.dependencyFolders.anyDepth))
/** The archive folders by their first segment. */
const ARCHIVE_PATHS: ReadonlyMap<string, string[]> = ARCHIVE_FOLDERS.reduce((byFirst, a) => {
  const first = a.split('/')[0]
  return byFirst.set(first, [...(byFirst.get(first) ?? []), a])
}, new Map<string, string[]>())

/** Whether `file` is inside a folder of installed packages (one at any depth, or a root one) or of package archives. */
export function inDependencyFolder(file: string): boolean {
  // Called for every path of large trees: one pass over the folders, set lookups.
  let start = 0
  for (let end = file.indexOf('/'); end >= 0; start = end + 1, end = file.indexOf('/', start)) {
    const folder = file.slice(start, end)
    if ((start === 0 && ROOT_DIRS.has(folder)) || ANY_DEPTH_DIRS.has(folder)) return true
    if (ARCHIVE_PATHS.get(folder)?.some((a) => file.startsWith(`${a}/`, start))) return true
  }
  return false
}

/** Whether `file` is inside a root dependency folder (`node_modules/x`, `.venv/x`). */
export function inRootDependencyFolder(file: string): boolean {
  const slash = file.indexOf('/')
  return slash > 0 && ROOT_DEPENDENCY_DIRS.includes(file.slice(0, slash))
}

/** Whether a runner variable is some ecosystem's registry configuration. */
export function isRegistryEnv(name: string): boolean {
  return ECOSYSTEMS.some((e) => e.registryEnv(name))
}

/** The upgrade managers, in detection order. */
export const UPGRADE_MANAGERS: readonly PackageManager[] = ECOSYSTEMS.map((e) => e.upgrade)
