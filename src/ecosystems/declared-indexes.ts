import { parseToml, type TomlTable } from './pyproject/toml-strings.js'

/*
 * The package indexes a project's own files name, besides its ecosystems' public registries: a
 * Poetry `[[tool.poetry.source]]`, a uv `[[tool.uv.index]]`, a requirements file's `--index-url`,
 * `--extra-index-url` or `--find-links`. An install the gate's setup runs reaches them.
 */

/** The files whose declared indexes are read: the root's pyproject.toml and requirements files (also in a `requirements/` folder). */
export function indexDeclaringFile(file: string): boolean {
  return file === 'pyproject.toml' || /^[^/]*requirements[^/]*\.(?:txt|in)$/.test(file) || /^requirements\/[^/]+\.(?:txt|in)$/.test(file)
}

const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)

function urlsOf(tables: unknown): string[] {
  if (!Array.isArray(tables)) return []
  return tables.flatMap((t) => (isTable(t) && typeof t.url === 'string' ? [t.url] : []))
}

function pyprojectIndexes(text: string): string[] {
  const doc = parseToml(text)
  const tool = doc && isTable(doc.tool) ? doc.tool : {}
  const poetry = isTable(tool.poetry) ? tool.poetry : {}
  const uv = isTable(tool.uv) ? tool.uv : {}
  const extra = Array.isArray(uv['extra-index-url']) ? uv['extra-index-url'].filter((u): u is string => typeof u === 'string') : []
  return [...urlsOf(poetry.source), ...urlsOf(uv.index), ...(typeof uv['index-url'] === 'string' ? [uv['index-url']] : []), ...extra]
}

const OPTION = /^\s*(?:-i|--index-url|--extra-index-url|-f|--find-links)(?:\s*=\s*|\s+)(\S+)/

function requirementsIndexes(text: string): string[] {
  return text.split(/\r?\n/).flatMap((line) => {
    const m = OPTION.exec(line)
    return m ? [m[1]] : []
  })
}

/** The index URLs `file` (its path in the repository, and its text) declares. */
export function declaredIndexUrls(file: string, text: string): string[] {
  return file === 'pyproject.toml' ? pyprojectIndexes(text) : requirementsIndexes(text)
}
