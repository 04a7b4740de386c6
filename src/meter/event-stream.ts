import { crc32 } from 'node:zlib'
import { EventStreamCodec } from '@smithy/core/event-streams'
import { fromUtf8, toUtf8 } from '@smithy/core/serde'
import { anthropicDialect } from './anthropic-usage.js'
import { parseData, type ResponseUsage, type UsageReader } from './response-usage.js'

/** A frame larger than this is not one Bedrock sends: the reader stops reading (the bytes still pass). */
const MAX_FRAME_BYTES = 16 * 1024 * 1024
const BYTES_FIELD = Buffer.from('"bytes":"')

const codec = new EventStreamCodec(toUtf8, fromUtf8)

/** A string header's value, or undefined. */
function stringHeader(headers: ReturnType<EventStreamCodec['decode']>['headers'], name: string): string | undefined {
  const header = headers[name]
  return header?.type === 'string' ? header.value : undefined
}

/**
 * Reads the usage of a Bedrock `invoke-with-response-stream` answer (`application/vnd.amazon.eventstream`):
 * binary frames (prelude with total and header lengths and its CRC, headers, payload, message CRC),
 * each `chunk` event's payload a JSON object whose `bytes` is the base64 of one Anthropic stream
 * event. Frames are cut out as the bytes arrive, whatever the chunk boundaries, by their prelude;
 * each whole frame is decoded (both CRCs checked, headers parsed) by the AWS SDK's event-stream codec.
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
      // a prelude is checked before its frame is waited for: a false length never holds bytes back
      if (total < 16 || total > MAX_FRAME_BYTES || headersLength > total - 16 || crc32(this.buffer.subarray(0, 8)) !== this.buffer.readUInt32BE(8)) {
        this.broken = true
        this.buffer = Buffer.alloc(0)
        return
      }
      if (this.buffer.length < total) return
      const frame = this.buffer.subarray(0, total)
      this.buffer = this.buffer.subarray(total)
      this.frame(frame)
    }
  }

  private frame(frame: Buffer): void {
    let message: ReturnType<EventStreamCodec['decode']>
    try {
      message = codec.decode(frame)
    } catch {
      return // a frame whose message CRC does not match is not read
    }
    if (stringHeader(message.headers, ':message-type') !== 'event' || stringHeader(message.headers, ':event-type') !== 'chunk') return
    const payload = Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength)
    // most frames are text deltas: their type is read from the head of `bytes` before anything is parsed
    const at = payload.indexOf(BYTES_FIELD)
    if (at !== -1) {
      const head = Buffer.from(payload.toString('latin1', at + BYTES_FIELD.length, at + BYTES_FIELD.length + 40), 'base64').toString('latin1')
      const type = /^\{"type":"([a-z_]+)"/.exec(head)?.[1]
      if (type !== undefined && anthropicDialect.skip?.(type)) return
    }
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
