import type { IterationRecord } from '../loop/engine-types.js'
import { codeSpan } from '../report/inert.js'

/** Every test the run found flaky (failed, then passed on a rerun of the same commit), in the order first seen. */
export function flakyTests(iterations: readonly IterationRecord[]): string[] {
  return [...new Set(iterations.flatMap((r) => r.gate?.flaky ?? []))]
}

/** The flaky tests, named for a reviewer or a maintainer: none was given to the agent as its task. */
export function flakySection(iterations: readonly IterationRecord[]): string {
  const flaky = flakyTests(iterations)
  if (flaky.length === 0) return ''
  const shown = flaky.slice(0, 20).map((id) => `- ${codeSpan(id, { max: 300 })}`)
  if (flaky.length > shown.length) shown.push(`- … and ${flaky.length - shown.length} more (the attempt log has them all)`)
  return [
    '### Flaky tests',
    'Each failed, then passed when the gate ran again on the same commit: not charged to the agent and never its task. Quarantine or fix them.',
    shown.join('\n')
  ].join('\n\n')
}
