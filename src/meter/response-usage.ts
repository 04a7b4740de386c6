import type { Usage } from '../agents/pricing.js'
import { SseEventSplitter, type SseEvent } from './sse-events.js'

/** What one relayed response said it used. */
export interface ResponseUsage {
  model?: string
  usage?: Usage
  /** The response reached its final usage report (not cut before it). */
  final: boolean
}

/** Reads a response's usage from its bytes as they are relayed. */
export interface UsageReader {
  push(chunk: Buffer): void
  end(): ResponseUsage
}

/** The usage fields of one API's events and bodies. */
export interface UsageDialect {
  /** Folds one SSE event into the usage seen so far. */
  event(e: SseEvent, seen: ResponseUsage): void
  /** Events whose data the meter never needs (text deltas), left undecoded. */
  skip?(event: string): boolean
  /** The usage of a whole JSON body. */
  body(data: Record<string, unknown>): ResponseUsage
}

export function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}

export function parseData(data: string): Record<string, unknown> | undefined {
  try {
    return record(JSON.parse(data))
  } catch {
    return undefined
  }
}

class StreamReader implements UsageReader {
  private readonly seen: ResponseUsage = { final: false }
  private readonly splitter: SseEventSplitter

  constructor(dialect: UsageDialect) {
    this.splitter = new SseEventSplitter(
      (e) => dialect.event(e, this.seen),
      (name) => dialect.skip?.(name) ?? false
    )
  }

  push(chunk: Buffer): void {
    this.splitter.push(chunk)
  }

  end(): ResponseUsage {
    this.splitter.end()
    return this.seen
  }
}

/** A JSON body is read whole, up to a bound; a larger one is a response whose usage is unknown. */
class BodyReader implements UsageReader {
  private chunks: Buffer[] = []
  private size = 0

  constructor(
    private readonly dialect: UsageDialect,
    private readonly maxBytes: number
  ) {}

  push(chunk: Buffer): void {
    this.size += chunk.length
    if (this.size <= this.maxBytes) this.chunks.push(chunk)
    else this.chunks = []
  }

  end(): ResponseUsage {
    if (this.size > this.maxBytes) return { final: false }
    const data = parseData(Buffer.concat(this.chunks).toString('utf8'))
    return data ? this.dialect.body(data) : { final: false }
  }
}

/** The reader for a response of this content type: SSE read event by event, anything else as JSON. */
export function usageReader(dialect: UsageDialect, contentType: string | undefined, maxJsonBytes = 32 * 1024 * 1024): UsageReader {
  return /text\/event-stream/i.test(contentType ?? '') ? new StreamReader(dialect) : new BodyReader(dialect, maxJsonBytes)
}
