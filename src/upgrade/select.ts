import type { UpgradeAttempt } from '../state/schema.js'
import { ignoredBy, type IgnoreRule } from './ignore.js'
import type { OutdatedDependency, UpgradeCandidate, VersionScheme } from '../ecosystems/types.js'
import { SEMVER } from '../ecosystems/npm/semver.js'

interface SelectionOptions {
  ignore: readonly IgnoreRule[]
  allowMajor: boolean
  /** How the ecosystem orders versions (semver by default). */
  versions?: VersionScheme
}

/**
 * Every upgrade the inputs allow, in a deterministic order: packages by name; for each, the newest
 * version first, then the newest its declared range admits (tried when the newest is held or
 * failed). Held majors and ignored versions are named in `skipped`.
 */
export function upgradeCandidates(outdated: readonly OutdatedDependency[], opts: SelectionOptions): { candidates: UpgradeCandidate[]; skipped: string[] } {
  const versions = opts.versions ?? SEMVER
  const candidates: UpgradeCandidate[] = []
  const skipped: string[] = []
  const sorted = [...outdated].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const dep of sorted) {
    const pre = versions.prerelease(dep.current)
    const targets = [dep.latest, dep.wanted].filter(
      (v, i, all) => all.indexOf(v) === i && versions.compare(v, dep.current) > 0 && (pre || !versions.prerelease(v))
    )
    for (const to of targets) {
      const kind = versions.kind(dep.current, to)
      if (kind === 'major' && !opts.allowMajor) {
        skipped.push(`${dep.name} ${dep.current} → ${to}: a major upgrade, held (allow-major is false)`)
        continue
      }
      const rule = ignoredBy({ rules: opts.ignore, name: dep.name, version: to, versions })
      if (rule) {
        skipped.push(`${dep.name} ${dep.current} → ${to}: ignored (${rule.entry})`)
        continue
      }
      candidates.push({ name: dep.name, from: dep.current, to, kind, type: dep.type })
    }
  }
  return { candidates, skipped }
}

/** What the base holds that an earlier attempt's verdict depends on. */
export interface BaseEvidence {
  lockfileHash: string
  testsHash: string
}

/** The earlier attempts, the candidate to try, the evidence it would be tried on and the version scheme. */
interface AttemptHistory {
  attempts: readonly UpgradeAttempt[]
  candidate: UpgradeCandidate
  base: BaseEvidence
  versions?: VersionScheme
}

/**
 * The earlier attempt that makes trying `candidate` again pointless, if any: on the same lockfile
 * and tests, a failure at the same version (a newer version, a new lockfile or changed tests are
 * new evidence), or a verified upgrade of the package to this version or a newer one (its pull
 * request is waiting for review).
 */
export function blockingAttempt({ attempts, candidate, base, versions = SEMVER }: AttemptHistory): UpgradeAttempt | undefined {
  return attempts.find(
    (a) =>
      a.package === candidate.name &&
      a.lockfileHash === base.lockfileHash &&
      a.testsHash === base.testsHash &&
      (a.outcome === 'verified' ? versions.valid(a.target) && versions.compare(candidate.to, a.target) <= 0 : a.target === candidate.to)
  )
}

export function describeAttempt(a: UpgradeAttempt): string {
  const how =
    a.outcome === 'verified'
      ? 'verified'
      : a.outcome === 'bump-failed'
        ? 'the bump itself failed'
        : `failed${a.fingerprint ? ` (fingerprint ${a.fingerprint})` : ''}`
  return `${a.package} ${a.from} → ${a.target} ${how} in run ${a.runId} on the same lockfile and tests`
}
