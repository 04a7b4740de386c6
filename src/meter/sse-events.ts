import { StringDecoder } from 'node:string_decoder'

/** One Server-Sent Event: its `event:` name (when given) and its `data:` lines joined. */
export interface SseEvent {
  event?: string
  data: string
}

/**
 * Splits a byte stream into Server-Sent Events as the bytes arrive, whatever the chunk boundaries
 * (inside a line, inside a UTF-8 character, between `\r` and `\n`). Lines longer than `maxLine`
 * are dropped rather than grown without bound.
 */
export class SseEventSplitter {
  private readonly decoder = new StringDecoder('utf8')
  private line = ''
  private overlong = false
  private pendingCr = false
  private event: string | undefined
  private data: string[] = []

  constructor(
    private readonly onEvent: (e: SseEvent) => void,
    private readonly maxLine = 16 * 1024 * 1024
  ) {}

  push(chunk: Buffer): void {
    this.text(this.decoder.write(chunk))
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    this.text(this.decoder.end())
    if (this.line || this.overlong) this.takeLine()
    this.dispatch()
  }

  private text(s: string): void {
    let start = 0
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (this.pendingCr) {
        this.pendingCr = false
        // the \n of a \r\n pair (perhaps split across chunks): the line was taken at the \r
        if (c === 10) {
          start = i + 1
          continue
        }
      }
      if (c !== 10 && c !== 13) continue
      this.append(s.slice(start, i))
      this.takeLine()
      this.pendingCr = c === 13
      start = i + 1
    }
    if (start < s.length) this.append(s.slice(start))
  }

  private append(s: string): void {
    if (this.overlong) return
    if (this.line.length + s.length > this.maxLine) {
      this.overlong = true
      this.line = ''
      return
    }
    this.line += s
  }

  private takeLine(): void {
    const line = this.line
    const dropped = this.overlong
    this.line = ''
    this.overlong = false
    if (dropped) return
    if (line === '') return this.dispatch()
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') this.event = value
    else if (field === 'data') this.data.push(value)
  }

  private dispatch(): void {
    if (this.data.length > 0) this.onEvent({ event: this.event, data: this.data.join('\n') })
    this.event = undefined
    this.data = []
  }
}
