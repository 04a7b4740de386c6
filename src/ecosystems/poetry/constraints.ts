import { parsePep440 } from '../pip/pep440.js'
import { admits, widenSpecifier, type Clause } from '../pyproject/specifiers.js'

/*
 * Poetry's version constraints: `^1.2` (up to the next first non-zero number), `~1.2` (up to the
 * next minor), a bare `1.2.3` (exactly), `*`, and PEP 440 clauses separated by commas. A union
 * (`||`) is not edited.
 */

const release = (v: string): number[] | null => parsePep440(v)?.release ?? null

function caretUpper(r: number[]): string {
  const level = r.findIndex((n) => n !== 0)
  const at = level < 0 ? r.length - 1 : level
  return Array.from({ length: at + 1 }, (_, i) => (i < at ? r[i] : r[i] + 1)).join('.')
}

function tildeUpper(r: number[]): string {
  const at = r.length === 1 ? 0 : 1
  return Array.from({ length: at + 1 }, (_, i) => (i < at ? r[i] : r[i] + 1)).join('.')
}

/** The PEP 440 clauses of one constraint, or null for one loopgate does not read (a union, a wildcard it cannot map). */
export function poetryClauses(constraint: string): Clause[] | null {
  const text = constraint.trim()
  if (text === '' || text === '*') return []
  if (text.includes('||')) return null
  const out: Clause[] = []
  for (const piece of text.split(/\s*,\s*|\s+(?=[<>=!~^])/)) {
    const m = /^(\^|~(?!=)|===|~=|==|!=|<=|>=|<|>)?\s*(\S+)$/.exec(piece)
    if (!m) return null
    const [op, version] = [m[1] ?? '', m[2]]
    const r = release(version.replace(/\.\*$/, ''))
    if (!r) return null
    if (op === '^') out.push({ op: '>=', version }, { op: '<', version: caretUpper(r) })
    else if (op === '~') out.push({ op: '>=', version }, { op: '<', version: tildeUpper(r) })
    else out.push({ op: (op || '==') as Clause['op'], version })
  }
  return out
}

export function poetryAdmits(constraint: string, version: string): boolean {
  const clauses = poetryClauses(constraint)
  return clauses !== null && admits(clauses, version)
}

/** The constraint widened to admit `to` in the style written (`^1.2` → `^2.0`, `1.0.0` → `2.0.0`); null when it cannot be. */
export function widenPoetry(constraint: string, to: string): string | null {
  const text = constraint.trim()
  if (poetryAdmits(text, to)) return text
  const target = release(to)
  const m = /^(\^|~(?!=))\s*(\S+)$/.exec(text)
  if (m && target) {
    const own = release(m[2])
    if (!own) return null
    const widened = `${m[1]}${Array.from({ length: own.length }, (_, i) => target[i] ?? 0).join('.')}`
    return poetryAdmits(widened, to) ? widened : null
  }
  if (/^\d[\w.!+-]*$/.test(text)) return to
  const pep440 = text.includes(',') || /^[<>=!~]/.test(text) ? widenSpecifier(text, to) : null
  return pep440 !== null && poetryAdmits(pep440, to) ? pep440 : null
}
