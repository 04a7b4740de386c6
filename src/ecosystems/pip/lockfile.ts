import type { LockEntry } from '../types.js'

/** PEP 503's normalized name (`Foo_Bar` and `foo-bar` are one project). */
export const normalizeName = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-')

/** A PEP 508 requirement's name and whether it is a plain index requirement (no `@ url`, no path or URL). */
export function parseRequirement(line: string): { name: string; registry: boolean } | null {
  const text = line.replace(/\s+#.*$/, '').trim()
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$/.exec(text)
  if (!m) return null
  const rest = m[3]
  const registry = !rest.startsWith('@') && !/:\/\/|^file:|\.whl\b|\.tar\.gz\b|\.zip\b/i.test(rest)
  return { name: normalizeName(m[1]), registry }
}

/** A requirements file: one entry per requirement; options (`-e`, `-r`, `--index-url`, `-f`, …) and paths or URLs are not the registry. */
export function requirementsEntries(text: string): LockEntry[] {
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
    const pin = /^[^=<>!~;@\s[]+\s*(?:\[[^\]]*\])?\s*===?\s*([A-Za-z0-9!+._-]+)\s*(?:;|$|\s)/.exec(line)
    const version = pin && !pin[1].includes('*') ? { version: pin[1] } : {}
    out.push({ key: req.name, name: req.name, text: line, registry: req.registry, why: req.registry ? undefined : 'a path or URL', ...version })
  })
  return out
}
