import { createParser, type EventSourceParser } from 'eventsource-parser'

/** One Server-Sent Event: its `event:` name (when given) and its `data:` lines joined. */
export interface SseEvent {
  event?: string
  data: string
}

/**
 * Splits a byte stream into Server-Sent Events as the bytes arrive, whatever the chunk boundaries
 * (inside a line, inside a UTF-8 character, between `\r` and `\n`), with `eventsource-parser`. Events
 * `skip` names are not handed on (most of a stream is text deltas the meter does not need). A line
 * or an event larger than `maxBuffer` characters stops the reading: the bytes still pass, and the
 * response's usage stays unknown rather than memory growing without bound.
 */
export class SseEventSplitter {
  private readonly decoder = new TextDecoder('utf-8')
  private readonly parser: EventSourceParser
  private stopped = false

  constructor(onEvent: (e: SseEvent) => void, skip: (event: string) => boolean = () => false, maxBuffer = 16 * 1024 * 1024) {
    this.parser = createParser({
      maxBufferSize: maxBuffer,
      onEvent: ({ event, data }) => {
        if (event === undefined || !skip(event)) onEvent({ event, data })
      },
      onError: () => (this.stopped = true)
    })
  }

  push(chunk: Buffer): void {
    if (!this.stopped) this.parser.feed(this.decoder.decode(chunk, { stream: true }))
  }

  /** The stream ended: a last line and event without their blank line still count. */
  end(): void {
    if (this.stopped) return
    this.stopped = true
    // a line end, then a blank line that dispatches the last event (a pending `\r` takes the first `\n`)
    this.parser.feed(`${this.decoder.decode()}\n\n`)
  }
}
