import { keyedPackages } from '../pyproject/lock-packages.js'
import { parseToml, type TomlTable } from '../pyproject/toml-strings.js'
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

/** poetry.lock entry by entry: each package (keyed by name, and by version too where one name is locked at several), and `[metadata]`. */
export function poetryLockEntries(text: string): LockEntry[] | null {
  const doc = parseToml(text)
  if (!doc) return null
  const out: LockEntry[] = []
  for (const [top, value] of Object.entries(doc)) {
    if (top !== 'package' || !Array.isArray(value)) {
      out.push({ key: top, name: `(${top})`, text: JSON.stringify(value), registry: true })
      continue
    }
    const packages = keyedPackages(value)
    if (!packages) return null
    for (const { key, name, table } of packages) {
      const why = notFromIndex(table)
      out.push({ key, name, text: JSON.stringify(table), registry: why === undefined, why })
    }
  }
  return out
}
