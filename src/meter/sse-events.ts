import { createParser, type EventSourceParser } from 'eventsource-parser'

/** One Server-Sent Event: its `event:` name (when given) and its `data:` lines joined. */
export interface SseEvent {
  event?: string
  data: string
}

const LF = 0x0a
const CR = 0x0d
const EVENT_LINE = Buffer.from('event:')
const LATER_EVENT_LINE = Buffer.from('\nevent:')
const BLANK_LINE = Buffer.from('\n\n')

/**
 * Splits a byte stream into Server-Sent Events as the bytes arrive, whatever the chunk boundaries
 * (inside a line, inside a UTF-8 character, between `\r` and `\n`), with `eventsource-parser`. Events
 * `skip` names are not handed on (most of a stream is text deltas the meter does not need). A line
 * or an event larger than `maxBuffer` characters stops the reading: the bytes still pass, and the
 * response's usage stays unknown rather than memory growing without bound.
 *
 * The model APIs end lines with `\n`: while a stream does, whole events are cut on bytes, and one
 * whose only `event:` line names a skipped event is dropped undecoded; every other event is decoded
 * and parsed. A stream with a `\r` anywhere is handed to the parser whole from there on.
 */
export class SseEventSplitter {
  private readonly decoder = new TextDecoder('utf-8')
  private readonly parser: EventSourceParser
  private stopped = false
  /** Set once a `\r` was seen: every byte goes through the decoder and the parser. */
  private parserOnly = false
  /** Bytes of the event not yet ended (fast path only). */
  private pending: Buffer = Buffer.alloc(0)

  constructor(
    onEvent: (e: SseEvent) => void,
    private readonly skip: (event: string) => boolean = () => false,
    private readonly maxBuffer = 16 * 1024 * 1024
  ) {
    this.parser = createParser({
      maxBufferSize: maxBuffer,
      onEvent: ({ event, data }) => {
        if (event === undefined || !skip(event)) onEvent({ event, data })
      },
      onError: () => (this.stopped = true)
    })
  }

  push(chunk: Buffer): void {
    if (this.stopped) return
    if (!this.parserOnly && chunk.includes(CR)) {
      this.parserOnly = true
      const held = this.pending
      this.pending = Buffer.alloc(0)
      this.feed(held, true)
    }
    if (this.parserOnly) return this.feed(chunk, true)
    let start = 0
    if (this.pending.length > 0) {
      // the event the held bytes begin ends in this chunk, or they grow
      const straddles = this.pending[this.pending.length - 1] === LF && chunk[0] === LF
      const blank = straddles ? -1 : chunk.indexOf(BLANK_LINE)
      const first = straddles ? 1 : blank === -1 ? -1 : blank + 2
      if (first === -1) return this.hold(Buffer.concat([this.pending, chunk]))
      this.take(Buffer.concat([this.pending, chunk.subarray(0, first)]))
      start = first
    }
    for (let end = chunk.indexOf(BLANK_LINE, start); end !== -1 && !this.stopped; end = chunk.indexOf(BLANK_LINE, start)) {
      this.take(chunk.subarray(start, end + 2))
      start = end + 2
    }
    this.hold(chunk.subarray(start))
  }

  /** The stream ended: a last line and event without their blank line still count. */
  end(): void {
    if (this.stopped) return
    this.feed(this.pending, true)
    this.stopped = true
    // a line end, then a blank line that dispatches the last event (a pending `\r` takes the first `\n`)
    this.parser.feed(`${this.decoder.decode()}\n\n`)
  }

  /** One whole event: parsed, unless skipped. */
  private take(event: Buffer): void {
    if (!this.skipped(event)) this.feed(event, false)
  }

  /** The start of an event not yet ended, bounded. */
  private hold(bytes: Buffer): void {
    this.pending = bytes
    if (bytes.length > this.maxBuffer) this.stopped = true
  }

  private feed(bytes: Buffer, streaming: boolean): void {
    if (!this.stopped && bytes.length > 0) this.parser.feed(this.decoder.decode(bytes, { stream: streaming }))
  }

  /** An event whose first line names a skipped event, and no later line names another. */
  private skipped(event: Buffer): boolean {
    if (event.length === 0 || event[0] !== EVENT_LINE[0] || !event.subarray(0, EVENT_LINE.length).equals(EVENT_LINE)) return false
    const lineEnd = event.indexOf(LF)
    if (event.indexOf(LATER_EVENT_LINE, lineEnd) !== -1) return false
    return this.skip(event.toString('latin1', EVENT_LINE.length, lineEnd).trim())
  }
}
