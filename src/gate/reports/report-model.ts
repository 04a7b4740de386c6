import type { FailureItem } from '../../loop/engine-types.js'

/** What a runner's machine-readable report (or its console output) says about one run. */
export interface TestReport {
  format: 'junit' | 'tap' | 'json'
  tests: number
  failed: number
  skipped: number
  failures: FailureItem[]
  passedIds: string[]
  /** Every failing test's id (not capped like failures). */
  failedIds: string[]
  skippedIds: string[]
}

/** More failures than this are not read: the evidence and the fingerprint do not need them. */
export const MAX_FAILURES = 500

/**
 * Failures whose ids and messages name the checkout as relative paths: the checkout's directory
 * means nothing to the agent and must not change the fingerprint from one run to the next.
 */
export function relativeTo(root: string | undefined, failures: FailureItem[]): FailureItem[] {
  if (!root || root === '/') return failures
  const strip = (text: string): string => text.split(`file://${root}/`).join('').split(`${root}/`).join('')
  return failures.map((f) => ({ id: strip(f.id), message: strip(f.message) }))
}

/** Collects failures, keeping the first of each id+message and at most MAX_FAILURES. */
export class FailureList {
  readonly items: FailureItem[] = []
  private readonly seen = new Set<string>()

  add(id: string, message: string): void {
    const key = `${id}\t${message}`
    if (this.items.length >= MAX_FAILURES || this.seen.has(key)) return
    this.seen.add(key)
    this.items.push({ id, message })
  }
}
