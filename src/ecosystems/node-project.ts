import { lstatSync, readdirSync } from 'node:fs'
import path from 'node:path'
import picomatch from 'picomatch'
import semver from 'semver'
import { readAgentText, writeTreeFile } from '../fs/tree.js'
import type { DependencyType, OutdatedDependency, OutdatedReport } from './types.js'
import { mapLimited } from './limited-map.js'

export const MANIFEST = 'package.json'
const SECTIONS: readonly DependencyType[] = ['dependencies', 'devDependencies', 'optionalDependencies']
export const MAX_JSON_BYTES = 32 * 1024 * 1024
/** How deep workspace packages are looked for, and how many at most. */
const MAX_DEPTH = 5
const MAX_PACKAGES = 500
const LOOKUP_CONCURRENCY = 4

export type Json = Record<string, unknown>
const isTable = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

export function readJson(workspace: string, rel: string): Json | null {
  const text = readAgentText(workspace, rel, MAX_JSON_BYTES)
  if (text === null) return null
  try {
    const data = JSON.parse(text) as unknown
    return isTable(data) ? data : null
  } catch {
    return null
  }
}

const manifestOf = (dir: string): string => (dir ? `${dir}/${MANIFEST}` : MANIFEST)

/** The folders (relative, `''` the root) of the workspace packages `patterns` name, the root first. */
export function workspaceDirs(workspace: string, patterns: readonly string[]): string[] {
  const clean = patterns.filter((p) => typeof p === 'string' && p.trim()).map((p) => p.trim().replace(/^\.\//, '').replace(/\/+$/, ''))
  const include = clean.filter((p) => !p.startsWith('!'))
  if (include.length === 0) return ['']
  const yes = picomatch(include)
  const no = picomatch(clean.filter((p) => p.startsWith('!')).map((p) => p.slice(1)))
  const found: string[] = []
  const walk = (rel: string, depth: number): void => {
    if (depth > MAX_DEPTH || found.length >= MAX_PACKAGES) return
    let entries
    try {
      entries = readdirSync(path.join(workspace, rel), { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!e.isDirectory() || e.name === 'node_modules' || e.name.startsWith('.')) continue
      const sub = rel ? `${rel}/${e.name}` : e.name
      if (yes(sub) && !no(sub) && lstatSafe(path.join(workspace, sub, MANIFEST))) found.push(sub)
      walk(sub, depth + 1)
    }
  }
  walk('', 1)
  return ['', ...found]
}

function lstatSafe(file: string): boolean {
  try {
    return lstatSync(file).isFile()
  } catch {
    return false
  }
}

/** Where one workspace package declares a dependency with a semver range. */
export interface Declaration {
  dir: string
  type: DependencyType
  range: string
}

/** The workspace package patterns of package.json's `workspaces` (an array, or `{ packages }`). */
export function packageJsonWorkspaces(workspace: string): string[] {
  const ws = readJson(workspace, MANIFEST)?.workspaces
  const list = isTable(ws) ? ws.packages : ws
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : []
}

/**
 * What a lockfile keyed by name and range (Yarn's) locks for a package's dependency: the entry its
 * declared range resolves to, or null when the package declares no such range.
 */
export function lockedByDeclaredRange(workspace: string, locked: (name: string, range: string) => string | null): (dir: string, name: string) => string | null {
  return (dir, name) => {
    const decl = declarations(workspace, [dir]).get(name)?.[0]
    return decl ? locked(name, decl.range) : null
  }
}

/**
 * Every semver-range dependency of every package in `dirs`, by name (git, file, alias and workspace
 * specs are left out, and so is a package of the workspace itself: the manager links it, the
 * registry's copy is another package).
 */
export function declarations(workspace: string, dirs: readonly string[]): Map<string, Declaration[]> {
  const out = new Map<string, Declaration[]>()
  const manifests = dirs.map((dir) => ({ dir, manifest: readJson(workspace, manifestOf(dir)) }))
  const own = new Set(manifests.map((m) => m.manifest?.name).filter((n) => typeof n === 'string'))
  for (const { dir, manifest } of manifests) {
    if (!manifest) continue
    const seen = new Set<string>()
    for (const type of SECTIONS) {
      const deps = manifest[type]
      if (!isTable(deps)) continue
      for (const [name, range] of Object.entries(deps)) {
        if (typeof range !== 'string' || seen.has(name) || own.has(name) || semver.validRange(range) === null) continue
        seen.add(name)
        out.set(name, [...(out.get(name) ?? []), { dir, type, range }])
      }
    }
  }
  return out
}

/** The range a bump writes: a pin stays a pin, `~`, `>=` and `=` keep their operator, anything else becomes `^<to>`. */
export function bumpedRange(range: string, to: string): string {
  const r = range.trim()
  if (/^v?\d/.test(r) && semver.valid(r)) return to
  const op = /^(~|>=|=)\s*v?\d[^\s|]*$/.exec(r)?.[1]
  return `${op ?? '^'}${to}`
}

/** The manifests in a workspace that declare a package, and the version they are to admit. */
interface ManifestBump {
  workspace: string
  decls: readonly Declaration[]
  name: string
  to: string
}

/** Rewrites `name` in each declaring manifest to admit `to`, its formatting kept; returns the files written. */
export function writeBumpedManifests({ workspace, decls, name, to }: ManifestBump): string[] {
  const files: string[] = []
  for (const d of decls) {
    const rel = manifestOf(d.dir)
    const text = readAgentText(workspace, rel, MAX_JSON_BYTES)
    const manifest = text === null ? null : readJson(workspace, rel)
    if (text === null || !manifest || !isTable(manifest[d.type])) continue
    ;(manifest[d.type] as Json)[name] = bumpedRange(d.range, to)
    const indent = /^[{[]\r?\n([ \t]+)/.exec(text)?.[1] ?? '  '
    const eol = text.includes('\r\n') ? '\r\n' : '\n'
    const body = JSON.stringify(manifest, null, indent).replace(/\n/g, eol)
    writeTreeFile({ root: workspace, rel, data: text.endsWith('\n') ? `${body}${eol}` : body })
    files.push(rel)
  }
  return files
}

/** What the registry lookup needs: the versions published of a name (null: the registry does not know it). */
interface OutdatedSources {
  decls: Map<string, Declaration[]>
  /** The version the lockfile holds for `name` in the package at `dir`. */
  locked(dir: string, name: string): string | null
  versions(name: string): Promise<string[] | null>
}

/**
 * The outdated dependencies across the workspace packages: the version the lockfile holds (the
 * oldest, when packages hold different ones), the newest published and the newest the declared
 * range admits, from the registry itself, four names at a time.
 */
export async function outdatedFromRegistry(src: OutdatedSources): Promise<OutdatedReport> {
  const notes: string[] = []
  const names = [...src.decls.keys()].sort()
  const published = await mapLimited(names, LOOKUP_CONCURRENCY, (n) => src.versions(n))
  const found: OutdatedDependency[] = []
  names.forEach((name, i) => {
    const held = src.decls
      .get(name)!
      .map((d) => ({ d, current: src.locked(d.dir, name) }))
      .filter((h): h is { d: Declaration; current: string } => h.current !== null && semver.valid(h.current) !== null)
      .sort((a, b) => semver.compare(a.current, b.current))
    const versions = published[i]
    if (held.length === 0) return notes.push(`not upgraded: ${name}: the lockfile holds no version of it`)
    if (versions === null) return notes.push(`not upgraded: ${name}: the registry does not know it`)
    const { d, current } = held[0]
    const pre = (semver.prerelease(current)?.length ?? 0) > 0
    const valid = versions.filter((v) => semver.valid(v) !== null && (pre || (semver.prerelease(v)?.length ?? 0) === 0))
    const latest = semver.maxSatisfying(valid, '*', { includePrerelease: pre })
    const wanted = semver.maxSatisfying(valid, d.range, { includePrerelease: pre }) ?? current
    if (!latest || (semver.lte(latest, current) && semver.lte(wanted, current))) return
    found.push({ name, current, wanted, latest, type: d.type })
  })
  return { dependencies: found, notes }
}

/** A `… view <name> versions --json` answer: the version list, or null when the name is unknown. */
export function parseVersions(stdout: string): string[] | null {
  let data: unknown
  try {
    data = JSON.parse(stdout.trim() || 'null')
  } catch {
    return null
  }
  // yarn wraps it: {"type":"inspect","data":[…]}
  if (isTable(data) && data.type === 'inspect') data = data.data
  if (typeof data === 'string') return [data]
  return Array.isArray(data) ? data.filter((v): v is string => typeof v === 'string') : null
}
