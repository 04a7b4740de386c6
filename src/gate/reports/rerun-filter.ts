import { existsSync } from 'node:fs'
import path from 'node:path'

/** One shell word, single-quoted: the gate command runs under `bash -c`. */
export { quoted as shellWord } from './command-words.js'

/** `text` as a regular expression matching itself. */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/** The parts of a report's test id (`file › describe › test`). */
export function idParts(id: string): string[] {
  return id.split(' › ')
}

/** A pattern matching any of the full names, whole (`^(?:a|b)$`). */
export function anyOf(names: readonly string[]): string {
  return `^(?:${[...new Set(names)].map(literal).join('|')})$`
}

/**
 * A pytest node id (`tests/test_a.py::TestB::test_c[1]`) from the JUnit id its report gives
 * (`tests.test_a.TestB › test_c[1]`): the module is the shortest dotted prefix of the class name
 * that is a `.py` file in the checkout. Null when none is.
 */
export function pytestNodeId(id: string, checkout: string): string | null {
  const parts = idParts(id)
  if (parts.length !== 2) return null
  const [classname, name] = parts
  const dotted = classname.split('.')
  for (let i = 1; i <= dotted.length; i++) {
    const file = `${dotted.slice(0, i).join('/')}.py`
    if (!existsSync(path.join(checkout, file))) continue
    return [file, ...dotted.slice(i), name].join('::')
  }
  return null
}
