import { writeTreeFile } from '../../fs/tree.js'
import { indexVersions, type Lookup } from '../pip/index-lookup.js'
import { indexReleaseNotes } from '../pip/manager.js'
import { PEP440 } from '../pip/pep440.js'
import { mapLimited } from '../limited-map.js'
import type { BumpResult, CandidateInWorkspace, OutdatedDependency, OutdatedReport, PackageManager } from '../types.js'
import { applyEdits, declarations, fileHash, PYPROJECT, readPyproject, wideningEdits, type Declaration } from './document.js'
import { admits, exactPin, newestAdmitted, wantsPrerelease } from './specifiers.js'

const LOOKUP_CONCURRENCY = 4

/** The outdated entry of one package from its declarations and the versions the index has; a note when it is left out. */
function outdatedOf(decls: readonly Declaration[], versions: readonly string[]): OutdatedDependency | string | null {
  const first = decls[0]
  const pre = decls.some((d) => wantsPrerelease(d.requirement.clauses ?? []))
  const latest = newestAdmitted(versions, [], pre)
  if (latest === null) return null
  if (decls.every((d) => admits(d.requirement.clauses ?? [], latest))) return null
  const clauses = first.requirement.clauses ?? []
  const current = exactPin(clauses) ?? newestAdmitted(versions, clauses, pre)
  if (current === null) return `${first.requirement.name}: no version on the index matches ${JSON.stringify(first.text)}`
  if (PEP440.compare(latest, current) <= 0) return null
  return { name: first.requirement.name, current, wanted: current, latest, type: first.type }
}

/** Requirements by package, those with a version specifier only (URLs and bare names have nothing to bump). */
function byPackage(decls: readonly Declaration[]): Map<string, Declaration[]> {
  const out = new Map<string, Declaration[]>()
  for (const d of decls) {
    if (d.requirement.clauses === null || d.requirement.clauses.length === 0) continue
    out.set(d.requirement.key, [...(out.get(d.requirement.key) ?? []), d])
  }
  return out
}

/**
 * A PEP 621 / PEP 735 project installed with pip (no requirements file, no lockfile): the
 * requirements of `[project] dependencies`, `[project.optional-dependencies]` and
 * `[dependency-groups]`, versions from the index pip is configured with. An exact pin is bumped in
 * place, a range that admits the new version is not outdated, one that does not is widened.
 */
export class PyprojectPackageManager implements PackageManager {
  readonly name = 'pip'
  readonly bumpFiles = [PYPROJECT]
  readonly versions = PEP440

  detect(workspace: string): boolean {
    const file = readPyproject(workspace)
    return file !== null && byPackage(declarations(file.doc)).size > 0
  }

  lockfileHash(workspace: string): string {
    return fileHash(workspace, PYPROJECT)
  }

  async outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport> {
    const file = readPyproject(workspace)
    if (!file) throw new Error(`${PYPROJECT} is not a regular file that parses`)
    const packages = [...byPackage(declarations(file.doc)).values()]
    const lookups = await mapLimited(packages, LOOKUP_CONCURRENCY, (decls) =>
      indexVersions({ name: decls[0].requirement.name, pre: decls.some((d) => wantsPrerelease(d.requirement.clauses ?? [])), env, signal })
    )
    return outdatedReport(packages, lookups)
  }

  async bump({ workspace, candidate }: Pick<CandidateInWorkspace, 'workspace' | 'candidate'>): Promise<BumpResult> {
    const file = readPyproject(workspace)
    if (!file) return { ok: false, message: `${PYPROJECT} is not a regular file that parses; it is not rewritten` }
    const decls = declarations(file.doc)
    const edits = wideningEdits(decls, decls.find((d) => d.requirement.name === candidate.name)?.requirement.key ?? '', candidate.to)
    if (typeof edits === 'string') return { ok: false, message: edits }
    if (edits.length === 0) return { ok: false, message: `every requirement of ${candidate.name} in ${PYPROJECT} admits ${candidate.to} already` }
    const text = applyEdits(file.text, file.doc, edits)
    if (text === null) return { ok: false, message: `${PYPROJECT}: the requirements of ${candidate.name} cannot be rewritten in place` }
    writeTreeFile({ root: workspace, rel: PYPROJECT, data: Buffer.from(text, 'utf8'), executable: file.executable })
    return { ok: true }
  }

  installedCopy(): null {
    return null
  }

  releaseNotes(job: CandidateInWorkspace): Promise<string[]> {
    return indexReleaseNotes(job)
  }
}

/** The report of every package's lookup: pip or the index unusable for all of them is the run's failure. */
function outdatedReport(packages: readonly Declaration[][], lookups: readonly Lookup[]): OutdatedReport {
  const failed = lookups.filter((l): l is Extract<Lookup, { kind: 'failed' }> => l.kind === 'failed')
  if (failed.length > 0 && failed.length === lookups.length) throw new Error(failed[0].message)
  const dependencies: OutdatedDependency[] = []
  const notes: string[] = []
  packages.forEach((decls, i) => {
    const lookup = lookups[i]
    const name = decls[0].requirement.name
    if (lookup.kind === 'unknown') return void notes.push(`not upgraded: ${name}: the package index does not know it`)
    if (lookup.kind === 'failed') return void notes.push(`not upgraded: ${lookup.message}`)
    const found = outdatedOf(decls, lookup.versions)
    if (typeof found === 'string') notes.push(`not upgraded: ${found}`)
    else if (found) dependencies.push(found)
  })
  return { dependencies, notes }
}
