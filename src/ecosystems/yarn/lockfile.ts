import { berryLockEntries } from './berry-lockfile.js'
import type { LockEntry } from '../types.js'

/** One entry of a Yarn classic lockfile: the specs that resolve to it and its fields. */
interface YarnBlock {
  header: string
  specs: string[]
  version: string | null
  resolved: string | null
  integrity: string | null
  text: string
}

const unquote = (s: string): string => s.trim().replace(/^"(.*)"$/, '$1')

/** Yarn Berry's lockfile (YAML with a `__metadata` entry), which the classic parser does not read. */
export const isBerryLock = (text: string): boolean => /^"?__metadata"?:/m.test(text)

/** A yarn.lock v1 block by block; null for a Berry lockfile or one that does not parse. */
export function parseYarnLock(text: string): YarnBlock[] | null {
  if (isBerryLock(text)) return null
  const blocks: YarnBlock[] = []
  let current: YarnBlock | null = null
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue
    if (!/^\s/.test(line)) {
      if (!line.endsWith(':')) return null
      const header = line.slice(0, -1)
      current = { header, specs: header.split(/,\s*/).map(unquote), version: null, resolved: null, integrity: null, text: '' }
      blocks.push(current)
      continue
    }
    if (!current) return null
    current.text += `${line.trim()}\n`
    const field = /^ {2}(\w+) (.+)$/.exec(line)
    if (field && ['version', 'resolved', 'integrity'].includes(field[1])) current[field[1] as 'version' | 'resolved' | 'integrity'] = unquote(field[2])
  }
  return blocks
}

/** The package name of a spec (`@s/a@^1.0.0` is `@s/a`). */
function specName(spec: string): string {
  const at = spec.indexOf('@', 1)
  return at > 0 ? spec.slice(0, at) : spec
}

/** The version the lockfile resolves `name@range` to. */
export function yarnLocked(blocks: readonly YarnBlock[] | null, name: string, range: string): string | null {
  return blocks?.find((b) => b.specs.includes(`${name}@${range}`))?.version ?? null
}

function judge(b: YarnBlock, registryHosts: readonly string[]): string | undefined {
  const resolved = (b.resolved ?? '').replace(/#.*$/, '')
  if (!/^https?:\/\//.test(resolved)) return resolved ? `resolved from ${resolved.slice(0, 100)}` : 'no registry tarball'
  if (!registryHosts.some((h) => resolved.startsWith(h)) || !resolved.includes('/-/')) return `resolved from ${resolved.slice(0, 100)}, not the registry`
  if (!b.integrity || !/^sha(?:1|256|384|512)-/.test(b.integrity)) return 'no integrity'
  return undefined
}

/** yarn.lock entry by entry (classic's judged by where each resolved from, Berry's by its resolution); null for one that does not parse. */
export function yarnLockEntries(text: string, registryHosts: readonly string[]): LockEntry[] | null {
  if (isBerryLock(text)) return berryLockEntries(text)?.map(withBerryVersion) ?? null
  const blocks = parseYarnLock(text)
  if (!blocks) return null
  return blocks.map((b) => {
    const why = judge(b, registryHosts)
    return {
      key: b.header,
      name: specName(b.specs[0] ?? b.header),
      text: b.text,
      registry: why === undefined,
      why,
      ...(b.version ? { version: b.version } : {})
    }
  })
}

/** A Berry entry with the version its `version` field names (a workspace's entry names none: it mirrors its package.json). */
function withBerryVersion(entry: LockEntry): LockEntry {
  if (entry.key === '__metadata') return entry
  let fields: unknown
  try {
    fields = JSON.parse(entry.text)
  } catch {
    return entry
  }
  const version = typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>).version : undefined
  const resolution = typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>).resolution : undefined
  if (typeof resolution === 'string' && resolution.includes('@workspace:')) return { ...entry, mirror: true }
  return typeof version === 'string' ? { ...entry, version } : entry
}
