import { tomlLockEntries } from '../pyproject/lock-packages.js'
import type { TomlTable } from '../pyproject/toml-strings.js'
import type { LockEntry } from '../types.js'

const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)
const HASH = /^(?:sha256|sha384|sha512):[0-9a-f]+$/

/** Why a poetry.lock package is not from a package index, if it is not: a path, git, url or file source, or no hashes. */
function notFromIndex(p: TomlTable): string | undefined {
  const source = isTable(p.source) ? p.source : null
  if (source && source.type !== 'legacy') return `a ${String(source.type).slice(0, 20)} source`
  if (source && (typeof source.url !== 'string' || !/^https?:\/\//.test(source.url))) return 'an index that is not an http(s) URL'
  const files = Array.isArray(p.files) ? p.files : []
  if (files.length === 0 || !files.every((f) => isTable(f) && typeof f.hash === 'string' && HASH.test(f.hash))) return 'no file hashes'
  return undefined
}

/** poetry.lock entry by entry: each package (keyed by name, and by version too where one name is locked at several), and `[metadata]`, whose content hash mirrors pyproject.toml. */
export function poetryLockEntries(text: string): LockEntry[] | null {
  return tomlLockEntries(text, { notFromIndex, mirrors: ['metadata'] })
}
