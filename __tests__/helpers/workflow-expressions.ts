/**
 * The part of GitHub's expression language the workflows in this repository put in values:
 * `${{ a.b[0].c || 'literal' || d }}`, context paths joined by `||`. Enough to evaluate a
 * concurrency group or a step's `with:` for a given event, as the runner would; anything else
 * (functions, comparisons) throws, so a test never silently evaluates what it cannot read.
 */

export type Contexts = Record<string, unknown>

const PATH = /^[A-Za-z_][\w-]*(?:\.[A-Za-z_*][\w-]*|\[\d+\])*$/
const LITERAL = /^'((?:[^']|'')*)'$/

function lookup(path: string, contexts: Contexts): unknown {
  const parts = path.match(/[A-Za-z_*][\w-]*|\[\d+\]/g) ?? []
  let value: unknown = contexts
  for (const part of parts) {
    if (value === null || typeof value !== 'object') return undefined
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part
    value = (value as Record<string | number, unknown>)[key]
  }
  return value
}

function term(text: string, contexts: Contexts): unknown {
  const t = text.trim()
  const literal = LITERAL.exec(t)
  if (literal) return literal[1].replace(/''/g, "'")
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t)
  if (t === 'true' || t === 'false') return t === 'true'
  if (!PATH.test(t)) throw new Error(`unsupported expression term: ${t}`)
  return lookup(t, contexts)
}

/** One expression (without `${{ }}`): the first truthy term of an `||` chain, else the last. */
export function evaluate(expression: string, contexts: Contexts): unknown {
  const terms = expression.split('||')
  let value: unknown
  for (const t of terms) {
    value = term(t, contexts)
    if (value !== undefined && value !== null && value !== '' && value !== false && value !== 0) return value
  }
  return value
}

/** As the runner renders a value: each `${{ … }}` replaced by its value as a string ('' for none). */
export function substitute(text: string, contexts: Contexts): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => {
    const value = evaluate(expr, contexts)
    return value === undefined || value === null ? '' : String(value)
  })
}
