import yaml from 'js-yaml'
import type { LockEntry } from '../types.js'

type Table = Record<string, unknown>
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v)

/** pnpm-lock.yaml as data (every scalar a string), or null when it does not parse. */
export function parsePnpmLock(text: string): Table | null {
  try {
    const doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA, json: true })
    return isTable(doc) ? doc : null
  } catch {
    return null
  }
}

/** `1.2.3(react@18.0.0)` is 1.2.3 with its peers. */
const bareVersion = (v: string): string => v.replace(/\(.*$/, '')

/** The version the lockfile holds for `name` in the workspace package at `dir` ('' the root). */
export function pnpmLocked(doc: Table | null, dir: string, name: string): string | null {
  const importers = isTable(doc?.importers) ? doc.importers : { '.': doc ?? {} }
  const importer = importers[dir || '.']
  if (!isTable(importer)) return null
  for (const section of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const deps = importer[section]
    const entry = isTable(deps) ? deps[name] : undefined
    const version = isTable(entry) ? entry.version : entry
    if (typeof version === 'string') return bareVersion(version)
  }
  return null
}

/** The name and version of a `packages` or `snapshots` key: `@s/a@1.0.0`, `/a@1.0.0` (v6), `/a/1.0.0` (v5). */
function keyParts(key: string): { name: string; version: string } {
  const k = bareVersion(key.replace(/^\//, ''))
  const at = k.indexOf('@', 1)
  if (at > 0) return { name: k.slice(0, at), version: k.slice(at + 1) }
  const slash = k.lastIndexOf('/')
  return slash > 0 ? { name: k.slice(0, slash), version: k.slice(slash + 1) } : { name: k, version: '' }
}

const SEMVER_LIKE = /^\d+\.\d+\.\d+(?:[-+][\w.+-]*)?$/

function packageEntry(key: string, value: unknown, registryHosts: readonly string[]): LockEntry {
  const { name, version } = keyParts(key)
  const entry = isTable(value) ? value : {}
  const resolution = isTable(entry.resolution) ? entry.resolution : {}
  const tarball = typeof resolution.tarball === 'string' ? resolution.tarball : null
  let why: string | undefined
  if (!SEMVER_LIKE.test(version)) why = `resolved as ${version.slice(0, 100)}`
  else if (typeof resolution.type === 'string') why = `a ${resolution.type} resolution`
  else if (tarball !== null && !registryHosts.some((h) => tarball.startsWith(h))) why = `resolved from ${tarball.slice(0, 100)}, not the registry`
  else if (typeof resolution.integrity !== 'string' || !/^sha(?:1|256|384|512)-/.test(resolution.integrity)) why = 'no integrity'
  return { key: `packages/${key}`, name, text: JSON.stringify(entry), registry: why === undefined, why, version }
}

const IMPORTER_SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies']

/**
 * One importer (a package of the workspace) entry by entry: each dependency it resolves
 * (`importers/<dir>/<section>/<name>`, its specifier and the version or link it resolves to), and
 * its other fields, which mirror its package.json.
 */
function importerEntries(dir: string, value: unknown): LockEntry[] {
  const importer = isTable(value) ? value : {}
  const out: LockEntry[] = []
  const rest: Table = {}
  for (const [field, deps] of Object.entries(importer)) {
    if (!IMPORTER_SECTIONS.includes(field) || !isTable(deps)) {
      rest[field] = deps
      continue
    }
    for (const [name, dep] of Object.entries(deps)) {
      const resolved = isTable(dep) ? dep.version : dep
      const version = typeof resolved === 'string' ? bareVersion(resolved) : ''
      const registry = SEMVER_LIKE.test(version)
      const key = `importers/${dir}/${field}/${name}`
      out.push({
        key,
        name,
        text: JSON.stringify(dep),
        registry,
        why: registry ? undefined : `resolved as ${version.slice(0, 100)}`,
        ...(registry ? { version } : {})
      })
    }
  }
  out.push({ key: `importers/${dir}`, name: `(importer ${dir})`, text: JSON.stringify(rest), registry: true, mirror: true })
  return out
}

/** pnpm-lock.yaml entry by entry: each package (judged by its resolution), each snapshot, each importer; null when it does not parse. */
export function pnpmLockEntries(text: string, registryHosts: readonly string[]): LockEntry[] | null {
  const doc = parsePnpmLock(text)
  if (!doc) return null
  const out: LockEntry[] = []
  for (const [top, value] of Object.entries(doc)) {
    if (top === 'packages' && isTable(value)) {
      for (const [key, entry] of Object.entries(value)) out.push(packageEntry(key, entry, registryHosts))
    } else if (top === 'snapshots' && isTable(value)) {
      // A snapshot names what a package resolved its dependencies to; the package entry says where it came from.
      for (const [key, entry] of Object.entries(value)) {
        const { name, version } = keyParts(key)
        const registry = SEMVER_LIKE.test(version)
        const why = registry ? undefined : `resolved as ${version.slice(0, 100)}`
        out.push({ key: `snapshots/${key}`, name, text: JSON.stringify(entry), registry, why, version })
      }
    } else if (top === 'importers' && isTable(value)) {
      for (const [dir, entry] of Object.entries(value)) out.push(...importerEntries(dir, entry))
    } else {
      out.push({ key: top, name: `(${top})`, text: JSON.stringify(value), registry: true })
    }
  }
  return out
}
