import type { Usage } from '../agents/pricing.js'
import type { ResponseCharge } from './charge-response.js'
import { newCallToken } from './call-token.js'
import type { ProviderFailureSeen } from './relay-retry.js'

/** The limits one call's model requests are held to at the proxy. */
export interface CallLimits {
  /** The least of what the call may still spend: its budget, the run's ceiling, the rolling window. */
  limitUsd: number
  /** Which limit that is, in the words of its input, for the refusal's message. */
  limitName: string
  /** Main-loop model requests (those that offer tools) allowed before the call is ended. */
  maxModelRequests: number
  /** Epoch milliseconds the call ends at: the proxy starts no retry past it. */
  deadline?: number
}

/** What the proxy relayed for one call, as the ledger and the attempt log take it. */
export interface CallMeterReading {
  usedUsd: number
  responses: number
  modelRequests: number
  tokens: Usage
  models: string[]
  notes: string[]
  /** Why the proxy refused a request and ended the call, when it did. */
  refused?: string
  /** The provider's failure the call's last model request ended with (retries spent, or quota), when it did. */
  providerFailure?: ProviderFailureSeen
}

/**
 * One agent call as the proxy sees it: its token (valid until `close`), what its responses cost,
 * and its limits. Its model requests go upstream one at a time, so when a limit is reached at most
 * the one response then in flight is over it.
 */
export class MeteredCall {
  readonly token = newCallToken()
  private reading: CallMeterReading = {
    usedUsd: 0,
    responses: 0,
    modelRequests: 0,
    tokens: { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 },
    models: [],
    notes: []
  }
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false
  /** The digest of the latest request's body, and of the one the provider failed last, if the latest did fail. */
  private lastDigest = ''
  private failedDigest: string | undefined
  /** What the request in flight holds against the limit until its charge is known. */
  private reservedUsd = 0

  constructor(
    readonly limits: CallLimits,
    private readonly onRefuse: (why: string) => void
  ) {}

  get open(): boolean {
    return !this.closed
  }

  /** Runs one metered request after the call's earlier ones have finished. */
  inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn)
    this.queue = next.catch(() => undefined)
    return next
  }

  /** Resolves when the requests in flight have been priced, or after `ms`. */
  async settled(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
    await Promise.race([this.queue, late])
    clearTimeout(timer)
  }

  /** Counts a request about to go upstream; returns why it is refused instead, when it is. */
  admit(mainLoop: boolean, bodyDigest = ''): string | undefined {
    if (this.reading.refused) return this.reading.refused
    const { limitUsd, limitName, maxModelRequests } = this.limits
    // The same request again after the provider failed it is the CLI's retry of that turn, not a new one.
    const retry = bodyDigest !== '' && bodyDigest === this.failedDigest
    this.lastDigest = bodyDigest
    let why: string | undefined
    if (this.reading.usedUsd >= limitUsd - 1e-9) {
      why = `loopgate refused this model request: the call has used $${this.reading.usedUsd.toFixed(4)}, which reached ${limitName} ($${limitUsd.toFixed(4)})`
    } else if (mainLoop && !retry && this.reading.modelRequests >= maxModelRequests) {
      why = `loopgate refused this model request: the call already sent ${this.reading.modelRequests} main-loop model requests (max-turns allows ${maxModelRequests})`
    }
    if (why) {
      this.reading.refused = why
      return why
    }
    if (mainLoop && !retry) this.reading.modelRequests++
    return undefined
  }

  /** Ends the call after a refusal (its process group is killed by the adapter's wrapper). */
  end(why: string): void {
    this.onRefuse(why)
  }

  /** Refuses the call's later requests too: `why` is the call's refusal. */
  stop(why: string): void {
    this.reading.refused ??= why
  }

  /** Records a note for the attempt log: a request refused without ending the call, or changed to fit. */
  note(why: string): void {
    if (!this.reading.notes.includes(why)) this.reading.notes.push(why)
  }

  /** Holds a relayed request's worst case until its charge is known. */
  reserve(usd: number): void {
    this.reservedUsd = usd
  }

  /** Adds one relayed response's cost, releasing its reservation. */
  charge({ usd, usage, model, note }: ResponseCharge): void {
    this.reservedUsd = 0
    const r = this.reading
    r.usedUsd += usd
    r.responses++
    if (usage) {
      r.tokens.input += usage.input
      r.tokens.cachedInput += usage.cachedInput
      r.tokens.cacheWrite = (r.tokens.cacheWrite ?? 0) + (usage.cacheWrite ?? 0)
      if (usage.cacheWrite1h) r.tokens.cacheWrite1h = (r.tokens.cacheWrite1h ?? 0) + usage.cacheWrite1h
      if (usage.webSearches) r.tokens.webSearches = (r.tokens.webSearches ?? 0) + usage.webSearches
      r.tokens.output += usage.output
    }
    if (model && !r.models.includes(model)) r.models.push(model)
    if (note && !r.notes.includes(note)) r.notes.push(note)
  }

  /** Records how the call's latest model request ended: a later success clears an earlier provider failure. */
  ended(failure: ProviderFailureSeen | undefined): void {
    this.failedDigest = failure ? this.lastDigest : undefined
    if (failure) this.reading.providerFailure = failure
    else delete this.reading.providerFailure
  }

  /** What is left under the call's limit (for a response whose usage is unknown). */
  get remainingUsd(): number {
    return Math.max(0, this.limits.limitUsd - this.reading.usedUsd)
  }

  /**
   * The token dies: later requests carrying it are refused as unknown. A request still in flight
   * (its answer not read to its usage in time) is charged its reservation.
   */
  close(): CallMeterReading {
    if (!this.closed && this.reservedUsd > 0) {
      this.charge({ usd: this.reservedUsd, note: 'a model request was still unanswered when the call ended: charged its reservation (its worst case)' })
    }
    this.closed = true
    return this.read()
  }

  read(): CallMeterReading {
    const failure = this.reading.providerFailure
    return {
      ...this.reading,
      providerFailure: failure && { ...failure },
      tokens: { ...this.reading.tokens },
      models: [...this.reading.models],
      notes: [...this.reading.notes]
    }
  }
}
