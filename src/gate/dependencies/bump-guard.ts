import type { GitRepository } from '../../git/repository.js'
import { listTree, readBlobs } from '../baseline/snapshot.js'
import { changedEntries, manifestDependencies, normalizeName } from './dependency-specs.js'
import { changedLockEntries, isLockfile, lockEntries, type LockEntry } from './lockfile-entries.js'
import { manifestKind } from './manifest-keys.js'

/**
 * A dependency bump the agent must fix forward, never undo: loopgate's own bump commit in a
 * dependency-upgrade run, or a bot's bump commit on a pull request. The bumped packages' manifest
 * entries and lockfile entries stay byte-identical to what the bump commit left; so do the other
 * lockfile entries the bump moved with them (the new version's own dependencies).
 *
 * Build one with `describeBump` from the bump commit and the commit before it; judge a candidate
 * tree with `bumpViolations`.
 */
export interface BumpDescription {
  /** The bumped packages (normalized names): those whose manifest entries the bump changed, and the named one. */
  packages: string[]
  /** How the message names the bump: `loopgate's own bump to 2.0.0 in this run`, `the pull request's bump`. */
  label: string
  /** Every manifest entry of a bumped package in the bump commit's tree (`spec` null: the bump removed it). */
  manifestEntries: { file: string; table: string; name: string; spec: string | null }[]
  /** Every lockfile entry of a bumped package, and every other entry the bump added, changed or (`text` null) removed. */
  lockEntries: { file: string; key: string; name: string; text: string | null }[]
}

/** How a candidate's dependency file differs from the bump: the file, and what changed and why that is refused, in words for the agent. */
interface BumpViolation {
  file: string
  change: string
}

/** The candidate tree to judge: the dependency files to look at beyond the bump's, and how to read one (null: absent). */
interface CandidateTree {
  paths: Iterable<string>
  read(file: string): string | null
}

/** What the builder needs beyond the two commits: the package the bump is of (else read from the diff) and the message's label. */
export interface BumpOrigin {
  package?: string
  label?: string
}

const isDependencyFile = (file: string): boolean => isLockfile(file) || manifestKind(file) !== null
/** The root entry and the other entries that mirror a manifest: the manifest's entries hold the bump. */
const mirrors = (e: LockEntry): boolean => e.key === '' || e.mirror === true

/** The dependency files of a commit's tree, by path. */
async function dependencyFiles(repository: GitRepository, commit: string): Promise<Map<string, string>> {
  const tree = await listTree(repository, commit)
  const wanted = [...tree].filter(([file]) => isDependencyFile(file))
  const blobs = await readBlobs(repository, [...new Set(wanted.map(([, { oid }]) => oid))])
  return new Map(wanted.map(([file, { oid }]) => [file, blobs.get(oid)?.toString('utf8') ?? '']))
}

const lockOf = (file: string, text: string | undefined) => (text === undefined ? [] : (lockEntries(file, text, []) ?? []))
const manifestOf = (file: string, text: string | undefined) => {
  const kind = manifestKind(file)
  return kind && text !== undefined ? (manifestDependencies(kind, text) ?? []) : []
}

/**
 * The bump that commit `commits.bump` made over `commits.before` (usually its parent) in the
 * `repository`: the packages whose manifest entries it changed (with `origin.package`;
 * for a bump of lockfile or requirements pins only, the packages whose entries it changed), their
 * entries in every manifest and lockfile of the bump's tree, and the other lockfile entries it
 * moved.
 */
