/** One Server-Sent Event: its `event:` name (when given) and its `data:` lines joined. */
export interface SseEvent {
  event?: string
  data: string
}

const LF = 10
const CR = 13
const DATA = Buffer.from('data:')
const EVENT = Buffer.from('event:')

/** A line, buf[from, to), and the field name (with its colon) to look for at its start. */
interface LineField {
  buf: Buffer
  from: number
  to: number
  name: Buffer
}

/** Where the value of field `name` starts in buf[from, to), or -1 when the line is another field. */
function valueAt({ buf, from, to, name }: LineField): number {
  if (to - from < name.length) return -1
  for (let i = 0; i < name.length; i++) if (buf[from + i] !== name[i]) return -1
  const at = from + name.length
  return at < to && buf[at] === 32 ? at + 1 : at
}

/**
 * Splits a byte stream into Server-Sent Events as the bytes arrive, whatever the chunk boundaries
 * (inside a line, inside a UTF-8 character, between `\r` and `\n`): lines are cut on bytes, which
 * never split a character, and decoded only when whole. The data of events `skip` names is never
 * decoded (most of a stream is text deltas the meter does not need). A line longer than `maxLine`
 * is dropped rather than grown without bound.
 */
export class SseEventSplitter {
  private partial: Buffer[] = []
  private partialSize = 0
  private pendingCr = false
  private event: string | undefined
  private data: string[] = []

  constructor(
    private readonly onEvent: (e: SseEvent) => void,
    private readonly skip: (event: string) => boolean = () => false,
    private readonly maxLine = 16 * 1024 * 1024
  ) {}

  push(chunk: Buffer): void {
    let start = 0
    if (this.pendingCr && chunk.length > 0) {
      this.pendingCr = false
      // the \n of a \r\n pair split across chunks: the line was taken at the \r
      if (chunk[0] === LF) start = 1
    }
    // each of the two searches runs once per occurrence, not once per line
    let lf = chunk.indexOf(LF, start)
    let cr = chunk.indexOf(CR, start)
    while (start < chunk.length) {
      if (lf !== -1 && lf < start) lf = chunk.indexOf(LF, start)
      if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start)
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr)
      if (end === -1) break
      if (this.partialSize === 0) this.takeLine(chunk, start, end)
      else this.takeJoined(chunk.subarray(start, end))
      if (chunk[end] === CR) {
        if (end + 1 === chunk.length) this.pendingCr = true
        else if (chunk[end + 1] === LF) {
          start = end + 2
          continue
        }
      }
      start = end + 1
    }
    if (start < chunk.length) this.keep(chunk.subarray(start))
  }

  /** The stream ended: a last line and event without their blank line still count. */
  end(): void {
    if (this.partialSize > 0) this.takeJoined(Buffer.alloc(0))
    this.dispatch()
  }

  private keep(rest: Buffer): void {
    if (this.partialSize + rest.length > this.maxLine) {
      this.partialSize = this.maxLine + 1
      this.partial = []
      return
    }
    this.partial.push(Buffer.from(rest))
    this.partialSize += rest.length
  }

  /** Takes the line that ends here with what earlier chunks held of it (dropped when too long). */
  private takeJoined(tail: Buffer): void {
    const overlong = this.partialSize > this.maxLine
    const line = overlong ? undefined : Buffer.concat([...this.partial, tail])
    this.partial = []
    this.partialSize = 0
    if (line) this.takeLine(line, 0, line.length)
  }

  /** One whole line, buf[from, to), read in place: most lines are never decoded. */
  private takeLine(buf: Buffer, from: number, to: number): void {
    if (from === to) return this.dispatch()
    const name = valueAt({ buf, from, to, name: EVENT })
    if (name !== -1) {
      this.event = buf.toString('utf8', name, to)
      return
    }
    if (this.event !== undefined && this.skip(this.event)) return
    const data = valueAt({ buf, from, to, name: DATA })
    if (data !== -1) this.data.push(buf.toString('utf8', data, to))
  }

  private dispatch(): void {
    if (this.data.length > 0) this.onEvent({ event: this.event, data: this.data.join('\n') })
    this.event = undefined
    this.data = []
  }
}
