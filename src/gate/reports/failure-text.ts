import { failureLocations } from './failure-frames.js'

/** How much of one failure's message is kept: enough for an assertion and its diff. */
export const MESSAGE_MAX_LINES = 40
export const MESSAGE_MAX_CHARS = 4096

/** Colour codes, also as pytest escapes them in XML (`#x1B[31m`). */
const ANSI = /(?:\u001b|#x1B)\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

/** Lines that locate a failure rather than describe it: stack frames and source excerpts. */
const LOCATION_LINE = [
  /^\s*at .*(?::\d+:\d+\)?|\(<anonymous>\)|\(native\)|\(index \d+\))(?: \{)?\s*$/, // JS stack frame
  /^\s*❯\s+\S+:\d+(?::\d+)?\s*$/, // vitest frame
  /^\s*(?:>\s*)?\d+\s*\|.*$/, // code frame line (jest, vitest)
  /^\s*\|\s*\^+\s*$/ // code frame caret
]

function isLocation(line: string): boolean {
  return LOCATION_LINE.some((p) => p.test(line))
}

/** Cuts text to the message limits, saying so when it cut. */
function boundMessage(text: string): string {
  let lines = text.split('\n')
  let cut = false
  if (lines.length > MESSAGE_MAX_LINES) {
    lines = lines.slice(0, MESSAGE_MAX_LINES)
    cut = true
  }
  let out = lines.join('\n')
  if (out.length > MESSAGE_MAX_CHARS) {
    out = out.slice(0, MESSAGE_MAX_CHARS)
    cut = true
  }
  return cut ? `${out}\n…` : out
}

/**
 * A failure's message as a person would quote it: colours, stack frames and source excerpts
 * removed, common indentation taken away, blank runs collapsed, bounded.
 * pytest's `E   ` lines, when present, are the message.
 */
export function failureText(raw: string): string {
  // more than the limits can keep is never read (the parsers see output the agent's code controls)
  let lines = stripAnsi(raw.slice(0, 64 * 1024))
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .slice(0, 400)
  const locations = failureLocations(lines)
  const pytest = lines.filter((l) => /^E(?:\s|$)/.test(l))
  if (pytest.length > 0) lines = pytest.map((l) => l.replace(/^E ?/, ''))
  lines = lines.filter((l) => !isLocation(l)).map((l) => l.trimEnd())
  while (lines.length > 0 && lines[0] === '') lines.shift()
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  const common = lines.filter((l) => l !== '').reduce((min, l) => Math.min(min, /^ */.exec(l)![0].length), Infinity)
  const kept: string[] = []
  for (const line of lines) {
    if (line === '' && kept[kept.length - 1] === '') continue
    kept.push(Number.isFinite(common) ? line.slice(common) : line)
  }
  // The failing line survives the stripped frames, after the message (never cut with its diff).
  const message = boundMessage(kept.join('\n'))
  return locations.length > 0 ? [...(message ? [message] : []), ...locations].join('\n') : message
}

/**
 * Text without a trailing duration (`12ms`, `(1.2 s)`): only the end of the text is examined, so
 * this stays linear on any input.
 */
export function withoutDuration(text: string): string {
  const t = text.trimEnd()
  const tail = t.slice(-40)
  const m = /\s\(?\d+(?:\.\d+)?\s?m?s\)?$/.exec(tail)
  return m ? t.slice(0, t.length - tail.length + m.index).trimEnd() : t
}

/** The first line that says something (for one-line displays). */
export function firstLineOf(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  )
}
