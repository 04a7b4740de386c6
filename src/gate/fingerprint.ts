import { createHash } from 'node:crypto'
import type { FailureItem } from '../loop/types.js'

/** Removes what changes between runs of the same failure: colours, times, addresses, paths, pids. */
export function normaliseMessage(text: string): string {
  return text
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<time>')
    .replace(/\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g, '<time>')
    .replace(/\b0x[0-9a-fA-F]+\b/g, '<addr>')
    .replace(/(?:\/private)?\/(?:tmp|var\/folders|var\/tmp|home\/runner\/work\/_temp)\/[^\s:'")]*/g, '<tmp>')
    .replace(/[A-Za-z]:\\Users\\[^\\]+\\AppData\\Local\\Temp\\[^\s:'")]*/g, '<tmp>')
    .replace(/\b(?:pid|PID|process)[ =:#]*\d+\b/g, 'pid <n>')
    .replace(/\(?\b\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds|µs|us|ns)\b\)?/g, '<dur>')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The fingerprint: a short hash of the sorted failing ids with their normalised messages. */
export function fingerprintOf(failures: FailureItem[]): string | null {
  if (failures.length === 0) return null
  const lines = failures.map((f) => `${normaliseMessage(f.id)}\t${normaliseMessage(f.message)}`).sort()
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 12)
}

/** A failed gate's fingerprint: its failures', or its reason's when no failure could be read. */
export function verdictFingerprint(failures: FailureItem[], reason: string): string | null {
  return fingerprintOf(failures) ?? fingerprintOf([{ id: 'gate', message: reason }])
}

const FAILURE_LINE = [
  /^\s*FAILED\s+(.+?)(?:\s+-\s+(.*))?$/, // pytest short summary
  /^\s*ERROR\s+(.+?)(?:\s+-\s+(.*))?$/, // pytest errors
  /^\s*(?:✕|✗|×)\s+(.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?$/, // jest / vitest
  /^\s*not ok\s+\d+\s*-?\s*(.*?)(?:\s+#\s*(.*))?$/, // TAP
  /^\s*--- FAIL:\s+(\S+)/, // go test
  /^\s*FAIL\s+(\S+\.(?:test|spec)\.[cm]?[jt]sx?)\b/ // jest suite line
]

const MAX_FAILURES = 500

/** TAP's YAML diagnostics block: markers and bookkeeping keys are not the message. */
const YAML_NOISE = /^(?:---|\.\.\.|duration_ms:|location:|failureType:|type:|code:|name:|stack:|at:|operator:)/
const YAML_MESSAGE = /^(?:error|message):\s*(?:[|>][-+]?)?\s*(.*)$/

/** The first line after a failure line that says what went wrong. */
function firstMessageLine(following: string[]): string {
  for (let j = 0; j < following.length; j++) {
    const line = following[j].trim()
    if (line === '' || FAILURE_LINE.some((p) => p.test(following[j]))) continue
    if (/^(?:ok|not ok)\s+\d+/.test(line)) break
    const yaml = YAML_MESSAGE.exec(line)
    if (yaml) {
      if (yaml[1] && !/^['"]?$/.test(yaml[1])) return yaml[1].replace(/^['"]|['"]$/g, '')
      const body = following.slice(j + 1).find((l) => l.trim() !== '')
      return body ? body.trim() : ''
    }
    if (YAML_NOISE.test(line)) continue
    return line.replace(/^#\s*/, '')
  }
  return ''
}

/**
 * Failures read from plain output (when no report is set): FAILED / ERROR / ✕ / `not ok` lines and
 * the first message line that follows each.
 */
export function failuresFromOutput(output: string): FailureItem[] {
  const lines = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/)
  const seen = new Set<string>()
  const failures: FailureItem[] = []
  for (let i = 0; i < lines.length && failures.length < MAX_FAILURES; i++) {
    for (const pattern of FAILURE_LINE) {
      const m = pattern.exec(lines[i])
      if (!m || !m[1]?.trim()) continue
      const id = m[1].trim()
      let message = (m[2] ?? '').trim()
      if (!message) {
        message = firstMessageLine(lines.slice(i + 1, i + 16))
      }
      const key = `${id}\t${message}`
      if (!seen.has(key)) {
        seen.add(key)
        failures.push({ id, message: normaliseMessage(message).slice(0, 500) })
      }
      break
    }
  }
  return failures
}
