import { crc32 } from 'node:zlib'
import { anthropicDialect } from './anthropic-usage.js'
import { parseData, type ResponseUsage, type UsageReader } from './response-usage.js'

/** A frame larger than this is not one Bedrock sends: the reader stops reading (the bytes still pass). */
const MAX_FRAME_BYTES = 16 * 1024 * 1024
const BYTES_FIELD = Buffer.from('"bytes":"')

/** The value of a string header (type 7) of an event-stream frame's header block, or undefined. */
function stringHeader(block: Buffer, wanted: string): string | undefined {
  let at = 0
  while (at < block.length) {
    const nameLength = block[at]
    const name = block.toString('utf8', at + 1, at + 1 + nameLength)
    at += 1 + nameLength
    const type = block[at]
    at += 1
    if (type === 7 || type === 6) {
      const length = block.readUInt16BE(at)
      const value = block.toString('utf8', at + 2, at + 2 + length)
      if (type === 7 && name === wanted) return value
      at += 2 + length
    } else {
      // bool true/false, byte, short, int, long, timestamp, uuid
      const sizes: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 }
      const size = sizes[type]
      if (size === undefined) return undefined
      at += size
    }
  }
  return undefined
}

/**
 * Reads the usage of a Bedrock `invoke-with-response-stream` answer (`application/vnd.amazon.eventstream`):
 * binary frames (prelude with total and header lengths and its CRC, headers, payload, message CRC),
 * each `chunk` event's payload a JSON object whose `bytes` is the base64 of one Anthropic stream
 * event. Frames are cut out as the bytes arrive, whatever the chunk boundaries.
 */
export class EventStreamUsageReader implements UsageReader {
  private readonly seen: ResponseUsage = { final: false }
  private buffer: Buffer = Buffer.alloc(0)
  private broken = false

  push(chunk: Buffer): void {
    if (this.broken) return
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
    while (this.buffer.length >= 12) {
      const total = this.buffer.readUInt32BE(0)
      const headersLength = this.buffer.readUInt32BE(4)
      if (total < 16 || total > MAX_FRAME_BYTES || headersLength > total - 16 || crc32(this.buffer.subarray(0, 8)) !== this.buffer.readUInt32BE(8)) {
        this.broken = true
        this.buffer = Buffer.alloc(0)
        return
      }
      if (this.buffer.length < total) return
      const frame = this.buffer.subarray(0, total)
      this.buffer = this.buffer.subarray(total)
      this.frame(frame, headersLength)
    }
  }

  private frame(frame: Buffer, headersLength: number): void {
    const headers = frame.subarray(12, 12 + headersLength)
    const payload = frame.subarray(12 + headersLength, frame.length - 4)
    if (stringHeader(headers, ':message-type') !== 'event' || stringHeader(headers, ':event-type') !== 'chunk') return
    // most frames are text deltas: their type is read from the head of `bytes` before anything is parsed
    const at = payload.indexOf(BYTES_FIELD)
    if (at !== -1) {
      const head = Buffer.from(payload.toString('latin1', at + BYTES_FIELD.length, at + BYTES_FIELD.length + 40), 'base64').toString('latin1')
      const type = /^\{"type":"([a-z_]+)"/.exec(head)?.[1]
      if (type !== undefined && anthropicDialect.skip?.(type)) return
    }
    // a frame read for its usage must be whole: its message CRC covers everything before it
    if (crc32(frame.subarray(0, frame.length - 4)) !== frame.readUInt32BE(frame.length - 4)) return
    const bytes = parseData(payload.toString('utf8'))?.bytes
    if (typeof bytes !== 'string') return
    const data = Buffer.from(bytes, 'base64').toString('utf8')
    const type = parseData(data)?.type
    if (typeof type === 'string' && !anthropicDialect.skip?.(type)) anthropicDialect.event({ event: type, data }, this.seen)
  }

  end(): ResponseUsage {
    return this.seen
  }
}
