import semver from 'semver'
import type { BumpKind, VersionScheme } from '../types.js'

/**
 * The kind of a bump as npm's caret applies it: a change the caret range of `from` does not admit
 * is a major. Below 1.0.0 the first non-zero number is the major one (`^0.20.0` stops before
 * 0.21.0, `^0.0.3` admits 0.0.3 only), so 0.20.0 → 0.28.2 and 0.0.3 → 0.0.4 are majors.
 */
function semverKind(from: string, to: string): BumpKind {
  const [a, b] = [semver.parse(from), semver.parse(to)]
  if (!a || !b) return 'major'
  if (a.major !== b.major) return 'major'
  if (a.major === 0 && a.minor !== b.minor) return 'major'
  if (a.major === 0 && a.minor === 0 && a.patch !== b.patch) return 'major'
  if (a.minor !== b.minor) return 'minor'
  return 'patch'
}

/** npm's versions: semver. */
export const SEMVER: VersionScheme = {
  valid: (v) => semver.valid(v) !== null,
  compare: (a, b) => semver.compare(a, b),
  kind: semverKind,
  prerelease: (v) => (semver.prerelease(v)?.length ?? 0) > 0,
  satisfies: (v, range) => semver.satisfies(v, range, { includePrerelease: true })
}
