import { ECOSYSTEMS } from '../../ecosystems/registry.js'
import { changedEntries, manifestDependencies, normalizeName } from './dependency-specs.js'
import { changedLockEntries, lockEntries } from './lockfile-entries.js'
import type { ManifestKind } from './manifest-keys.js'
import type { BumpDescription } from './bump-guard.js'
import type { DependencyChanges } from '../../settings.js'

/**
 * What the agent may change of a dependency file: nothing (`refuse`), or registry versions only
 * (`registry`), and in either case never a package the judge itself loads (`runner`) nor the
 * package of loopgate's own bump (`pinned`).
 */
export interface DependencyPolicy {
  mode: DependencyChanges
  /** The test runner, its plugins, the assertion libraries: what the gate command, its configuration or the protected tests name. */
  isRunner(name: string): boolean
  /** Packages whose entries are loopgate's own (its bump in a dependency-upgrade run). */
  pinned: readonly string[]
  /** The bump the agent fixes forward: its packages' entries are judged by the bump guard (see bump-guard.ts), not here. */
  bump?: BumpDescription
  /** npm registry URL prefixes (see npmRegistryHosts). */
  registryHosts: readonly string[]
}

/** The lockfiles some ecosystem reads entry by entry, for the message. */
const ENTRY_BY_ENTRY = [...ECOSYSTEMS.flatMap((e) => e.lockfiles), ...(ECOSYSTEMS.some((e) => e.lockfilePattern) ? ['requirements files'] : [])]
  .join(', ')
  .replace(/, ([^,]*)$/, ' and $1')
const ALLOW = 'set `dependency-changes: registry` to let the agent change versions from the registry'
const REGISTRY_ONLY = '`dependency-changes: registry` allows name@version from the registry only'

/** One changed entry: its package, the change in words, whether its new spec is a registry version (and why not). */
interface EntryChange {
  name: string
  /** The lockfile entry's key, for a lockfile change. */
  key?: string
  what: string
  registry: boolean
  why?: string
}

function judge(policy: DependencyPolicy, change: EntryChange): string | null {
  const { name, what, registry, why } = change
  const n = normalizeName(name)
  // The bump guard judges the bump's own entries (see bump-guard.ts).
  if (policy.bump && (policy.bump.packages.includes(n) || policy.bump.lockEntries.some((e) => e.key === change.key))) return null
  if (policy.pinned.some((p) => normalizeName(p) === n)) return `${what}: ${name} is loopgate's own bump in this run and is fixed: fix the code forward`
  if (policy.mode === 'refuse') return `${what}: dependency changes are refused (${ALLOW})`
  if (policy.isRunner(name))
    return `${what}: ${name} is loaded by the gate itself (its runner, a plugin or an assertion library the gate command, its configuration or the protected tests name) and keeps the base's version`
  if (!registry) return `${what}: not a registry version${why ? ` (${why})` : ''}; ${REGISTRY_ONLY}`
  return null
}

/** A dependency file's text before and after the agent's change (null: absent). */
export interface FileChange {
  before: string | null
  after: string | null
}

/** Refusals of a manifest's dependency entries changed from `before` to `after`. */
export function manifestRefusals(kind: ManifestKind, change: FileChange, policy: DependencyPolicy): string[] {
  const { before, after } = change
  const old = manifestDependencies(kind, before) ?? []
  const now = manifestDependencies(kind, after)
  if (now === null) return [] // a manifest that does not parse is the protected-paths check's
  return changedEntries(old, now).flatMap(({ entry, was }) => {
    const what =
      entry.spec === ''
        ? `${entry.table}.${entry.name} removed`
        : `${entry.table}.${entry.name} ${was === null ? 'added' : `changed from ${was}`} to ${entry.spec}`
    // Removing a package the gate does not load is no way to bring in other code.
    const registry = entry.spec === '' || entry.registry
    if (entry.spec === '' && policy.mode === 'registry' && !policy.isRunner(entry.name) && !policy.pinned.includes(entry.name)) return []
    return [judge(policy, { name: entry.name, what: what.slice(0, 300), registry })].filter((r): r is string => r !== null)
  })
}

/** Refusals of a lockfile changed from `before` to `after`. */
export function lockfileRefusals(file: string, change: FileChange, policy: DependencyPolicy): string[] {
  const { before, after } = change
  if (before === after) return []
  const old = before === null ? [] : lockEntries(file, before, policy.registryHosts)
  const now = after === null ? [] : lockEntries(file, after, policy.registryHosts)
  if (old === null || now === null) {
    const how = policy.mode === 'refuse' ? ALLOW : `loopgate reads ${ENTRY_BY_ENTRY} entry by entry, not this one`
    return [`${after === null ? 'deleted' : 'changed'}: dependency changes to this lockfile are refused (${how})`]
  }
  const { changed, removed } = changedLockEntries(old, now)
  const out: string[] = []
  for (const e of changed) {
    // The root entry and the entries that mirror a manifest: the manifest's own entries are judged.
    if (e.key === '' || e.mirror === true) {
      if (policy.mode === 'refuse') out.push(`${e.key === '' ? 'the root entry' : e.key} changed: dependency changes are refused (${ALLOW})`)
      continue
    }
    const what = `${e.key} ${old.some((o) => o.key === e.key) ? 'changed' : 'added'}`
    const r = judge(policy, { name: e.name, key: e.key, what, registry: e.registry, why: e.why })
    if (r) out.push(r)
  }
  for (const name of removed) {
    if (policy.mode === 'registry' && !policy.isRunner(name) && !policy.pinned.includes(name)) continue
    const r = judge(policy, { name, what: `${name} removed`, registry: true })
    if (r) out.push(r)
  }
  return out
}

/** Packages named by the judge's own inputs: the runners and their plugins, and assertion libraries. */
const KNOWN_RUNNERS =
  /^(?:jest|jest-.*|@jest\/.*|babel-jest|ts-jest|vitest|@vitest\/.*|vite|mocha|mocha-.*|chai|chai-.*|sinon|ava|tap|tape|uvu|jasmine.*|karma.*|@playwright\/.*|playwright|cypress|ts-node|tsx|c8|nyc|expect|@testing-library\/.*|node-tap|pytest|pytest-.*|pytest_.*|pluggy|coverage|nose2?|tox|nox|hypothesis|unittest2)$/

/**
 * The runner test of a policy: the known runners, plugins and assertion libraries, and every
 * dependency of the reference whose name appears as a word in the gate command or setup or in a
 * protected file (the runner's configuration, the package scripts, the protected tests).
 */
export function runnerTest(dependencyNames: Iterable<string>, texts: Iterable<string>): (name: string) => boolean {
  const words = new Set<string>()
  for (const text of texts) {
    for (const m of text.matchAll(/@?[A-Za-z0-9_][\w.-]*(?:\/[\w.-]+)?/g)) {
      words.add(m[0])
      words.add(m[0].split('/')[0])
      words.add(normalizeName(m[0].split('/')[0]))
    }
  }
  const named = new Set([...dependencyNames].filter((n) => words.has(n) || words.has(normalizeName(n))))
  return (name) => KNOWN_RUNNERS.test(name) || KNOWN_RUNNERS.test(normalizeName(name)) || named.has(name) || named.has(normalizeName(name))
}
