import { indexVersions } from '../pip/index-lookup.js'
import { isPrerelease, parsePep440, PEP440 } from '../pip/pep440.js'
import { mapLimited } from '../limited-map.js'
import type { DependencyType, OutdatedDependency, OutdatedReport } from '../types.js'
import { newestAdmitted, type Clause } from './specifiers.js'

const LOOKUP_CONCURRENCY = 4

/** One declared package of a project with a lockfile (Poetry, uv), as its outdated report reads it. */
interface LockedDeclaration {
  name: string
  type: DependencyType
  /** The version the lockfile holds, if it holds one. */
  locked: string | undefined
  /** The declared range (null: one loopgate cannot read, so any version). */
  clauses: readonly Clause[] | null
  /** The requirement as written, for the notes. */
  written: string
}

/**
 * What is outdated among `packages`, from the index `env` points pip at: the lockfile's version
 * (else the newest the range admits) against the newest published, pre-releases only for a
 * package locked at one. Every lookup failing is an error; one failing is a note.
 */
export async function lockedOutdated(packages: readonly LockedDeclaration[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport> {
  const pre = (d: LockedDeclaration): boolean => {
    const v = parsePep440(d.locked ?? '')
    return v !== null && isPrerelease(v)
  }
  const lookups = await mapLimited(packages, LOOKUP_CONCURRENCY, (d) => indexVersions({ name: d.name, pre: pre(d), env, signal }))
  const failed = lookups.flatMap((l) => (l.kind === 'failed' ? [l.message] : []))
  if (failed.length > 0 && failed.length === lookups.length) throw new Error(failed[0])
  const dependencies: OutdatedDependency[] = []
  const notes: string[] = []
  packages.forEach((d, i) => {
    const lookup = lookups[i]
    if (lookup.kind === 'unknown') return void notes.push(`not upgraded: ${d.name}: the package index does not know it`)
    if (lookup.kind === 'failed') return void notes.push(`not upgraded: ${lookup.message}`)
    const current = d.locked ?? newestAdmitted(lookup.versions, d.clauses ?? [], pre(d))
    const latest = newestAdmitted(lookup.versions, [], pre(d))
    if (current === null) return void notes.push(`not upgraded: ${d.name}: no version on the index matches ${JSON.stringify(d.written)}`)
    if (latest !== null && PEP440.compare(latest, current) > 0) dependencies.push({ name: d.name, current, wanted: current, latest, type: d.type })
  })
  return { dependencies, notes }
}
