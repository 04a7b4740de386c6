import semver from 'semver'
import type { BumpKind, VersionScheme } from './types.js'

export function semverKind(from: string, to: string): BumpKind {
  const diff = semver.diff(from, to)
  if (diff === 'major' || diff === 'premajor') return 'major'
  if (diff === 'minor' || diff === 'preminor') return 'minor'
  return 'patch'
}

/** npm's versions: semver. */
export const SEMVER: VersionScheme = {
  valid: (v) => semver.valid(v) !== null,
  compare: (a, b) => semver.compare(a, b),
  kind: semverKind,
  satisfies: (v, range) => semver.satisfies(v, range, { includePrerelease: true })
}
