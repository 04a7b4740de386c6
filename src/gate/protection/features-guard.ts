import { readTreeEntry, writeTreeFile } from '../../fs/tree.js'
import { diffFeatures, label, parseFeatures, serialise, type Feature } from '../../loop/features.js'
import type { CallGuard, GateVerdict, GuardReport } from '../../loop/engine-types.js'
import { normaliseMessage } from '../reports/fingerprint.js'

const NOTHING: GuardReport = { rejected: [], tampered: false }

/**
 * Why `verdict` does not verify a flip of the feature whose test is `test`; null when it does.
 * Only an id the gate's report lists as passed verifies, compared after the gate's own id
 * normalisation (the one its fingerprints use); a test that also failed, did not run, or a gate
 * without a report verifies nothing.
 */
function unverifiedBecause(test: unknown, verdict: GateVerdict | null): string | null {
  if (!verdict) return 'the gate did not judge this iteration'
  if (typeof test !== 'string' || !test.trim()) return 'it names no "test"'
  if (verdict.timedOut) return 'the gate timed out'
  if (!verdict.passedIds) return 'the gate reported no test ids (a flip is verified only by a gate-report listing its test as passed)'
  const id = normaliseMessage(test)
  const quoted = JSON.stringify(test.slice(0, 200))
  if (verdict.failures.some((f) => normaliseMessage(f.id) === id)) return `its test ${quoted} failed in the gate`
  if (verdict.passedIds.some((p) => normaliseMessage(p) === id)) return null
  return `its test ${quoted} is not among the tests the gate's report lists as passed (it did not run, or was skipped)`
}

/**
 * The flip-only checklist. After each call only `passes` false→true is accepted, and even that is
 * held aside: the file goes back to what it was before the call, so the iteration's commit (and
 * the gate's checkout of it) never holds a claimed flip. After the gate, the flips its verdict
 * verifies are written back and reported for loopgate to commit on top of the judged commit.
 */
export class FeaturesGuard implements CallGuard {
  private snapshot: string | null = null
  /** The last call's flips (indices into `before`), waiting for the gate's verdict. */
  private held: { before: Feature[]; flips: number[] } | null = null

  constructor(
    private readonly workspace: string,
    /** The features file, relative to the workspace. */
    private readonly relPath: string
  ) {}

  /** The file's text; null when it is missing or not a regular file (a link is never followed). */
  private read(): string | null {
    const entry = readTreeEntry(this.workspace, this.relPath)
    return entry.kind === 'file' ? entry.data.toString('utf8') : null
  }

  private write(text: string): void {
    writeTreeFile({ root: this.workspace, rel: this.relPath, data: text })
  }

  async beforeCall(): Promise<void> {
    this.snapshot = this.read()
    this.held = null
  }

  async afterCall(): Promise<GuardReport> {
    const current = this.read()
    if (current === this.snapshot) return NOTHING
    if (this.snapshot === null) {
      return { rejected: [], tampered: false, notes: [`${this.relPath} was created by the agent`] }
    }
    const before = parseFeatures(this.snapshot)
    if (typeof before === 'string') return NOTHING
    const after = current === null ? 'the file was deleted' : parseFeatures(current)
    const diff = typeof after === 'string' ? { error: after } : diffFeatures(before, after)
    this.write(this.snapshot)
    if ('error' in diff) {
      return {
        rejected: [`rejected: ${this.relPath} may only flip "passes" from false to true; ${diff.error}. It was restored.`],
        tampered: false
      }
    }
    this.held = { before, flips: diff.flips }
    return { rejected: [], tampered: false, notes: diff.flips.map((i) => `flip claimed, held aside for the gate: ${label(before[i], i)}`) }
  }

  async afterGate(_iteration: number, verdict: GateVerdict | null): Promise<GuardReport> {
    const held = this.held
    this.held = null
    if (!held || held.flips.length === 0 || this.snapshot === null) return NOTHING
    const recorded = [...held.before]
    const verified: string[] = []
    const refused: string[] = []
    for (const i of held.flips) {
      const why = unverifiedBecause(held.before[i].test, verdict)
      if (why) refused.push(`${label(held.before[i], i)} (${why})`)
      else {
        recorded[i] = { ...held.before[i], passes: true }
        verified.push(label(held.before[i], i))
      }
    }
    if (verified.length > 0) this.write(serialise(recorded, held.before, this.snapshot))
    return {
      rejected: refused.length > 0 ? [`rejected: feature flips not verified by the gate were reverted: ${refused.join('; ')}`] : [],
      tampered: false,
      verifiedFlips: verified
    }
  }
}
