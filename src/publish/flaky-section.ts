import type { IterationRecord } from '../loop/engine-types.js'
import { codeSpan } from '../report/inert.js'

/** Every test the run found flaky (failed, then passed on a rerun of the same commit), in the order first seen. */
export function flakyTests(iterations: readonly IterationRecord[]): string[] {
  return [...new Set(iterations.flatMap((r) => r.gate?.flaky ?? []))]
}

/** Every test the run found failing on the base (passed at the baseline, failed again on its tree), in the order first seen. */
export function failingOnBase(iterations: readonly IterationRecord[]): string[] {
  return [...new Set(iterations.flatMap((r) => r.gate?.failingOnBase ?? []))]
}

function listed(ids: string[]): string {
  const shown = ids.slice(0, 20).map((id) => `- ${codeSpan(id, { max: 300 })}`)
  if (ids.length > shown.length) shown.push(`- … and ${ids.length - shown.length} more (the attempt log has them all)`)
  return shown.join('\n')
}

/** The flaky tests and the base's failing ones, named for a reviewer or a maintainer: none was given to the agent as its task. */
export function flakySection(iterations: readonly IterationRecord[]): string {
  const flaky = flakyTests(iterations)
  const onBase = failingOnBase(iterations)
  const parts: string[] = []
  if (flaky.length) {
    parts.push(
      '### Flaky tests',
      'Each failed, then passed when the gate ran it again on the same commit: not charged to the agent and never its task. Quarantine or fix them.',
      listed(flaky)
    )
  }
  if (onBase.length) {
    parts.push(
      '### Failing on the base',
      'Each passed at the baseline, then failed here and again when rerun on the base’s own tree: the base’s failure, not the agent’s, and never its task. Fix or quarantine them in the base.',
      listed(onBase)
    )
  }
  return parts.join('\n\n')
}
