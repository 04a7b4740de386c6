import { normalizeName } from '../pip/lockfile.js'
import { tomlLockEntries } from '../pyproject/lock-packages.js'
import { parseToml, type TomlTable } from '../pyproject/toml-strings.js'
import type { LockEntry } from '../types.js'

const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)
const HASH = /^(?:sha256|sha384|sha512):[0-9a-f]+$/

const hashed = (artifact: unknown): boolean => isTable(artifact) && typeof artifact.hash === 'string' && HASH.test(artifact.hash)

/** Why a uv.lock package is not from a package index, if it is not: a git, path, url or directory source, a member, or no hashes. */
function notFromIndex(p: TomlTable): string | undefined {
  const source = isTable(p.source) ? p.source : {}
  const kind = Object.keys(source)[0] ?? 'missing'
  if (kind !== 'registry') return `a ${kind.slice(0, 20)} source`
  if (typeof source.registry !== 'string' || !/^https?:\/\//.test(source.registry)) return 'an index that is not an http(s) URL'
  const artifacts = [...(p.sdist === undefined ? [] : [p.sdist]), ...(Array.isArray(p.wheels) ? p.wheels : [])]
  if (artifacts.length === 0 || !artifacts.every(hashed)) return 'no file hashes'
  return undefined
}

/** The project itself: `source = { editable = "." }` or `{ virtual = "." }`, mirroring pyproject.toml. */
function isRoot(p: TomlTable): boolean {
  const source = isTable(p.source) ? p.source : {}
  return source.editable === '.' || source.virtual === '.'
}

/**
 * uv.lock entry by entry: each package (keyed by name, and by version too where one name is
 * locked at several), the project's own entry as the root, and each top-level table or value.
 */
export function uvLockEntries(text: string): LockEntry[] | null {
  return tomlLockEntries(text, { notFromIndex, isRoot })
}

/** The versions uv.lock holds, by normalized name (the project's own entry left out). */
export function uvLockedVersions(text: string | null): Map<string, string> {
  const doc = text === null ? null : parseToml(text)
  const out = new Map<string, string>()
  const packages = doc && Array.isArray(doc.package) ? doc.package : []
  for (const p of packages) {
    if (isTable(p) && !isRoot(p) && typeof p.name === 'string' && typeof p.version === 'string') out.set(normalizeName(p.name), p.version)
  }
  return out
}
