import picomatch from 'picomatch'
import { TEST_RUNNERS } from '../reports/runner-registry.js'

/**
 * Test files a runner's configuration names by a family of its own: `*.test-browser.ts`,
 * `*.spec-e2e.mjs` (vitest's and jest's `include` / `testMatch`). Each such family in a base
 * configuration is protected at any depth, like `*.test.*`.
 */

/** The runners' configuration files, and the root package.json (jest's `jest` key). */
const CONFIG = picomatch([...TEST_RUNNERS.flatMap((r) => r.configFiles), 'package.json'], { dot: true })

/** `.test-<word>.` / `.spec-<word>.` (or `.{test,spec}-<word>.`) inside a glob or a regular expression the configuration holds. */
const FAMILY = /[.](test|spec|\{(?:test|spec)(?:,(?:test|spec))*\}|\((?:test|spec)(?:\|(?:test|spec))*\))-([A-Za-z0-9_]+)\\*[.]/g

/** Whether a path of the base is a runner configuration whose families are read. */
export function namesTestFamilies(file: string): boolean {
  return CONFIG(file)
}

/** The protected patterns for the families a configuration's text names. */
export function testFamilyPatterns(text: string): string[] {
  const out = new Set<string>()
  for (const m of text.matchAll(FAMILY)) for (const kind of m[1].match(/test|spec/g) ?? []) out.add(`**/*.${kind}-${m[2]}.*`)
  return [...out]
}
