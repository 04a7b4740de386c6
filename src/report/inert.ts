/**
 * Text the agent controls (file names, test ids, failure messages, gate output, its summary, a task
 * that came from an event) reaches pull request and issue bodies only through this module, so that
 * it is shown and never acted on: no mention notifies anyone, no keyword closes an issue, no
 * reference or link cross-posts, no HTML or markdown renders, no loopgate marker is forged.
 */

/** An invisible character that breaks a token GitHub would otherwise act on, without changing how it reads. */
const BREAK = '\u200b'

/** Terminal escape sequences: CSI (7-bit and C1), OSC / DCS / APC / PM / SOS strings, and two-byte escapes. */
const ANSI =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u0090\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?/g
/** Control characters other than tab and newline, and the bidirectional overrides that reorder what is shown. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** Removes terminal escape codes and control characters; line ends become `\n`. */
export function stripAnsi(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ANSI, '').replace(CONTROL, '')
}

const NEUTRALIZE: [RegExp, (match: string) => string][] = [
  // @user and @org/team mentions.
  [/@(?=[\p{L}\p{N}_-])/gu, () => `@${BREAK}`],
  // GitHub's closing keywords, in any case (`Fixes #1`, `closes owner/repo#2`, `Resolved: <url>`).
  [/(?<![\p{L}\p{N}_])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?![\p{L}\p{N}_])/giu, (m) => `${m[0]}${BREAK}${m.slice(1)}`],
  // Issue and pull request references (`#1`, `owner/repo#2`, `GH-3`), which cross-post a mention.
  [/#(?=\d)/g, () => `#${BREAK}`],
  [/\bGH-(?=\d)/gi, (m) => `${m}${BREAK}`],
  // Autolinks (`https://…`, `www.…`).
  [/:\/\//g, () => `:${BREAK}//`],
  [/\bwww\./gi, (m) => `${m.slice(0, 3)}${BREAK}.`],
  // loopgate's markers and HTML comments.
  [/<!--/g, () => `<!${BREAK}--`],
  [/loopgate:/gi, (m) => `${m.slice(0, -1)}${BREAK}:`]
]

/**
 * The text with escape codes and control characters removed and every token GitHub acts on broken
 * by an invisible character. Markdown is not escaped here: render the result with `codeSpan` or
 * `codeBlock`, which also keep HTML, links and headings from rendering.
 */
export function inert(text: string): string {
  let out = stripAnsi(text)
  for (const [pattern, replace] of NEUTRALIZE) out = out.replace(pattern, replace)
  return out
}

function longestBacktickRun(text: string): number {
  let longest = 0
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length)
  return longest
}

/**
 * Agent text as one inline code span: one line, fenced by more backticks than any run inside it,
 * padded by a space on each side (CommonMark removes exactly those). `inTable` escapes `|`, which
 * GitHub's tables split cells on even inside code.
 */
export function codeSpan(text: string, opts: { inTable?: boolean; max?: number } = {}): string {
  let line = inert(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim()
  if (opts.max !== undefined && line.length > opts.max) line = `${line.slice(0, opts.max - 1)}…`
  if (opts.inTable) line = line.replace(/\|/g, '\\|')
  const fence = '`'.repeat(longestBacktickRun(line) + 1)
  return `${fence} ${line} ${fence}`
}

/** Agent text as a fenced code block, its fence longer than any backtick run inside it. */
export function codeBlock(text: string, info = ''): string {
  const body = inert(text).replace(/\n+$/, '')
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1))
  return `${fence}${info}\n${body}\n${fence}`
}

/** Agent text in a title (no markdown renders there; mentions and keywords are still broken). */
export function plainLine(text: string, max: number): string {
  const line = inert(text).replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
