import { createHash } from 'node:crypto'
import type { FailureItem } from '../../loop/engine-types.js'
import { stripAnsi } from './failure-text.js'

/** Removes what changes between runs of the same failure: colours, times, addresses, paths, pids. */
export function normaliseMessage(text: string): string {
  return stripAnsi(text)
    .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<time>')
    .replace(/\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g, '<time>')
    .replace(/\b0x[0-9a-fA-F]+\b/g, '<addr>')
    .replace(/(?:file:\/\/)?(?:\/private)?\/(?:tmp|var\/folders|var\/tmp|home\/runner\/work\/_temp)\/[^\s:'")]*/g, '<tmp>')
    .replace(/[A-Za-z]:\\Users\\[^\\]+\\AppData\\Local\\Temp\\[^\s:'")]*/g, '<tmp>')
    .replace(/\b(?:pid|PID|process)[ =:#]*\d+\b/g, 'pid <n>')
    .replace(/\(?\b\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds|µs|us|ns)\b\)?/g, '<dur>')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * Whole output reduced to what identifies a failure: besides what normaliseMessage masks, absolute
 * directories and every number (counters, line and column numbers, sizes). Lines are de-duplicated
 * and sorted, so interleaved output of parallel workers gives the same text.
 */
export function normaliseOutput(output: string): string {
  const lines = new Set<string>()
  for (const raw of stripAnsi(output).split(/\r?\n/)) {
    if (raw.trim() === '') continue
    const line = normaliseMessage(raw)
      .replace(/(?:file:\/\/)?(?:[A-Za-z]:)?(?:[\\/][\w.@+~-]+)+[\\/]/g, '<dir>/')
      .replace(/\d+/g, '<n>')
      .trim()
    if (line) lines.add(line)
  }
  return [...lines].sort().join('\n')
}

/**
 * A failure's location lines (`at lib/loader.js:28`) without their line and column: an edit above
 * the failing line in the code under test moves it, and the same failure must stay the same.
 */
const withoutLineNumbers = (text: string): string => text.replace(/(\bat [^\s:]+):\d+(?::\d+)?/g, '$1')

/** The fingerprint: a short hash of the sorted failing ids with their normalised messages. */
export function fingerprintOf(failures: FailureItem[]): string | null {
  if (failures.length === 0) return null
  const lines = failures.map((f) => `${normaliseMessage(f.id)}\t${withoutLineNumbers(normaliseMessage(f.message))}`).sort()
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 12)
}

/**
 * A failed gate's fingerprint: its failures', or, when no failure could be read, its reason's with
 * the normalised output (so a crash and a later assertion error, both `exit 1`, differ).
 */
export function verdictFingerprint(failures: FailureItem[], reason: string, output = ''): string | null {
  return fingerprintOf(failures) ?? fingerprintOf([{ id: 'gate', message: `${reason}\n${normaliseOutput(output)}` }])
}
