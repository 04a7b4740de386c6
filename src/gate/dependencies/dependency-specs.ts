import { normalizeName, parseRequirement } from '../../ecosystems/pip/lockfile.js'
import { parseManifest, type ManifestKind } from './manifest-keys.js'

/**
 * The dependency entries a manifest declares, one per table and package (`devDependencies chai`,
 * `project.optional-dependencies.dev pytest-cov`), each with the spec as written, and whether that
 * spec names a version from the package registry or something else (a path, a tarball, a wheel, a
 * URL, git, an alias, another index).
 */
export interface DependencyEntry {
  /** `devDependencies`, `project.optional-dependencies.dev`, … */
  table: string
  name: string
  /** The spec as written (a JSON text for table-valued specs). */
  spec: string
  registry: boolean
}

type Table = Record<string, unknown>
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)

const NPM_TABLES = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'overrides', 'resolutions', 'pnpm.overrides']

/** A semver version, range or dist-tag: no scheme, path, alias or repository shorthand. */
const NPM_REGISTRY_SPEC = /^[\w.\-+*^~<>=|\s]*$/

export function isNpmRegistrySpec(spec: unknown): boolean {
  return typeof spec === 'string' && NPM_REGISTRY_SPEC.test(spec) && !/^\s*(?:\.|~\/)/.test(spec)
}

export { normalizeName, parseRequirement }

function at(doc: Table, dotted: string): unknown {
  let v: unknown = doc
  for (const k of dotted.split('.')) v = isTable(v) ? v[k] : undefined
  return v
}

function npmEntries(doc: Table): DependencyEntry[] {
  const out: DependencyEntry[] = []
  for (const table of NPM_TABLES) {
    const value = at(doc, table)
    if (!isTable(value)) continue
    for (const [name, spec] of Object.entries(value)) {
      const text = typeof spec === 'string' ? spec : JSON.stringify(spec)
      out.push({ table, name, spec: text, registry: isNpmRegistrySpec(spec) })
    }
  }
  for (const table of ['bundleDependencies', 'bundledDependencies']) {
    const value = doc[table]
    // Bundled packages are shipped from the package's own folder, never fetched from the registry.
    if (Array.isArray(value) || value === true) out.push({ table, name: '*', spec: JSON.stringify(value), registry: false })
  }
  return out
}

function requirementList(table: string, list: unknown): DependencyEntry[] {
  if (!Array.isArray(list)) return []
  return list.map((item) => {
    const parsed = typeof item === 'string' ? parseRequirement(item) : null
    const spec = typeof item === 'string' ? item : JSON.stringify(item)
    return { table, name: parsed?.name ?? spec, spec, registry: parsed?.registry ?? false }
  })
}

/** Poetry's `name = "^1.2"` or `name = { version = "…" }`; a path, git, url or file or another source is not the registry. */
function poetryTable(table: string, value: unknown): DependencyEntry[] {
  if (!isTable(value)) return []
  return Object.entries(value).map(([name, spec]) => {
    const registry =
      typeof spec === 'string'
        ? !/[/:]/.test(spec)
        : isTable(spec) && Object.keys(spec).every((k) => ['version', 'optional', 'markers', 'python', 'extras', 'allow-prereleases'].includes(k))
    return { table, name: normalizeName(name), spec: typeof spec === 'string' ? spec : JSON.stringify(spec), registry }
  })
}

function groups(prefix: string, value: unknown, each: (table: string, v: unknown) => DependencyEntry[]): DependencyEntry[] {
  return isTable(value) ? Object.entries(value).flatMap(([g, v]) => each(`${prefix}.${g}`, v)) : []
}

function pyprojectEntries(doc: Table): DependencyEntry[] {
  return [
    ...requirementList('project.dependencies', at(doc, 'project.dependencies')),
    ...groups('project.optional-dependencies', at(doc, 'project.optional-dependencies'), requirementList),
    ...groups('dependency-groups', doc['dependency-groups'], requirementList),
    ...requirementList('build-system.requires', at(doc, 'build-system.requires')),
    ...poetryTable('tool.poetry.dependencies', at(doc, 'tool.poetry.dependencies')),
    ...poetryTable('tool.poetry.dev-dependencies', at(doc, 'tool.poetry.dev-dependencies')),
    ...groups('tool.poetry.group', at(doc, 'tool.poetry.group'), (t, v) => poetryTable(`${t}.dependencies`, isTable(v) ? v.dependencies : undefined)),
    ...requirementList('tool.uv.dev-dependencies', at(doc, 'tool.uv.dev-dependencies')),
    ...requirementList('tool.uv.constraint-dependencies', at(doc, 'tool.uv.constraint-dependencies')),
    ...requirementList('tool.uv.override-dependencies', at(doc, 'tool.uv.override-dependencies')),
    ...requirementList('tool.uv.build-constraint-dependencies', at(doc, 'tool.uv.build-constraint-dependencies')),
    ...groups('tool.pdm.dev-dependencies', at(doc, 'tool.pdm.dev-dependencies'), requirementList)
  ]
}

/** The manifest's dependency entries; null when it does not parse. */
export function manifestDependencies(kind: ManifestKind, text: string | null): DependencyEntry[] | null {
  if (text === null) return []
  const doc = parseManifest(kind, text)
  if (doc === null) return null
  return kind === 'package-json' ? npmEntries(doc) : pyprojectEntries(doc)
}

const key = (e: DependencyEntry): string => `${e.table}\0${e.name}`

/** The entries added, changed or removed from `before` to `after` (a removal has `spec` ''). */
export function changedEntries(before: DependencyEntry[], after: DependencyEntry[]): { entry: DependencyEntry; was: string | null }[] {
  const old = new Map<string, string[]>()
  for (const e of before) old.set(key(e), [...(old.get(key(e)) ?? []), e.spec])
  const now = new Map<string, DependencyEntry[]>()
  for (const e of after) now.set(key(e), [...(now.get(key(e)) ?? []), e])
  const out: { entry: DependencyEntry; was: string | null }[] = []
  for (const [k, entries] of now) {
    const was = old.get(k) ?? []
    for (const e of entries) if (!was.includes(e.spec)) out.push({ entry: e, was: was[0] ?? null })
  }
  for (const [k, specs] of old) {
    if (now.has(k)) continue
    const [table, name] = k.split('\0')
    out.push({ entry: { table, name, spec: '', registry: true }, was: specs[0] })
  }
  return out
}
