import picomatch from 'picomatch'
import semver from 'semver'
import type { LockEntry } from '../types.js'

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
  // Written with `omit-lockfile-registry-resolved`, a registry entry has no `resolved`: npm fetches name@version from the configured registry.
  const fromConfigured = resolved === '' && typeof entry.version === 'string' && semver.valid(entry.version) !== null
  let why: string | undefined
  if (npmName(key) === null) why = `${key} is a folder of the tree`
  else if (entry.link === true) why = 'a link to a folder of the tree'
  else if (fromConfigured) why = undefined
  else if (!/^https?:\/\//.test(resolved)) why = resolved ? `resolved from ${resolved.slice(0, 100)}` : 'no registry tarball'
  else if (!registryHosts.some((h) => resolved.startsWith(h)) || !resolved.includes('/-/')) why = `resolved from ${resolved.slice(0, 100)}, not the registry`
  if (why === undefined && (typeof entry.integrity !== 'string' || !/^sha(?:256|384|512)-/.test(entry.integrity))) why = 'no integrity'
  const version = typeof entry.version === 'string' && entry.link !== true ? { version: entry.version } : {}
  return { key, name, text, registry: why === undefined, why, ...version }
}

/**
 * Whether `key` is a workspace package's entry (`packages/a`, a folder the root entry's `workspaces`
 * name): it mirrors that package's own package.json, as the root entry mirrors the root's; how the
 * package is installed is its `node_modules/a` link's entry.
 */
function workspaceFolders(root: unknown): (key: string, value: unknown) => boolean {
  const ws = isTable(root) ? root.workspaces : undefined
  const list = isTable(ws) ? ws.packages : ws
  const patterns = (Array.isArray(list) ? list : [])
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '' && !p.startsWith('!'))
    .map((p) => p.trim().replace(/^\.\//, '').replace(/\/+$/, ''))
  if (patterns.length === 0) return () => false
  const named = picomatch(patterns)
  return (key, value) =>
    npmName(key) === null && !key.split('/').includes('..') && isTable(value) && value.resolved === undefined && value.link === undefined && named(key)
}

/** package-lock.json and npm-shrinkwrap.json, entry by entry; null when it does not parse. */
export function packageLockEntries(text: string, registryHosts: readonly string[]): LockEntry[] | null {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    return null
  }
  if (!isTable(doc) || !isTable(doc.packages)) return null
  const out: LockEntry[] = []
  const isWorkspace = workspaceFolders(doc.packages[''])
  for (const [key, value] of Object.entries(doc.packages)) {
    // The root entry mirrors package.json, whose dependency entries are checked on their own.
    if (key === '') out.push({ key: '', name: '(root)', text: JSON.stringify(value), registry: true, mirror: true })
    else if (isWorkspace(key, value)) out.push({ key, name: `(workspace ${key})`, text: JSON.stringify(value), registry: true, mirror: true })
    else out.push(npmEntry(key, value, registryHosts))
  }
  return out
}

/** The npm registry URL prefixes the gate trusts: the public registry and the configured one. */
export function npmRegistryHosts(env: NodeJS.ProcessEnv): string[] {
  const hosts = ['https://registry.npmjs.org/', 'https://registry.yarnpkg.com/']
  const configured = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY
  if (configured && /^https?:\/\//.test(configured)) hosts.push(configured.endsWith('/') ? configured : `${configured}/`)
  return hosts
}
