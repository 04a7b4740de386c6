import semver from 'semver'
import type { UpgradeAttempt } from '../state/schema.js'
import { ignoredBy, type IgnoreRule } from './ignore.js'
import type { BumpKind, OutdatedDependency, UpgradeCandidate } from './types.js'

export function bumpKind(from: string, to: string): BumpKind {
  const diff = semver.diff(from, to)
  if (diff === 'major' || diff === 'premajor') return 'major'
  if (diff === 'minor' || diff === 'preminor') return 'minor'
  return 'patch'
}

export interface SelectionOptions {
  ignore: readonly IgnoreRule[]
  allowMajor: boolean
}

/**
 * Every upgrade the inputs allow, in a deterministic order: packages by name; for each, the newest
 * version first, then the newest its declared range admits (tried when the newest is held or
 * failed). Held majors and ignored versions are named in `skipped`.
 */
export function upgradeCandidates(outdated: readonly OutdatedDependency[], opts: SelectionOptions): { candidates: UpgradeCandidate[]; skipped: string[] } {
  const candidates: UpgradeCandidate[] = []
  const skipped: string[] = []
  const sorted = [...outdated].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const dep of sorted) {
    const targets = [dep.latest, dep.wanted].filter((v, i, all) => all.indexOf(v) === i && semver.gt(v, dep.current))
    for (const to of targets) {
      const kind = bumpKind(dep.current, to)
      if (kind === 'major' && !opts.allowMajor) {
        skipped.push(`${dep.name} ${dep.current} → ${to}: a major upgrade, held (allow-major is false)`)
        continue
      }
      const rule = ignoredBy(opts.ignore, dep.name, to)
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

/**
 * The earlier attempt that makes trying `candidate` again pointless, if any: on the same lockfile
 * and tests, a failure at the same version (a newer version, a new lockfile or changed tests are
 * new evidence), or a verified upgrade of the package to this version or a newer one (its pull
 * request is waiting for review).
 */
export function blockingAttempt(attempts: readonly UpgradeAttempt[], candidate: UpgradeCandidate, base: BaseEvidence): UpgradeAttempt | undefined {
  return attempts.find(
    (a) =>
      a.package === candidate.name &&
      a.lockfileHash === base.lockfileHash &&
      a.testsHash === base.testsHash &&
      (a.outcome === 'verified' ? semver.valid(a.target) !== null && semver.lte(candidate.to, a.target) : a.target === candidate.to)
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
