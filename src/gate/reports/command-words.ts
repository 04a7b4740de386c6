/** The words of a gate command or a package script, as far as loopgate reads them without a shell. */

/** Shell syntax that makes appending arguments unsafe (lists, pipes, redirections, expansions, comments). */
const UNSAFE = /[;&|<>()`$\\\n#]/

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/

/** A word's last path part: `/usr/bin/python3` → `python3`. */
export const baseName = (word: string): string => word.slice(word.lastIndexOf('/') + 1)

/** One shell word, single-quoted. */
export function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * The words of a simple command (no shell syntax, quoted words whole), or null: only such a
 * command may get words inserted without changing what each word is.
 */
export function simpleWords(command: string): string[] | null {
  if (UNSAFE.test(command)) return null
  const words = command.trim().split(/\s+/).filter(Boolean)
  // a quoted word must be whole (no space inside), so inserting words keeps each one intact
  if (words.some((w) => /["']/.test(w) && !/^(["'])[^"']*\1$/.test(w))) return null
  return words.length ? words : null
}

/**
 * The commands of a command line split at `&&`, `||`, `;`, `|` and line breaks, each as its
 * words (quotes removed), for finding which programs it starts. Not a shell parser: a segment it
 * cannot read simply has odd words.
 */
export function commandSegments(command: string): string[][] {
  return command
    .split(/&&|\|\||[;|\n&]/)
    .map((segment) =>
      segment
        .replace(/[()`]/g, ' ')
        .trim()
        .split(/\s+/)
        .map((w) => w.replace(/^["']|["']$/g, ''))
        .filter(Boolean)
    )
    .filter((words) => words.length > 0)
}

/** The words after leading `NAME=value` assignments (and `env`, `exec`, `time`). */
export function withoutPrefix(words: string[]): { at: number; words: string[] } {
  let i = 0
  while (i < words.length && (ENV_ASSIGNMENT.test(words[i]) || /^(?:env|exec|time|command)$/.test(words[i]))) i++
  return { at: i, words: words.slice(i) }
}
