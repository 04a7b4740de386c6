import type { IterationRecord } from '../loop/engine-types.js'

/** How many failing tests the end-of-run text lists; the attempt log has them all. */
const SHOWN = 10

const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()

/** The failing tests of the last gate that failed on a change: a heading, then one line per test (name, first line). */
export function failingTestLines(iterations: IterationRecord[]): string[] {
  const gate = [...iterations].reverse().find((r) => r.gate && !r.gate.passed && r.gate.failures.length > 0)?.gate
  if (!gate) return []
  const lines = gate.failures.slice(0, SHOWN).map((f) => {
    const first = f.message.split('\n').find((l) => l.trim() !== '')
    return `  ✕ ${oneLine(f.id)}${first ? `: ${oneLine(first).slice(0, 200)}` : ''}`
  })
  const more = gate.failures.length - SHOWN
  return [`failing tests (${gate.failures.length}):`, ...lines, ...(more > 0 ? [`  … and ${more} more in the attempt log`] : [])]
}

/** The stop reason's advice, pointing at the attempt log when there is no list of failing tests to read. */
export function adviceFor(action: string, listed: boolean): string {
  return listed ? action : action.replace('Read the failing tests below', "Read the gate's output in the attempt log")
}
