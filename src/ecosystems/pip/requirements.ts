import { normalizeName } from './lockfile.js'
import { parsePep440 } from './pep440.js'

/*
 * The exact pins of a requirements file (`name==1.2.3`, `name[extra]==1.2.3 ; marker  # comment`).
 * Everything else (options, `-r`/`-e` lines, ranges, URLs, hash-checked pins, lines continued with
 * `\`) is left alone, and a rewrite changes only the version of one pin line.
 */

/** One exact pin, with where its version sits in the file. */
interface RequirementPin {
  /** The name as written. */
  name: string
  /** PEP 503's normalized name (`Foo_Bar` and `foo-bar` are one project). */
  key: string
  version: string
  /** The version's offsets in the file's text. */
  start: number
  end: number
}

/** `name [extras] == version [; marker] [# comment]`; `===` and `==1.*` are not exact pins. */
const PIN = /^(\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]#]*\])?\s*==\s*)([A-Za-z0-9!+._-]+)(\s*(?:;[^#]*)?(?:\s#.*)?)$/

export { normalizeName }

/** Every exact pin in `text`, in file order. */
export function parsePins(text: string): RequirementPin[] {
  const pins: RequirementPin[] = []
  let offset = 0
  let continued = false
  for (const raw of text.split(/(?<=\n)/)) {
    const line = raw.replace(/\r?\n$/, '')
    const startOfLine = offset
    offset += raw.length
    // A `\` at the end joins the next line: such a requirement (often with --hash) is not rewritten.
    const wasContinued = continued
    continued = /\\$/.test(line)
    if (wasContinued || continued) continue
    const m = PIN.exec(line)
    if (!m || /\s--/.test(m[4]) || parsePep440(m[3]) === null) continue
    const start = startOfLine + m[1].length
    pins.push({ name: m[2], key: normalizeName(m[2]), version: m[3], start, end: start + m[3].length })
  }
  return pins
}

/** The pins loopgate may bump: a project pinned more than once (per marker) is left alone. */
export function uniquePins(pins: readonly RequirementPin[]): { pins: RequirementPin[]; repeated: string[] } {
  const count = new Map<string, number>()
  for (const p of pins) count.set(p.key, (count.get(p.key) ?? 0) + 1)
  return {
    pins: pins.filter((p) => count.get(p.key) === 1),
    repeated: [...new Set(pins.filter((p) => (count.get(p.key) ?? 0) > 1).map((p) => p.name))]
  }
}

/** A requirements text and the pin in it to move from one version to another. */
interface PinRewrite {
  text: string
  name: string
  from: string
  to: string
}

/** `text` with the pin of `name` at `from` set to `to`, every other byte unchanged; null without that one pin. */
export function rewritePin({ text, name, from, to }: PinRewrite): string | null {
  const matches = uniquePins(parsePins(text)).pins.filter((p) => p.key === normalizeName(name))
  if (matches.length !== 1 || matches[0].version !== from) return null
  const { start, end } = matches[0]
  return text.slice(0, start) + to + text.slice(end)
}
