import yaml from 'js-yaml'
import semver from 'semver'
import type { LockEntry } from '../types.js'

type Table = Record<string, unknown>
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The package name of a Berry descriptor or locator (`@s/a@npm:^1.0.0` is `@s/a`). */
function descriptorName(spec: string): string {
  const at = spec.indexOf('@', 1)
  return at > 0 ? spec.slice(0, at) : spec
}

/** A resolution from the registry: `name@npm:1.2.3`, a version and nothing else (no URL, no alias to a tarball). */
const REGISTRY_RESOLUTION = /^(@?[^@\s]+)@npm:([^\s@:/]+)$/
/** Berry's checksum: `<cacheKey>/<sha512 hex>` (v6 and later) or the bare hex. */
const CHECKSUM = /^(?:\w+\/)?[0-9a-f]{64,}$/

function judge(entry: Table): { registry: boolean; why?: string } {
  const resolution = typeof entry.resolution === 'string' ? entry.resolution : ''
  // A workspace of the project mirrors its own package.json, as the root entry of other lockfiles does.
  if (/@workspace:/.test(resolution)) return { registry: true }
  const m = REGISTRY_RESOLUTION.exec(resolution)
  if (!m || semver.valid(m[2]) === null) return { registry: false, why: resolution ? `resolved as ${resolution.slice(0, 100)}` : 'no resolution' }
  if (typeof entry.checksum !== 'string' || !CHECKSUM.test(entry.checksum)) return { registry: false, why: 'no checksum' }
  return { registry: true }
}

/**
 * Yarn Berry's yarn.lock (YAML with `__metadata`) entry by entry: each entry judged by its
 * resolution (`name@npm:<version>` with a checksum is the registry's; git, tarball, file, link,
 * portal, patch and exec resolutions are not); null when it does not parse.
 */
export function berryLockEntries(text: string): LockEntry[] | null {
  let doc: unknown
  try {
    doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA, json: true })
  } catch {
    return null
  }
  if (!isTable(doc) || !isTable(doc.__metadata)) return null
  return Object.entries(doc).map(([key, value]): LockEntry => {
    const text = JSON.stringify(value)
    if (key === '__metadata') return { key, name: '(metadata)', text, registry: true }
    const entry = isTable(value) ? value : {}
    const first = key.split(',')[0].trim()
    return { key, name: descriptorName(first), text, ...judge(entry) }
  })
}

/** A Berry yarn.lock as data (every scalar a string), or null when it is not one. */
export function parseBerryLock(text: string): Table | null {
  try {
    const doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA, json: true })
    return isTable(doc) && isTable(doc.__metadata) ? doc : null
  } catch {
    return null
  }
}

/** The version a Berry lockfile resolves `name@range` to (its key lists `name@npm:<range>`). */
export function berryLocked(doc: Table | null, name: string, range: string): string | null {
  if (!doc) return null
  const wanted = new Set([`${name}@npm:${range}`, `${name}@${range}`])
  for (const [key, value] of Object.entries(doc)) {
    if (key === '__metadata' || !isTable(value) || typeof value.version !== 'string') continue
    if (key.split(',').some((d) => wanted.has(d.trim()))) return value.version
  }
  return null
}
