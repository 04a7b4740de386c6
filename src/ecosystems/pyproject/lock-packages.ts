import { normalizeName } from '../pip/lockfile.js'
import type { TomlTable } from './toml-strings.js'

const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)

/**
 * The `[[package]]` tables of a Python lockfile (poetry.lock, uv.lock), each with its entry key:
 * `package/<name>`, and `package/<name>@<version>` where one name is locked at several versions.
 * Null when one has no name.
 */
export function keyedPackages(value: unknown[]): { key: string; name: string; table: TomlTable }[] | null {
  if (!value.every((p) => isTable(p) && typeof p.name === 'string')) return null
  const packages = value as TomlTable[]
  const count = new Map<string, number>()
  for (const p of packages) count.set(normalizeName(p.name as string), (count.get(normalizeName(p.name as string)) ?? 0) + 1)
  return packages.map((table) => {
    const name = normalizeName(table.name as string)
    return { key: count.get(name) === 1 ? `package/${name}` : `package/${name}@${String(table.version)}`, name: table.name as string, table }
  })
}
