/**
 * A small TOML reader that only splits a document into its tables: enough to protect
 * `[tool.pytest…]` and `[tool.coverage…]` while leaving dependency tables editable.
 */
export interface TomlTable {
  /** The header's dotted name without brackets and quotes, '' for the top-level table. */
  name: string
  /** The table's text, header line included. */
  text: string
}

function headerName(line: string): string | null {
  const m = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line)
  if (!m) return null
  return m[1]
    .split('.')
    .map((part) => part.trim().replace(/^(["'])(.*)\1$/, '$2'))
    .join('.')
}

/** Splits TOML text into tables, keeping multi-line strings inside the table they start in. */
export function splitTomlTables(text: string): TomlTable[] {
  const tables: TomlTable[] = []
  let current: TomlTable = { name: '', text: '' }
  let openString: '"""' | "'''" | null = null
  for (const line of text.split(/(?<=\n)/)) {
    if (!openString) {
      const name = headerName(line)
      if (name !== null) {
        tables.push(current)
        current = { name, text: line }
        continue
      }
    }
    current.text += line
    for (const delim of ['"""', "'''"] as const) {
      const count = line.split(delim).length - 1
      if (count % 2 === 1 && (openString === null || openString === delim)) openString = openString ? null : delim
    }
  }
  tables.push(current)
  return tables
}

const PROTECTED_TABLE = /^tool\.(?:pytest|coverage)(?:\.|$)/
/** Dotted keys in the `[tool]` table, e.g. `pytest.ini_options = {…}`. */
const PROTECTED_TOOL_KEY = /^\s*["']?(?:pytest|coverage)["']?\s*[.=]/

/** The test-relevant part of a pyproject.toml: the pytest and coverage tables, canonicalised. */
export function pyprojectProtectedPart(text: string | null): string {
  if (text === null) return ''
  const parts: string[] = []
  for (const table of splitTomlTables(text.replace(/\r\n/g, '\n'))) {
    if (PROTECTED_TABLE.test(table.name)) parts.push(table.text.trimEnd())
    else if (table.name === 'tool') {
      const keys = table.text.split('\n').filter((l) => PROTECTED_TOOL_KEY.test(l))
      if (keys.length) parts.push(`[tool]\n${keys.join('\n')}`)
    }
  }
  return parts.join('\n')
}

/** `current` with its pytest/coverage tables replaced by those of `base`; the rest is kept. */
export function restorePyproject(current: string, base: string | null): string {
  const baseTables = base === null ? [] : splitTomlTables(base.replace(/\r\n/g, '\n')).filter((t) => PROTECTED_TABLE.test(t.name))
  const kept = splitTomlTables(current.replace(/\r\n/g, '\n'))
    .filter((t) => !PROTECTED_TABLE.test(t.name))
    .map((t) => (t.name === 'tool' ? { ...t, text: t.text.split('\n').filter((l) => !PROTECTED_TOOL_KEY.test(l)).join('\n') } : t))
  const baseToolKeys =
    base === null
      ? []
      : splitTomlTables(base.replace(/\r\n/g, '\n'))
          .filter((t) => t.name === 'tool')
          .flatMap((t) => t.text.split('\n').filter((l) => PROTECTED_TOOL_KEY.test(l)))
  if (baseToolKeys.length) {
    const tool = kept.find((t) => t.name === 'tool')
    if (tool) tool.text = `${tool.text.trimEnd()}\n${baseToolKeys.join('\n')}\n`
    else kept.push({ name: 'tool', text: `[tool]\n${baseToolKeys.join('\n')}\n` })
  }
  let out = kept.map((t) => t.text).join('')
  for (const t of baseTables) out = `${out.trimEnd()}\n\n${t.text.trimEnd()}\n`
  return out
}
