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
  let why: string | undefined
  if (npmName(key) === null) why = `${key} is a folder of the tree`
  else if (entry.link === true) why = 'a link to a folder of the tree'
  else if (!/^https?:\/\//.test(resolved)) why = resolved ? `resolved from ${resolved.slice(0, 100)}` : 'no registry tarball'
  else if (!registryHosts.some((h) => resolved.startsWith(h)) || !resolved.includes('/-/')) why = `resolved from ${resolved.slice(0, 100)}, not the registry`
  else if (typeof entry.integrity !== 'string' || !/^sha(?:256|384|512)-/.test(entry.integrity)) why = 'no integrity'
  return { key, name, text, registry: why === undefined, why }
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
  for (const [key, value] of Object.entries(doc.packages)) {
    // The root entry mirrors package.json, whose dependency entries are checked on their own.
    if (key === '') out.push({ key: '', name: '(root)', text: JSON.stringify(value), registry: true })
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
