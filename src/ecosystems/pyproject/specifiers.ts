import { normalizeName } from '../pip/lockfile.js'
import { comparePep440, isPrerelease, parsePep440, type Pep440Version } from '../pip/pep440.js'

/*
 * PEP 508 requirements (`name[extra] >=1.0,<2 ; marker`) and PEP 440 version specifiers: whether a
 * version is admitted, and the smallest edit of a specifier that admits a newer one in the style
 * the user wrote (`==1.0` → `==2.0`, `<2` → `<3`, `~=1.4` → `~=2.0`, `==1.*` → `==2.*`).
 */

export interface Clause {
  op: '===' | '~=' | '==' | '!=' | '<=' | '>=' | '<' | '>'
  version: string
}

export interface Requirement {
  name: string
  /** PEP 503's normalized name. */
  key: string
  /** The specifier as written (without parentheses); '' for none. */
  specifier: string
  /** The clauses; null for a URL requirement (`name @ https://…`) or one that does not parse. */
  clauses: Clause[] | null
}

const REQUIREMENT = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*([^;]*?)\s*(?:;.*)?$/s
const CLAUSE = /^\s*(===|~=|==|!=|<=|>=|<|>)\s*([A-Za-z0-9!+._*-]+)\s*$/

export function parseRequirement(text: string): Requirement | null {
  const m = REQUIREMENT.exec(text)
  if (!m) return null
  const name = m[1]
  const rest = m[2].replace(/^\(\s*(.*?)\s*\)$/s, '$1')
  if (rest.startsWith('@')) return { name, key: normalizeName(name), specifier: rest, clauses: null }
  if (rest === '') return { name, key: normalizeName(name), specifier: '', clauses: [] }
  const clauses: Clause[] = []
  for (const piece of rest.split(',')) {
    const c = CLAUSE.exec(piece)
    if (!c) return { name, key: normalizeName(name), specifier: rest, clauses: null }
    clauses.push({ op: c[1] as Clause['op'], version: c[2] })
  }
  return { name, key: normalizeName(name), specifier: rest, clauses }
}

const releaseOf = (text: string): number[] | null => parsePep440(text.replace(/\.\*$/, ''))?.release ?? null

function prefixMatches(v: Pep440Version, prefix: number[]): boolean {
  return prefix.every((n, i) => (v.release[i] ?? 0) === n)
}

function clauseAdmits(c: Clause, v: Pep440Version, text: string): boolean {
  if (c.op === '===') return c.version === text
  if ((c.op === '==' || c.op === '!=') && c.version.endsWith('.*')) {
    const prefix = releaseOf(c.version)
    const match = prefix !== null && prefixMatches(v, prefix)
    return c.op === '==' ? match : !match
  }
  const bound = parsePep440(c.version)
  if (!bound) return false
  const d = comparePep440({ ...v, local: null }, bound)
  switch (c.op) {
    case '==':
      return d === 0
    case '!=':
      return d !== 0
    case '<=':
      return d <= 0
    case '>=':
      return d >= 0
    case '<':
      return d < 0
    case '>':
      return d > 0
    default:
      // `~=1.4.2`: at least 1.4.2, and 1.4.* (the last release number dropped).
      return d >= 0 && bound.release.length >= 2 && prefixMatches(v, bound.release.slice(0, -1))
  }
}

/** Whether every clause admits `version`. */
export function admits(clauses: readonly Clause[], version: string): boolean {
  const v = parsePep440(version)
  return v !== null && clauses.every((c) => clauseAdmits(c, v, version))
}

/** Whether a clause names a pre-release (then pre-releases are candidates, as pip does). */
export function wantsPrerelease(clauses: readonly Clause[]): boolean {
  return clauses.some((c) => {
    const v = parsePep440(c.version.replace(/\.\*$/, ''))
    return v !== null && isPrerelease(v)
  })
}

/** The exact version a requirement pins (`==1.2.3`), or null. */
export function exactPin(clauses: readonly Clause[]): string | null {
  const pins = clauses.filter((c) => c.op === '==' && !c.version.endsWith('.*'))
  return pins.length === 1 ? pins[0].version : null
}

const releaseText = (release: number[], length: number): string => Array.from({ length }, (_, i) => release[i] ?? 0).join('.')

/** `<2` for 2.1.0 is `<3`, `<1.5` for 1.7.0 is `<1.8`: the bound moves at its own last non-zero number. */
function nextBound(bound: number[], to: number[]): string {
  let level = bound.length - 1
  while (level > 0 && bound[level] === 0) level--
  const next = Array.from({ length: bound.length }, (_, i) => (i < level ? (to[i] ?? 0) : i === level ? (to[i] ?? 0) + 1 : 0))
  return next.join('.')
}

/** The version text a clause gets so that it admits `to`, or null for one that cannot move (`!=`, a lower bound, `===`). */
function widenedVersion(c: Clause, to: string): string | null {
  const release = parsePep440(to)?.release
  const own = releaseOf(c.version)
  if (!release || !own) return null
  if (c.op === '==' && c.version.endsWith('.*')) return `${releaseText(release, own.length)}.*`
  if (c.op === '==') return to
  if (c.op === '~=') return releaseText(release, own.length)
  if (c.op === '<=') return to
  if (c.op === '<') return nextBound(own, release)
  return null
}

/**
 * The specifier text widened to admit `to`, each clause that excludes it moved in the style it has;
 * the text unchanged when it admits `to` already, null when no such edit admits it.
 */
export function widenSpecifier(specifier: string, to: string): string | null {
  const pieces = specifier.split(',')
  const out: string[] = []
  for (const piece of pieces) {
    const c = CLAUSE.exec(piece)
    if (!c) return null
    const clause = { op: c[1] as Clause['op'], version: c[2] }
    if (admits([clause], to)) {
      out.push(piece)
      continue
    }
    const version = widenedVersion(clause, to)
    if (version === null) return null
    const at = piece.lastIndexOf(clause.version)
    out.push(piece.slice(0, at) + version + piece.slice(at + clause.version.length))
  }
  const widened = out.join(',')
  const parsed = widened.split(',').map((p) => CLAUSE.exec(p)!)
  return admits(
    parsed.map((c) => ({ op: c[1] as Clause['op'], version: c[2] })),
    to
  )
    ? widened
    : null
}

/** The newest of `versions` the clauses admit (pre-releases only when `pre`), or null. */
export function newestAdmitted(versions: readonly string[], clauses: readonly Clause[], pre: boolean): string | null {
  const usable = versions
    .map((text) => ({ text, v: parsePep440(text) }))
    .filter((x): x is { text: string; v: Pep440Version } => x.v !== null && (pre || !isPrerelease(x.v)))
    .filter((x) => admits(clauses, x.text))
    .sort((a, b) => comparePep440(b.v, a.v))
  return usable[0]?.text ?? null
}
