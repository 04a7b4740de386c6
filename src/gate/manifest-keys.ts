import { pyprojectProtectedPart, restorePyproject } from './toml-tables.js'

/** package.json keys that decide how tests run; dependency fields stay editable. */
export const PACKAGE_JSON_PROTECTED_KEYS = [
  'scripts',
  'jest',
  'mocha',
  'ava',
  'c8',
  'nyc',
  'vitest',
  'tap',
  'jasmine',
  'karma',
  'playwright',
  'cypress',
  'uvu',
  'tape',
  'xo',
  'type',
  'imports'
] as const

export type ManifestKind = 'package-json' | 'pyproject'

export function manifestKind(file: string): ManifestKind | null {
  const base = file.split('/').pop()
  if (base === 'package.json') return 'package-json'
  if (base === 'pyproject.toml') return 'pyproject'
  return null
}

function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return {}
  try {
    const data = JSON.parse(text) as unknown
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The protected projection of a manifest: equal projections mean no test-relevant change. */
export function protectedPart(kind: ManifestKind, text: string | null): string {
  if (kind === 'pyproject') return pyprojectProtectedPart(text)
  const data = parseJsonObject(text)
  if (data === null) return `invalid:${text}`
  const picked: Record<string, unknown> = {}
  for (const key of PACKAGE_JSON_PROTECTED_KEYS) if (key in data) picked[key] = data[key]
  return JSON.stringify(picked)
}

/** `current` with the protected part of `base` put back; other edits (dependencies) survive. */
export function restoreManifest(kind: ManifestKind, current: string, base: string | null): string | null {
  if (kind === 'pyproject') return restorePyproject(current, base)
  const now = parseJsonObject(current)
  const before = parseJsonObject(base)
  if (now === null || before === null) return base
  for (const key of PACKAGE_JSON_PROTECTED_KEYS) {
    if (key in before) now[key] = before[key]
    else delete now[key]
  }
  const indent = /^\{\n(\s+)"/.exec(current)?.[1] ?? '  '
  return `${JSON.stringify(now, null, indent)}\n`
}
