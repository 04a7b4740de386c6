import semver from 'semver'
import type { VersionScheme } from '../ecosystems/types.js'
import { SEMVER } from '../ecosystems/npm/semver.js'

/** One `ignore` entry: a package name (with `*` wildcards), and optionally the versions to skip. */
export interface IgnoreRule {
  entry: string
  name: RegExp
  /** A semver range; undefined skips every version of the package. */
  range?: string
}

/** Splits `name@range`, keeping a scope's leading `@` (`@types/node@20`). */
function splitEntry(entry: string): { name: string; range?: string } {
  const at = entry.indexOf('@', 1)
  if (at === -1) return { name: entry }
  return { name: entry.slice(0, at), range: entry.slice(at + 1) }
}

const NAME = /^(?:@[a-z0-9*~._-]+\/)?[a-z0-9*~._-]+$/i

function nameMatcher(name: string): RegExp {
  const escaped = name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')
  return new RegExp(`^${escaped}$`, 'i')
}

/** Parses one entry; returns a reason string when it is not a valid rule. */
export function parseIgnoreRule(entry: string): IgnoreRule | string {
  const { name, range } = splitEntry(entry.trim())
  if (!NAME.test(name)) return `${JSON.stringify(name)} is not a package name`
  if (range !== undefined) {
    if (range.trim() === '' || semver.validRange(range) === null) return `${JSON.stringify(range)} is not a version or range`
  }
  return { entry, name: nameMatcher(name), range: range?.trim() }
}

/** A package at a version, checked against the ignore rules under a version scheme. */
interface IgnoreQuery {
  rules: readonly IgnoreRule[]
  name: string
  version: string
  versions?: VersionScheme
}

/** The first rule that skips `name` at `version`, or undefined. */
export function ignoredBy({ rules, name, version, versions = SEMVER }: IgnoreQuery): IgnoreRule | undefined {
  return rules.find((r) => r.name.test(name) && (r.range === undefined || versions.satisfies(version, r.range)))
}
