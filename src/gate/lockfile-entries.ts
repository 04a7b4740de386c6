import { normalizeName, parseRequirement } from './dependency-specs.js'

/**
 * What a lockfile resolves, one entry per installed package: its name, a text that changes when
 * anything about the entry changes, and whether it comes from a package registry (a registry
 * tarball with its integrity, or a plain index requirement). Lockfiles loopgate cannot read entry by
 * entry come back null: any change to them is refused whatever `dependency-changes` says.
 */
export interface LockEntry {
  /** Where in the lockfile (`node_modules/chai`, a requirement's name). */
  key: string
  name: string
  text: string
  registry: boolean
  /** Why it is not from the registry (for the message). */
  why?: string
}

/** Lockfile names at any depth, and how each is read. */
export const LOCKFILE_NAMES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'uv.lock',
  'poetry.lock',
  'Pipfile.lock',
  'pdm.lock'
]
const REQUIREMENTS = /^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$/

export function isLockfile(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1)
  return LOCKFILE_NAMES.includes(base) || REQUIREMENTS.test(base) || base === 'Pipfile'
}

type Table = Record<string, unknown>
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The package name of a `packages` key: the part after its last `node_modules/`. */
function npmName(key: string): string | null {
  const i = key.lastIndexOf('node_modules/')
  return i === -1 ? null : key.slice(i + 'node_modules/'.length)
}

function npmEntry(key: string, value: unknown, registryHosts: readonly string[]): LockEntry {
  const entry = isTable(value) ? value : {}
  const name = npmName(key) ?? key
  const text = JSON.stringify(entry)
  const resolved = typeof entry.resolved === 'string' ? entry.resolved : ''
  let why: string | undefined
  if (npmName(key) === null) why = `${key} is a folder of the tree`
  else if (entry.link === true) why = 'a link to a folder of the tree'
  else if (!/^https?:\/\//.test(resolved)) why = resolved ? `resolved from ${resolved.slice(0, 100)}` : 'no registry tarball'
  else if (!registryHosts.some((h) => resolved.startsWith(h)) || !resolved.includes('/-/')) why = `resolved from ${resolved.slice(0, 100)}, not the registry`
  else if (typeof entry.integrity !== 'string' || !/^sha(?:256|384|512)-/.test(entry.integrity)) why = 'no integrity'
  return { key, name, text, registry: why === undefined, why }
}

function packageLock(text: string, registryHosts: readonly string[]): LockEntry[] | null {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    return null
  }
  if (!isTable(doc) || !isTable(doc.packages)) return null
  const out: LockEntry[] = []
  for (const [key, value] of Object.entries(doc.packages)) {
    // The root entry mirrors package.json, whose dependency entries are checked on their own.
    if (key === '') out.push({ key: '', name: '(root)', text: JSON.stringify(value), registry: true })
    else out.push(npmEntry(key, value, registryHosts))
  }
  return out
}

/** requirements.txt: one entry per requirement; options (`-e`, `-r`, `--index-url`, `-f`, …) and paths or URLs are not the registry. */
function requirements(text: string): LockEntry[] {
  const out: LockEntry[] = []
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)
  lines.forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim()
    if (!line) return
    const req = line.startsWith('-') ? null : parseRequirement(line)
    if (!req) {
      out.push({ key: `line ${i + 1}`, name: line.slice(0, 80), text: line, registry: false, why: 'an option, path or URL' })
      return
    }
    // Hashes and markers belong to the requirement's text.
    out.push({ key: req.name, name: req.name, text: line, registry: req.registry, why: req.registry ? undefined : 'a path or URL' })
  })
  return out
}

/**
 * The entries of lockfile `file`, or null when loopgate does not read that kind entry by entry.
 * `registryHosts`: URL prefixes of the npm registry (its tarballs are `<host>…/-/…`).
 */
export function lockEntries(file: string, text: string, registryHosts: readonly string[]): LockEntry[] | null {
  const base = file.slice(file.lastIndexOf('/') + 1)
  if (base === 'package-lock.json' || base === 'npm-shrinkwrap.json') return packageLock(text, registryHosts)
  if (REQUIREMENTS.test(base)) return requirements(text)
  return null
}

/** The npm registry URL prefixes the gate trusts: the public registry and the configured one. */
export function npmRegistryHosts(env: NodeJS.ProcessEnv): string[] {
  const hosts = ['https://registry.npmjs.org/', 'https://registry.yarnpkg.com/']
  const configured = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY
  if (configured && /^https?:\/\//.test(configured)) hosts.push(configured.endsWith('/') ? configured : `${configured}/`)
  return hosts
}

/** Entries added or changed from `before` to `after`, and the names of those removed. */
export function changedLockEntries(before: LockEntry[], after: LockEntry[]): { changed: LockEntry[]; removed: string[] } {
  const old = new Map(before.map((e) => [e.key, e.text]))
  const keys = new Set(after.map((e) => e.key))
  return {
    changed: after.filter((e) => old.get(e.key) !== e.text),
    removed: before.filter((e) => !keys.has(e.key)).map((e) => normalizeName(e.name))
  }
}
