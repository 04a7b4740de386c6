import type { IterationRecord } from '../loop/engine-types.js'
import { SUMMARY_LABEL } from '../loop/prompt.js'
import { stripAnsi } from '../report/inert.js'

/** A pull request title is cut to this many characters (git's subject-line habit). */
const TITLE_MAX = 72

const LABEL = new RegExp(`^\\s*(?:[>*_#-]+\\s*)*[*_]*${SUMMARY_LABEL.replace(':', '')}[*_]*\\s*:[*_]*\\s*(.*)$`, 'i')

/**
 * The agent's own summary of its change: the last `Summary:` line of the newest final message that
 * has one (the prompt asks for it), as the agent wrote it. Null when no iteration gave one.
 */
export function agentSummary(iterations: IterationRecord[]): string | null {
  for (const record of [...iterations].reverse()) {
    const lines = (record.agent.finalText ?? '').split(/\r?\n/).reverse()
    for (const line of lines) {
      const m = LABEL.exec(line)
      if (m && m[1].trim()) return m[1].trim()
    }
  }
  return null
}

/** Invisible characters that would hide a token from the patterns below. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu

/** What GitHub or a squash-merge commit would act on, and markup no title renders; each is removed. */
const REMOVE: [RegExp, string][] = [
  // HTML comments (loopgate's markers among them) and tags.
  [/<!--[\s\S]*?(?:-->|$)/g, ' '],
  [/<\/?[A-Za-z][^>]*>?/g, ' '],
  // Markdown images and links keep their text; bare URLs go.
  [/!?\[([^\]]*)\]\([^)]*\)/g, '$1'],
  [/\b[A-Za-z][A-Za-z0-9+.-]*:\/\/\S*/g, ' '],
  [/\bwww\.\S*/gi, ' '],
  // A closing keyword with its reference, then any reference left (`#1`, `owner/repo#2`, `GH-3`).
  [/\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b\s*:?\s*(?:[\w.-]+\/[\w.-]+)?#\d+/gi, ' '],
  [/(?:[\w.-]+\/[\w.-]+)?#\d+/g, ' '],
  [/\bGH-\d+/gi, ' '],
  // Mentions lose their `@`; loopgate's marker word loses its colon.
  [/@/g, ''],
  [/loopgate:/gi, 'loopgate'],
  // Markup: code ticks, emphasis, strike-through, a heading or quote mark at the start.
  [/[`*~]/g, ''],
  [/(^|\s)_+|_+(?=\s|$)/g, '$1'],
  [/^\s*(?:[#>]+\s*)+/, '']
]

/** The punctuation a removal leaves stranded (`again. , for`, `(team, )`), and a dangling end. */
function tidy(line: string): string {
  return line
    .replace(/\s+([,.;:!?)])/g, '$1')
    .replace(/([,;:])(?:\s*[,;:])+/g, '$1')
    .replace(/([.!?])[,;:]+/g, '$1')
    .replace(/\(\s*[,;:]\s*/g, '(')
    .replace(/[,;:]+\)/g, ')')
    .replace(/\(\s*\)(?!\w)/g, (m, offset: number, all: string) => (offset > 0 && /\w/.test(all[offset - 1]) ? m : ''))
    .replace(/\s+/g, ' ')
    .replace(/[\s.:;,]+$/, '')
    .trim()
}

/**
 * `text` as a pull request title: one line with no mention, closing keyword, reference, URL,
 * marker or markup (a squash merge copies the title into the commit message, where a keyword
 * would close an issue), cut to `max` characters at a word.
 */
export function cleanTitle(text: string, max = TITLE_MAX): string {
  let line = stripAnsi(text).replace(INVISIBLE, '').replace(/\s+/g, ' ')
  // Removing one token can join the text around it into another: repeat until nothing changes.
  for (let previous = ''; previous !== line;) {
    previous = line
    for (const [pattern, replacement] of REMOVE) line = line.replace(pattern, replacement)
    line = line.replace(/\s+/g, ' ').trim()
  }
  line = tidy(line)
  if (line.length <= max) return line
  const cut = line.slice(0, max - 1)
  const atWord = cut.lastIndexOf(' ')
  return `${(atWord > max / 2 ? cut.slice(0, atWord) : cut).replace(/[\s.:;,]+$/, '')}…`
}