export async function describeBump(repository: GitRepository, commits: { before: string; bump: string }, origin: BumpOrigin = {}): Promise<BumpDescription> {
  const changed = (await repository.diffNames({ from: commits.before, to: commits.bump })).filter(isDependencyFile)
  const [before, after] = await Promise.all([dependencyFiles(repository, commits.before), dependencyFiles(repository, commits.bump)])
  const packages = new Set(origin.package ? [normalizeName(origin.package)] : [])
  for (const file of changed) {
    for (const { entry } of changedEntries(manifestOf(file, before.get(file)), manifestOf(file, after.get(file)))) packages.add(normalizeName(entry.name))
  }
  // A bump of a requirements file, or a lockfile-only bump: the entries it changed are the packages.
  if (packages.size === 0)
    for (const file of changed)
      for (const e of changedLockEntries(lockOf(file, before.get(file)), lockOf(file, after.get(file))).changed)
        if (!mirrors(e)) packages.add(normalizeName(e.name))
  const ours = (name: string): boolean => packages.has(normalizeName(name))
  const description: BumpDescription = {
    packages: [...packages],
    label: origin.label ?? `the bump of commit ${commits.bump.slice(0, 12)}`,
    manifestEntries: [],
    lockEntries: []
  }
  for (const [file, text] of after) {
    for (const e of manifestOf(file, text)) if (ours(e.name)) description.manifestEntries.push({ file, table: e.table, name: e.name, spec: e.spec })
    for (const e of lockOf(file, text)) if (ours(e.name) && !mirrors(e)) description.lockEntries.push({ file, key: e.key, name: e.name, text: e.text })
  }
  for (const file of changed) {
    const old = manifestOf(file, before.get(file))
    const now = manifestOf(file, after.get(file))
    for (const e of old)
      if (ours(e.name) && !now.some((n) => n.table === e.table && n.name === e.name))
        description.manifestEntries.push({ file, table: e.table, name: e.name, spec: null })
    const lockBefore = lockOf(file, before.get(file))
    const lockAfter = lockOf(file, after.get(file))
    const { changed: moved } = changedLockEntries(lockBefore, lockAfter)
    const keys = new Set(lockAfter.map((e) => e.key))
    for (const e of moved) if (!ours(e.name) && !mirrors(e)) description.lockEntries.push({ file, key: e.key, name: e.name, text: e.text })
    for (const e of lockBefore) if (!keys.has(e.key) && !mirrors(e)) description.lockEntries.push({ file, key: e.key, name: e.name, text: null })
  }
  return description
}

/**
 * How `tree` differs from `bump`: a described entry changed, removed or (removed by the bump)
 * back, or a new entry of a bumped package in any dependency file. Empty: the bump is intact.
 */
export function bumpViolations(bump: BumpDescription, tree: CandidateTree): BumpViolation[] {
  const files = new Set([...bump.manifestEntries.map((e) => e.file), ...bump.lockEntries.map((e) => e.file), ...tree.paths])
  const out: BumpViolation[] = []
  for (const file of [...files].filter(isDependencyFile).sort()) {
    const text = tree.read(file)
    const changes = manifestKind(file) ? manifestChanges(bump, file, text) : lockChanges(bump, file, text)
    const more = changes.length > 5 ? `; and ${changes.length - 5} more` : ''
    if (changes.length) out.push({ file, change: `${changes.slice(0, 5).join('; ')}${more}: ${fixedSentence(bump)}` })
  }
  return out
}

/** Why a change to the bump is refused, and what to do instead. */
function fixedSentence(bump: BumpDescription): string {
  const names = bump.packages.join(', ')
  return `${names} ${bump.packages.length > 1 ? 'are' : 'is'} ${bump.label} and is fixed: fix the code forward (change the code that uses it; the bump's manifest and lockfile entries stay as its commit left them)`
}

function manifestChanges(bump: BumpDescription, file: string, text: string | null): string[] {
  const kind = manifestKind(file)
  const now = kind ? manifestDependencies(kind, text) : []
  if (now === null) return ['does not parse']
  const ours = bump.packages
  const wanted = bump.manifestEntries.filter((e) => e.file === file)
  const out: string[] = []
  for (const e of wanted) {
    const found = now.filter((n) => n.table === e.table && n.name === e.name)
    if (e.spec === null && found.length) out.push(`${e.table}.${e.name} is back (the bump removed it)`)
    else if (e.spec !== null && !found.some((n) => n.spec === e.spec))
      out.push(found.length ? `${e.table}.${e.name} changed from ${e.spec} to ${found[0].spec}` : `${e.table}.${e.name} removed (the bump left ${e.spec})`)
  }
  for (const n of now) {
    if (ours.includes(normalizeName(n.name)) && !wanted.some((e) => e.table === n.table && e.name === n.name))
      out.push(`${n.table}.${n.name} added as ${n.spec}`)
  }
  return out.map((s) => s.slice(0, 300))
}

function lockChanges(bump: BumpDescription, file: string, text: string | null): string[] {
  const now = text === null ? [] : lockEntries(file, text, [])
  const wanted = bump.lockEntries.filter((e) => e.file === file)
  if (now === null) return wanted.length ? ['not readable entry by entry'] : []
  const byKey = new Map(now.map((e) => [e.key, e]))
  const out: string[] = []
  for (const e of wanted) {
    const found = byKey.get(e.key)
    if (e.text === null && found) out.push(`${e.key} is back (the bump removed it)`)
    else if (e.text !== null && !found) out.push(`${e.key} removed`)
    else if (e.text !== null && found && found.text !== e.text) out.push(`${e.key} changed`)
  }
  for (const n of now) {
    if (bump.packages.includes(normalizeName(n.name)) && !mirrors(n) && !wanted.some((e) => e.key === n.key)) out.push(`${n.key} added`)
  }
  return out
}
