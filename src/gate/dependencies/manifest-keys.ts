import { parse as parseToml, stringify as stringifyToml } from 'smol-toml'
import { manifestAllowedKeys, manifestKind } from '../../ecosystems/registry.js'
import type { ManifestKind } from '../../ecosystems/types.js'

/**
 * Manifests are protected except for an allow-list of keys the agent may change: the dependency
 * tables and the version fields. Everything else in them (`scripts`, `type`, `exports`, `babel`,
 * `jest`, `[tool.pytest…]`, `[tool.setuptools]`, …) can change how the gate runs and is protected,
 * including keys no runner reads today.
 */
export type { ManifestKind }

/** Dotted key paths; `*` stands for any one key. Each ecosystem names its manifests' keys. */
export const MANIFEST_ALLOWED_KEYS: Readonly<Record<ManifestKind, readonly string[]>> = {
  'package-json': manifestAllowedKeys('package-json'),
  pyproject: manifestAllowedKeys('pyproject')
}

const ALLOWED_PATHS: Record<ManifestKind, string[][]> = {
  'package-json': MANIFEST_ALLOWED_KEYS['package-json'].map((k) => k.split('.')),
  pyproject: MANIFEST_ALLOWED_KEYS.pyproject.map((k) => k.split('.'))
}

export { manifestKind }

type Table = Record<string, unknown>

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
}

/**
 * Whether a JSON text repeats a key in one object. Parsers disagree on which copy wins, so a
 * manifest with a repeated key could say one thing to loopgate and another to the runner.
 */
export function hasDuplicateJsonKey(text: string): boolean {
  const stack: { keys: Set<string> | null; expectKey: boolean }[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') {
      let j = i + 1
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      const top = stack[stack.length - 1]
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string
        if (top.keys.has(key)) return true
        top.keys.add(key)
        top.expectKey = false
      }
      i = j
    } else if (c === '{') stack.push({ keys: new Set(), expectKey: true })
    else if (c === '[') stack.push({ keys: null, expectKey: false })
    else if (c === '}' || c === ']') stack.pop()
    else if (c === ',') {
      const top = stack[stack.length - 1]
      if (top?.keys) top.expectKey = true
    }
  }
  return false
}

/** The manifest's document, or null when it does not parse (or is ambiguous). */
export function parseManifest(kind: ManifestKind, text: string): Table | null {
  try {
    if (kind === 'pyproject') return parseToml(text) as Table
    const data = JSON.parse(text) as unknown
    return isTable(data) && !hasDuplicateJsonKey(text) ? data : null
  } catch {
    return null
  }
}

/** The value with every allowed key path removed. */
function withoutAllowed(value: unknown, paths: string[][]): unknown {
  if (!isTable(value) || paths.length === 0) return value
  const out: [string, unknown][] = []
  for (const key of Object.keys(value)) {
    const here = paths.filter((p) => p[0] === key || p[0] === '*')
    if (here.some((p) => p.length === 1)) continue
    out.push([
      key,
      withoutAllowed(
        value[key],
        here.map((p) => p.slice(1))
      )
    ])
  }
  return Object.fromEntries(out)
}

/**
 * A stable text for a document: TOML tables are unordered (keys sorted); JSON keeps its order
 * (`exports` conditions are ordered). Non-finite numbers, big integers and dates keep their type.
 */
function canonical(value: unknown, sortKeys: boolean): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, sortKeys)).join(',')}]`
  if (value instanceof Date) return `date:${JSON.stringify(value.toISOString())}`
  if (typeof value === 'bigint') return `int:${value}`
  if (typeof value === 'number' && !Number.isFinite(value)) return `float:${value}`
  if (isTable(value)) {
    const keys = Object.keys(value)
    if (sortKeys) keys.sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k], sortKeys)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}

const INVALID = 'invalid'

/**
 * The protected projection of a manifest: everything but the allowed keys. Equal projections
 * mean no protected change; a manifest that does not parse projects to `invalid:<text>`.
 */
export function protectedPart(kind: ManifestKind, text: string | null): string {
  const doc = text === null ? {} : parseManifest(kind, text)
  if (doc === null) return `${INVALID}:${text}`
  return canonical(withoutAllowed(doc, ALLOWED_PATHS[kind]), kind === 'pyproject')
}

/** How a manifest's protected part changed from `baseProjection`, or null when it did not. */
export function manifestChange(kind: ManifestKind, baseProjection: string, text: string): string | null {
  const now = protectedPart(kind, text)
  if (now === baseProjection) return null
  return now.startsWith(`${INVALID}:`) ? 'does not parse' : 'test-relevant keys changed'
}

/** `base`'s protected keys with `current`'s allowed keys: what the agent may keep of its edit. */
function mergeAllowed(base: Table, current: Table, paths: string[][]): Table {
  const out: [string, unknown][] = []
  const take = (key: string, fromBase: boolean, fromCurrent: boolean): void => {
    const here = paths.filter((p) => p[0] === key || p[0] === '*')
    if (here.some((p) => p.length === 1)) {
      if (fromCurrent) out.push([key, current[key]])
    } else if (here.length && (isTable(base[key]) || !fromBase) && isTable(current[key])) {
      const merged = mergeAllowed(
        fromBase ? (base[key] as Table) : {},
        current[key] as Table,
        here.map((p) => p.slice(1))
      )
      if (fromBase || Object.keys(merged).length) out.push([key, merged])
    } else if (fromBase) out.push([key, base[key]])
  }
  for (const key of Object.keys(base)) take(key, true, Object.hasOwn(current, key))
  for (const key of Object.keys(current)) if (!Object.hasOwn(base, key)) take(key, false, true)
  return Object.fromEntries(out)
}

/**
 * `current` with the protected part of `base` put back; edits to allowed keys survive. The base
 * text is kept verbatim when the agent changed nothing allowed; null when there is nothing to
 * keep (no base, and `current` does not parse).
 */
export function restoreManifest(kind: ManifestKind, current: string, base: string | null): string | null {
  const before = base === null ? {} : parseManifest(kind, base)
  const now = parseManifest(kind, current)
  if (before === null || now === null) return base
  // Nothing protected differs: `current` is the answer as written (a TOML rewrite would drop its comments).
  if (base !== null && protectedPart(kind, current) === protectedPart(kind, base)) return current
  const merged = mergeAllowed(before, now, ALLOWED_PATHS[kind])
  const sortKeys = kind === 'pyproject'
  if (base !== null && canonical(merged, sortKeys) === canonical(before, sortKeys)) return base
  let text: string
  if (kind === 'pyproject') {
    try {
      text = stringifyToml(merged)
    } catch {
      return base
    }
  } else {
    const indent = /^\{\r?\n([ \t]+)"/.exec(current)?.[1] ?? '  '
    text = `${JSON.stringify(merged, null, indent)}\n`
  }
  return protectedPart(kind, text) === protectedPart(kind, base) ? text : base
}
