import { createHash } from 'node:crypto'
import { readTreeEntry } from '../../fs/tree.js'
import type { DependencyType } from '../types.js'
import { parseRequirement, widenSpecifier, admits, type Requirement } from './specifiers.js'
import { editStrings, parseToml, type StringEdit, type TomlTable } from './toml-strings.js'

export const PYPROJECT = 'pyproject.toml'
const MAX_PYPROJECT_BYTES = 4 * 1024 * 1024

const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)

/** One requirement string of a PEP 621 / PEP 735 table. */
export interface Declaration {
  /** `project.dependencies`, `project.optional-dependencies.test`, `dependency-groups.dev`. */
  table: string
  text: string
  requirement: Requirement
  type: DependencyType
}

/** The lists of requirement strings a bump may edit, with the dependency type each stands for. */
function requirementLists(doc: TomlTable): { table: string; list: unknown[]; type: DependencyType }[] {
  const out: { table: string; list: unknown[]; type: DependencyType }[] = []
  const project = isTable(doc.project) ? doc.project : {}
  if (Array.isArray(project.dependencies)) out.push({ table: 'project.dependencies', list: project.dependencies, type: 'dependencies' })
  const groupsOf = (prefix: string, value: unknown, type: DependencyType): void => {
    if (!isTable(value)) return
    for (const [name, list] of Object.entries(value)) if (Array.isArray(list)) out.push({ table: `${prefix}.${name}`, list, type })
  }
  groupsOf('project.optional-dependencies', project['optional-dependencies'], 'optionalDependencies')
  groupsOf('dependency-groups', doc['dependency-groups'], 'devDependencies')
  return out
}

/** Every requirement string of `project.dependencies`, `project.optional-dependencies` and `dependency-groups`. */
export function declarations(doc: TomlTable): Declaration[] {
  return requirementLists(doc).flatMap(({ table, list, type }) =>
    list.flatMap((text) => {
      const requirement = typeof text === 'string' ? parseRequirement(text) : null
      return requirement ? [{ table, text: text as string, requirement, type }] : []
    })
  )
}

/** pyproject.toml's text and document, when it is a regular file that parses. */
export function readPyproject(workspace: string): { text: string; doc: TomlTable; executable: boolean } | null {
  const entry = readTreeEntry(workspace, PYPROJECT, MAX_PYPROJECT_BYTES)
  if (entry.kind !== 'file') return null
  const text = entry.data.toString('utf8')
  const doc = parseToml(text)
  return doc ? { text, doc, executable: entry.executable } : null
}

export function fileHash(workspace: string, file: string): string {
  const entry = readTreeEntry(workspace, file, MAX_PYPROJECT_BYTES)
  return entry.kind === 'file' ? `${file}:${createHash('sha256').update(entry.data).digest('hex').slice(0, 32)}` : 'none'
}

/** The widened requirements of one package: the edits, or why a declaration cannot admit `to`. */
export function wideningEdits(decls: readonly Declaration[], key: string, to: string): StringEdit[] | string {
  const edits: StringEdit[] = []
  for (const d of decls.filter((x) => x.requirement.key === key)) {
    const { clauses, specifier } = d.requirement
    if (clauses === null || admits(clauses, to)) continue
    const widened = widenSpecifier(specifier, to)
    if (widened === null) return `${d.table}: ${JSON.stringify(d.text)} cannot be widened to admit ${to}`
    edits.push({ from: d.text, old: specifier, replacement: widened })
  }
  return edits
}

/** The edits applied to the document's requirement lists, as the re-parsed file must read. */
function expectedDocument(doc: TomlTable, edits: readonly StringEdit[]): TomlTable {
  const copy = structuredClone(doc)
  for (const { list } of requirementLists(copy)) {
    list.forEach((item, i) => {
      const edit = edits.find((e) => e.from === item)
      if (edit) list[i] = edit.from.replace(edit.old, edit.replacement)
    })
  }
  return copy
}

/** The text with the edits made in place, or null when the file would change in any other way. */
export function applyEdits(text: string, doc: TomlTable, edits: readonly StringEdit[]): string | null {
  const out = editStrings(text, edits)
  const reparsed = out === null ? null : parseToml(out)
  if (reparsed === null || JSON.stringify(reparsed) !== JSON.stringify(expectedDocument(doc, edits))) return null
  return out
}
