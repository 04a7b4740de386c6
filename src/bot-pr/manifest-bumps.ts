import { isLockfile, manifestKind } from '../ecosystems/registry.js'
import { lockfileChanges, type PackageChange } from '../ecosystems/package-changes.js'
import { changedEntries, manifestDependencies, normalizeName, type DependencyEntry } from '../gate/dependencies/dependency-specs.js'
import type { GitRepository } from '../git/repository.js'
import type { PullCommits } from './pull-head.js'

/** One package the bot moved: its name and its spec or locked version before and after (null: not known, or absent). */
export type BumpedPackage = PackageChange

async function fileAt(repository: GitRepository, commit: string, file: string): Promise<string | null> {
  const shown = await repository.run(['show', `${commit}:${file}`], { okCodes: [128] })
  return shown.exitCode === 0 ? shown.stdout : null
}

/** A PEP 508 requirement's specifier without its name and extras (`lg-mathlib[x]>=2.0` is `>=2.0`); other specs as written. */
function specOf(entry: DependencyEntry): string {
  if (!entry.table.startsWith('project.') && !entry.table.startsWith('dependency-groups') && !entry.table.startsWith('tool.uv')) return entry.spec
  return entry.spec.replace(/^\s*[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\])?\s*/, '').trim() || entry.spec
}

/** The dependency entries a manifest of the bump added, changed or removed (package.json's tables, pyproject.toml's PEP 621, PEP 735 and Poetry ones). */
function manifestChanges(file: string, before: string | null, after: string | null): BumpedPackage[] {
  const kind = manifestKind(file)
  if (!kind) return []
  const old = manifestDependencies(kind, before) ?? []
  const now = manifestDependencies(kind, after) ?? []
  const specBefore = new Map(old.map((e) => [`${e.table}\0${e.name}`, specOf(e)]))
  return changedEntries(old, now).map(({ entry }) => ({
    name: entry.name,
    from: specBefore.get(`${entry.table}\0${entry.name}`) ?? null,
    to: entry.spec === '' ? null : specOf(entry)
  }))
}

/** One entry per package (by its normalized name): the first list's versions first, the later ones filling in what it lacks. */
export function mergedPackages(lists: BumpedPackage[][]): BumpedPackage[] {
  const byName = new Map<string, BumpedPackage>()
  for (const p of lists.flat()) {
    const key = normalizeName(p.name)
    const known = byName.get(key)
    byName.set(key, known ? { name: known.name, from: known.from ?? p.from, to: known.to ?? p.to } : p)
  }
  return [...byName.values()]
}

/**
 * The packages the bump moved, read from the diff of every ecosystem's dependency files against
 * the base: the manifests' dependency entries (package.json, pyproject.toml); when the manifests
 * move none (a requirements pin, a lockfile-only bump of a transitive dependency), the entries of
 * the lockfiles, requirements files among them, as their ecosystem reads them.
 */
export async function manifestBumps(repository: GitRepository, commits: PullCommits, files: readonly string[]): Promise<BumpedPackage[]> {
  const texts = await Promise.all(
    files.map(async (file) => ({ file, before: await fileAt(repository, commits.baseCommit, file), after: await fileAt(repository, commits.headCommit, file) }))
  )
  const fromManifests = mergedPackages(texts.map((t) => manifestChanges(t.file, t.before, t.after)))
  if (fromManifests.length > 0) return fromManifests
  return mergedPackages(texts.filter((t) => isLockfile(t.file)).map((t) => lockfileChanges(t.file, t.before, t.after) ?? []))
}
