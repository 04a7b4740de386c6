/**
 * The lines of a failed tool's output that say what went wrong, for a message people read: a
 * tool's last line is often boilerplate ("A complete log of this run can be found in…", "This
 * error originates from a subprocess…", "See above for output."), and the error is above it.
 */

/** Lines that state an error: npm's and pip's error lines, an exception, a shell's or git's fatal. */
const ERROR_LINE = [
  /^npm (?:ERR!|error) /,
  /^(?:ERROR|error|fatal|FATAL|E):? /,
  /^(?:\w+\.)*\w*(?:Error|Exception|Exit)(?::|$)/,
  /^error\[[A-Z0-9]+\]/,
  /: (?:command )?not found$/,
  /\b(?:EACCES|ENOENT|ENOTCACHED|E404|ETARGET|ERESOLVE|EINTEGRITY|ENOSPC)\b/,
  /\bPermission denied\b/i,
  /\bNo (?:matching distribution|module named)\b/
]

/** Lines that only point elsewhere (the log, the lines above, a hint): never the error itself. */
const BOILERPLATE = [
  /A complete log of this run can be found/i,
  /originates from a subprocess/i,
  /See above for (?:output|details)/i,
  /^(?:hint|note):/i,
  /^npm (?:ERR!|error)\s*$/,
  /^npm (?:ERR!|error) (?:errno|syscall) /,
  /^npm (?:ERR!|error) (?:A complete log|Log files were not written)/,
  /^error: subprocess-exited-with-error$/
]

const MAX_LINES = 3
const MAX_LINE_CHARS = 240

function cleanLines(output: string): string[] {
  return output
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((l) => l.replace(/^[\s│╰─>×|]+/, '').trim())
    .filter(Boolean)
}

/** Up to three distinct error lines, in the order the tool printed them; undefined when no line states an error. */
export function errorLines(output: string): string | undefined {
  const lines = cleanLines(output).filter((l) => ERROR_LINE.some((p) => p.test(l)) && !BOILERPLATE.some((p) => p.test(l)))
  const distinct = [...new Set(lines.map((l) => l.slice(0, MAX_LINE_CHARS)))]
  if (distinct.length === 0) return undefined
  return distinct.slice(0, MAX_LINES).join(' · ')
}
