import { normalizeName } from '../pip/lockfile.js'
import { editOneString, parseToml, type TomlTable } from '../pyproject/toml-strings.js'
import type { DependencyType } from '../types.js'
import { widenPoetry } from './constraints.js'

const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)

/** One dependency of `[tool.poetry.dependencies]`, `dev-dependencies` or a group, with a version constraint from an index. */
export interface PoetryDeclaration {
  /** The table's dotted path (`tool.poetry.group.test.dependencies`). */
  table: string[]
  /** The key as written. */
  name: string
  key: string
  constraint: string
  /** Whether the constraint sits in a `{ version = … }` table. */
  inTable: boolean
  type: DependencyType
}

/** Keys of a dependency table that still name a version from an index (not a path, git, url or file). */
const INDEX_KEYS = new Set(['version', 'optional', 'markers', 'python', 'extras', 'allow-prereleases', 'source', 'platform'])

function tableDeclarations(table: string[], deps: unknown, type: DependencyType): PoetryDeclaration[] {
  if (!isTable(deps)) return []
  return Object.entries(deps).flatMap(([name, spec]): PoetryDeclaration[] => {
    if (name.toLowerCase() === 'python') return []
    if (typeof spec === 'string') return [{ table, name, key: normalizeName(name), constraint: spec, inTable: false, type }]
    if (!isTable(spec) || typeof spec.version !== 'string' || !Object.keys(spec).every((k) => INDEX_KEYS.has(k))) return []
    const kind = spec.optional === true ? 'optionalDependencies' : type
    return [{ table, name, key: normalizeName(name), constraint: spec.version, inTable: true, type: kind }]
  })
}

function at(doc: TomlTable, keys: readonly string[]): unknown {
  let v: unknown = doc
  for (const k of keys) v = isTable(v) ? v[k] : undefined
  return v
}

/** Every dependency with a version constraint in the Poetry tables of a pyproject.toml. */
export function poetryDeclarations(doc: TomlTable): PoetryDeclaration[] {
  const out = [
    ...tableDeclarations(['tool', 'poetry', 'dependencies'], at(doc, ['tool', 'poetry', 'dependencies']), 'dependencies'),
    ...tableDeclarations(['tool', 'poetry', 'dev-dependencies'], at(doc, ['tool', 'poetry', 'dev-dependencies']), 'devDependencies')
  ]
  const groups = at(doc, ['tool', 'poetry', 'group'])
  if (isTable(groups)) {
    for (const [group, value] of Object.entries(groups)) {
      const table = ['tool', 'poetry', 'group', group, 'dependencies']
      out.push(...tableDeclarations(table, isTable(value) ? value.dependencies : undefined, 'devDependencies'))
    }
  }
  return out
}

/** The index Poetry resolves from: the default or primary `[[tool.poetry.source]]` (name and URL), or none (PyPI). */
export function poetrySource(doc: TomlTable): { name: string; url: string } | null {
  const sources = at(doc, ['tool', 'poetry', 'source'])
  if (!Array.isArray(sources)) return null
  const usable = sources.filter((s): s is TomlTable => isTable(s) && typeof s.url === 'string' && typeof s.name === 'string')
  const chosen =
    usable.find((s) => s.default === true || s.priority === 'default') ??
    usable.find((s) => s.secondary !== true && (s.priority === undefined || s.priority === 'primary'))
  return chosen ? { name: chosen.name as string, url: chosen.url as string } : null
}

/** The versions poetry.lock holds, by normalized name. */
export function lockedVersions(lockText: string | null): Map<string, string> {
  const doc = lockText === null ? null : parseToml(lockText)
  const out = new Map<string, string>()
  const packages = doc && Array.isArray(doc.package) ? doc.package : []
  for (const p of packages) if (isTable(p) && typeof p.name === 'string' && typeof p.version === 'string') out.set(normalizeName(p.name), p.version)
  return out
}

/** A pyproject.toml's text and document, and the package to widen to a version. */
interface PoetryWidening {
  text: string
  doc: TomlTable
  key: string
  to: string
}

/** pyproject.toml with each of `key`'s constraints that excludes `to` widened in place; the text unchanged when all admit it; a message when one cannot be. */
export function widenPoetryDeclarations({ text, doc, key, to }: PoetryWidening): string | { message: string } {
  let out = text
  let current = doc
  for (const d of poetryDeclarations(doc).filter((x) => x.key === key)) {
    const widened = widenPoetry(d.constraint, to)
    if (widened === null) return { message: `${d.table.join('.')}.${d.name}: ${JSON.stringify(d.constraint)} cannot be widened to admit ${to}` }
    if (widened === d.constraint.trim()) continue
    const expected = structuredClone(current)
    const holder = at(expected, d.table) as TomlTable
    if (d.inTable) (holder[d.name] as TomlTable).version = widened
    else holder[d.name] = widened
    const next = editOneString(out, { from: d.constraint, old: d.constraint.trim(), replacement: widened }, expected)
    if (next === null) return { message: `pyproject.toml: ${d.table.join('.')}.${d.name} cannot be rewritten in place` }
    out = next
    current = expected
  }
  return out
}
