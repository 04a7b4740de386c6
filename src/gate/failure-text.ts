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
export function boundMessage(text: string): string {
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
  let lines = stripAnsi(raw).replace(/\r\n?/g, '\n').split('\n')
  const pytest = lines.filter((l) => /^E(?:\s|$)/.test(l))
  if (pytest.length > 0) lines = pytest.map((l) => l.replace(/^E ?/, ''))
  lines = lines.filter((l) => !isLocation(l)).map((l) => l.replace(/\s+$/, ''))
  while (lines.length > 0 && lines[0] === '') lines.shift()
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  const indents = lines.filter((l) => l !== '').map((l) => /^ */.exec(l)![0].length)
  const common = indents.length > 0 ? Math.min(...indents) : 0
  const kept: string[] = []
  for (const line of lines) {
    if (line === '' && kept[kept.length - 1] === '') continue
    kept.push(line.slice(common))
  }
  return boundMessage(kept.join('\n'))
}

/** The first line that says something (for one-line displays). */
export function firstLineOf(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '')?.trim() ?? ''
}
