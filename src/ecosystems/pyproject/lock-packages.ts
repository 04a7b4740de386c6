import { normalizeName } from '../pip/lockfile.js'
import type { LockEntry } from '../types.js'
import { parseToml, type TomlTable } from './toml-strings.js'

const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)

/**
 * The `[[package]]` tables of a Python lockfile (poetry.lock, uv.lock), each with its entry key:
 * `package/<name>`, and `package/<name>@<version>` where one name is locked at several versions.
 * Null when one has no name.
 */
function keyedPackages(value: unknown[]): { key: string; name: string; table: TomlTable }[] | null {
  if (!value.every((p) => isTable(p) && typeof p.name === 'string')) return null
  const packages = value as TomlTable[]
  const count = new Map<string, number>()
  for (const p of packages) count.set(normalizeName(p.name as string), (count.get(normalizeName(p.name as string)) ?? 0) + 1)
  return packages.map((table) => {
    const name = normalizeName(table.name as string)
    return { key: count.get(name) === 1 ? `package/${name}` : `package/${name}@${String(table.version)}`, name: table.name as string, table }
  })
}

/** How one Python lockfile judges its packages: why one is not from an index, and which is the project itself. */
interface TomlLockRules {
  notFromIndex(table: TomlTable): string | undefined
  isRoot?(table: TomlTable): boolean
  /** Top-level tables that mirror pyproject.toml (Poetry's `[metadata]` and its content hash). */
  mirrors?: readonly string[]
}

/**
 * A TOML lockfile entry by entry: each `[[package]]` (see keyedPackages), the project's own entry
 * as the root, and each other top-level table or value. Null when it does not parse.
 */
export function tomlLockEntries(text: string, rules: TomlLockRules): LockEntry[] | null {
  const doc = parseToml(text)
  if (!doc) return null
  const out: LockEntry[] = []
  for (const [top, value] of Object.entries(doc)) {
    if (top !== 'package' || !Array.isArray(value)) {
      out.push({ key: top, name: `(${top})`, text: JSON.stringify(value), registry: true, ...(rules.mirrors?.includes(top) ? { mirror: true } : {}) })
      continue
    }
    const packages = keyedPackages(value)
    if (!packages) return null
    for (const { key, name, table } of packages) {
      if (rules.isRoot?.(table)) {
        out.push({ key: '', name, text: JSON.stringify(table), registry: true, mirror: true })
        continue
      }
      const why = rules.notFromIndex(table)
      const version = typeof table.version === 'string' ? { version: table.version } : {}
      out.push({ key, name, text: JSON.stringify(table), registry: why === undefined, why, ...version })
    }
  }
  return out
}
