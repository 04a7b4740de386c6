import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { CallGuard, GateVerdict, GuardReport } from './types.js'

export interface Feature {
  passes: boolean
  test?: string
  [key: string]: unknown
}

function parseFeatures(text: string): Feature[] | string {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    return `invalid JSON (${(err as Error).message})`
  }
  if (!Array.isArray(data)) return 'not a JSON list'
  for (const [i, item] of data.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return `item ${i} is not an object`
    if (typeof (item as Feature).passes !== 'boolean') return `item ${i} has no boolean "passes"`
  }
  return data as Feature[]
}

function withoutPasses(feature: Feature): string {
  const { passes: _passes, ...rest } = feature
  return JSON.stringify(rest)
}

function label(feature: Feature, index: number): string {
  const name = feature.id ?? feature.name ?? feature.description ?? feature.test
  return typeof name === 'string' ? name : `#${index}`
}

/** The flips from `before` to `after`, or why `after` is not a flip-only edit of `before`. */
export function diffFeatures(before: Feature[], after: Feature[]): { flips: number[] } | { error: string } {
  if (before.length !== after.length) return { error: `the list changed length (${before.length} → ${after.length})` }
  const flips: number[] = []
  for (let i = 0; i < before.length; i++) {
    if (withoutPasses(before[i]) !== withoutPasses(after[i])) return { error: `${label(before[i], i)} was edited beyond "passes"` }
    if (before[i].passes && !after[i].passes) return { error: `${label(before[i], i)} went from passing to failing` }
    if (!before[i].passes && after[i].passes) flips.push(i)
  }
  return { flips }
}

function testPassed(test: string | undefined, verdict: GateVerdict | null): boolean {
  if (!verdict || verdict.timedOut) return false
  if (test && verdict.passedIds && !verdict.passedIds.some((id) => id.includes(test))) return false
  if (verdict.passed) return true
  if (!test || verdict.failures.length === 0) return false
  return !verdict.failures.some((f) => f.id.includes(test) || f.message.includes(test))
}

/**
 * The flip-only checklist: after each call only `passes` false→true survives, and a flip stays only
 * when its test passes in that iteration's gate. Anything else is restored and noted.
 */
export class FeaturesGuard implements CallGuard {
  private snapshot: string | null = null
  private pendingFlips: number[] = []

  constructor(
    private readonly file: string,
    private readonly displayName: string
  ) {}

  async beforeCall(): Promise<void> {
    this.snapshot = existsSync(this.file) ? readFileSync(this.file, 'utf8') : null
    this.pendingFlips = []
  }

  async afterCall(): Promise<GuardReport> {
    const current = existsSync(this.file) ? readFileSync(this.file, 'utf8') : null
    if (current === this.snapshot) return { rejected: [], tampered: false }
    if (this.snapshot === null) {
      return { rejected: [], tampered: false, notes: [`${this.displayName} was created by the agent`] }
    }
    const before = parseFeatures(this.snapshot)
    if (typeof before === 'string') return { rejected: [], tampered: false }
    const after = current === null ? 'the file was deleted' : parseFeatures(current)
    const diff = typeof after === 'string' ? { error: after } : diffFeatures(before, after)
    if ('error' in diff) {
      writeFileSync(this.file, this.snapshot)
      return {
        rejected: [`rejected: ${this.displayName} may only flip "passes" from false to true; ${diff.error}. It was restored.`],
        tampered: false
      }
    }
    this.pendingFlips = diff.flips
    return { rejected: [], tampered: false, notes: diff.flips.map((i) => `flip claimed: ${label(before[i], i)}`) }
  }

  async afterGate(_iteration: number, verdict: GateVerdict | null): Promise<GuardReport> {
    if (this.pendingFlips.length === 0 || this.snapshot === null) return { rejected: [], tampered: false }
    const current = parseFeatures(readFileSync(this.file, 'utf8'))
    if (typeof current === 'string') return { rejected: [], tampered: false }
    const reverted: string[] = []
    for (const i of this.pendingFlips) {
      if (!testPassed(current[i].test, verdict)) {
        current[i] = { ...current[i], passes: false }
        reverted.push(label(current[i], i))
      }
    }
    this.pendingFlips = []
    if (reverted.length === 0) return { rejected: [], tampered: false }
    writeFileSync(this.file, `${JSON.stringify(current, null, 2)}\n`)
    return {
      rejected: [`rejected: feature flips not verified by the gate were reverted: ${reverted.join(', ')}`],
      tampered: false
    }
  }

  /** True when every flip claimed this iteration was verified (nothing pending, nothing reverted). */
  get unverifiedFlips(): number {
    return this.pendingFlips.length
  }
}
