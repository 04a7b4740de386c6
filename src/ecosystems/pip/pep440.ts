import semver from 'semver'
import type { BumpKind, VersionScheme } from '../types.js'

/** A Python version, PEP 440's public parts (a local `+label` is kept but not ordered on). */
export interface Pep440Version {
  epoch: number
  release: number[]
  pre: { phase: 'a' | 'b' | 'rc'; n: number } | null
  post: number | null
  dev: number | null
  local: string | null
}

const VERSION =
  /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d*))?(?:[-_.]?(dev)[-_.]?(\d*))?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$/i

const PHASES: Record<string, 'a' | 'b' | 'rc'> = { a: 'a', alpha: 'a', b: 'b', beta: 'b', c: 'rc', rc: 'rc', pre: 'rc', preview: 'rc' }

export function parsePep440(text: string): Pep440Version | null {
  const m = VERSION.exec(text.trim())
  if (!m) return null
  const num = (s: string | undefined): number => (s ? Number(s) : 0)
  return {
    epoch: num(m[1]),
    release: m[2].split('.').map(Number),
    pre: m[3] ? { phase: PHASES[m[3].toLowerCase()], n: num(m[4]) } : null,
    post: m[5] !== undefined ? Number(m[5]) : m[6] ? num(m[7]) : null,
    dev: m[8] ? num(m[9]) : null,
    local: m[10] ?? null
  }
}

/** A pre-release or a development release: pip skips them unless asked. */
export function isPrerelease(v: Pep440Version): boolean {
  return v.pre !== null || v.dev !== null
}

const PHASE_ORDER = { a: 0, b: 1, rc: 2 } as const

/** The order after the release: `1.0.dev1 < 1.0a1.dev1 < 1.0a1 < 1.0 < 1.0.post1.dev1 < 1.0.post1`. */
function suffixKey(v: Pep440Version): number[] {
  // A final release sorts after its pre-releases; its dev releases (no pre, no post) before them all.
  const pre = v.pre ? [PHASE_ORDER[v.pre.phase], v.pre.n] : v.dev !== null && v.post === null ? [-1, 0] : [3, 0]
  return [...pre, v.post ?? -1, v.dev ?? Infinity]
}

/** PEP 440's order: epoch, release (`1.0` equals `1.0.0`), pre, post, dev. Local labels are not ordered on. */
export function comparePep440(a: Pep440Version, b: Pep440Version): number {
  const x = [a.epoch, ...a.release]
  const y = [b.epoch, ...b.release]
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0)
    if (d !== 0) return d
  }
  const [sa, sb] = [suffixKey(a), suffixKey(b)]
  for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1
  return 0
}

function parsed(text: string): Pep440Version {
  const v = parsePep440(text)
  if (!v) throw new Error(`not a PEP 440 version: ${JSON.stringify(text)}`)
  return v
}

/**
 * The kind of a bump as semver applies it: below 1.0 the first non-zero number is the major one
 * (0.20 → 0.28 and 0.0.3 → 0.0.4 are majors), as a caret or compatible-release range stops there.
 */
function pep440Kind(from: string, to: string): BumpKind {
  const [a, b] = [parsed(from), parsed(to)]
  const [major, minor, patch] = [0, 1, 2].map((i) => [a.release[i] ?? 0, b.release[i] ?? 0])
  if (a.epoch !== b.epoch || major[0] !== major[1]) return 'major'
  if (major[0] === 0 && minor[0] !== minor[1]) return 'major'
  if (major[0] === 0 && minor[0] === 0 && patch[0] !== patch[1]) return 'major'
  return minor[0] !== minor[1] ? 'minor' : 'patch'
}

/**
 * The nearest semver of a Python version, for `ignore` ranges: the first three release numbers,
 * a pre-release as `-a.1`/`-b.1`/`-rc.1`, a dev release as `-dev.N`.
 */
function pep440AsSemver(text: string): string | null {
  const v = parsePep440(text)
  if (!v) return null
  const [major = 0, minor = 0, patch = 0] = v.release
  const tags = [...(v.pre ? [v.pre.phase, v.pre.n] : []), ...(v.dev !== null ? ['dev', v.dev] : [])]
  return `${major}.${minor}.${patch}${tags.length > 0 ? `-${tags.join('.')}` : ''}`
}

/** Python's versions (PEP 440). */
export const PEP440: VersionScheme = {
  valid: (v) => parsePep440(v) !== null,
  compare: (a, b) => comparePep440(parsed(a), parsed(b)),
  kind: pep440Kind,
  prerelease: (v) => isPrerelease(parsed(v)),
  satisfies: (v, range) => {
    const s = pep440AsSemver(v)
    return s !== null && semver.satisfies(s, range, { includePrerelease: true })
  }
}
