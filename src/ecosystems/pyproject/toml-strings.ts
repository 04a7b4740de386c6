import { parse } from 'smol-toml'

/*
 * Edits of one string value in a TOML file that keep every other byte: the string tokens are
 * found by a small scanner (comments skipped), one token's text is changed, and the result is
 * parsed again to check that the document changed exactly as intended.
 */

interface TomlString {
  /** The offsets of the token's content (inside the quotes). */
  start: number
  end: number
  /** The decoded value. */
  value: string
}

const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\', e: '\x1b' }

function decodeBasic(raw: string): string {
  return raw.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)/gs, (_, e: string) =>
    /^[uUx]/.test(e) && e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e)
  )
}

/** Where the string starting at `i` (after its opening `quote`) ends: the closing quote's offset, or -1. */
function closing(text: string, i: number, quote: string): number {
  const basic = quote.startsWith('"')
  for (let j = i; j < text.length; j++) {
    if (basic && text[j] === '\\') {
      j++
      continue
    }
    if (quote.length === 1 && text[j] === '\n') return -1
    if (text.startsWith(quote, j)) {
      // `""""` closes a multi-line string with one quote of content before it.
      let k = j
      while (quote.length === 3 && text[k + 3] === quote[0] && k - j < 2) k++
      return k
    }
  }
  return -1
}

/** Every string token of a TOML text, keys included, in order. */
export function tomlStrings(text: string): TomlString[] {
  const out: TomlString[] = []
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '#') {
      const nl = text.indexOf('\n', i)
      i = nl < 0 ? text.length : nl
      continue
    }
    if (ch !== '"' && ch !== "'") continue
    const quote = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch
    const start = i + quote.length
    const end = closing(text, start, quote)
    if (end < 0) return out
    const raw = text.slice(start, end)
    out.push({ start, end, value: quote.startsWith('"') ? decodeBasic(raw) : raw })
    i = end + quote.length - 1
  }
  return out
}

/** One string value to change: every token whose value is `from` gets `to`'s text (plain, no escapes needed). */
export interface StringEdit {
  from: string
  /** The replacement of `from`'s part `old` by `replacement`. */
  old: string
  replacement: string
}

/**
 * `text` with each token whose value is one of the edits' `from` changed in place (only the
 * `old` part of its text), or null when a token's text does not hold that part exactly once.
 */
export function editStrings(text: string, edits: readonly StringEdit[]): string | null {
  let out = ''
  let last = 0
  for (const token of tomlStrings(text)) {
    const edit = edits.find((e) => e.from === token.value)
    if (!edit) continue
    const raw = text.slice(token.start, token.end)
    const at = raw.indexOf(edit.old)
    if (at < 0 || raw.indexOf(edit.old, at + 1) >= 0) return null
    out += text.slice(last, token.start + at) + edit.replacement
    last = token.start + at + edit.old.length
  }
  return out + text.slice(last)
}

export type TomlTable = Record<string, unknown>

/** The document, or null when it does not parse. */
export function parseToml(text: string): TomlTable | null {
  try {
    return parse(text) as TomlTable
  } catch {
    return null
  }
}

/**
 * `text` with the one string token whose value is `edit.from` changed so that the document reads
 * `expected`: each such token is tried alone (several packages may share a text such as `^1.0`),
 * and the first rewrite that parses to `expected` is taken; null when none does.
 */
export function editOneString(text: string, edit: StringEdit, expected: TomlTable): string | null {
  const want = JSON.stringify(expected)
  for (const token of tomlStrings(text)) {
    if (token.value !== edit.from) continue
    const raw = text.slice(token.start, token.end)
    const at = raw.indexOf(edit.old)
    if (at < 0 || raw.indexOf(edit.old, at + 1) >= 0) continue
    const out = text.slice(0, token.start + at) + edit.replacement + text.slice(token.start + at + edit.old.length)
    const reparsed = parseToml(out)
    if (reparsed !== null && JSON.stringify(reparsed) === want) return out
  }
  return null
}
