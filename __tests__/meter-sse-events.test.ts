import { createParser } from 'eventsource-parser'
import { SseEventSplitter, type SseEvent } from '../src/meter/sse-events.js'

function split(chunks: (string | Buffer)[], maxBuffer?: number): SseEvent[] {
  const events: SseEvent[] = []
  const splitter = new SseEventSplitter((e) => events.push(e), undefined, maxBuffer)
  for (const c of chunks) splitter.push(Buffer.from(c))
  splitter.end()
  return events
}

test('an event cut at every byte, with CRLF and a split UTF-8 character, comes out whole; the last one needs no blank line', () => {
  const text = 'event: a\r\ndata: é1\r\ndata: 2\r\n\r\n: comment\r\nevent: b\rdata: {"x":"ü"}'
  const bytes = Buffer.from(text)
  expect(split([...bytes].map((_, i) => bytes.subarray(i, i + 1)))).toEqual(split([text]))
  expect(split([text])).toEqual([
    { event: 'a', data: 'é1\n2' },
    { event: 'b', data: '{"x":"ü"}' }
  ])
})

test('one event larger than the bound, over many short data lines, stops the reading instead of growing', () => {
  const line = `data: ${'x'.repeat(100)}\n`
  const events = split(['event: a\ndata: small\n\n', line.repeat(200), '\n', 'event: b\ndata: after\n\n'], 4096)
  expect(events).toEqual([{ event: 'a', data: 'small' }])
})

test('a line larger than the bound stops the reading', () => {
  const events = split(['data: before\n\n', `data: ${'y'.repeat(5000)}`, '\n\ndata: after\n\n'], 4096)
  expect(events).toEqual([{ event: undefined, data: 'before' }])
})

test('events the reader skips are not handed on', () => {
  const events: SseEvent[] = []
  const splitter = new SseEventSplitter(
    (e) => events.push(e),
    (name) => name === 'delta'
  )
  splitter.push(Buffer.from('event: delta\ndata: 1\n\nevent: stop\ndata: 2\n\n'))
  splitter.end()
  expect(events).toEqual([{ event: 'stop', data: '2' }])
})

describe('events cut on bytes (streams whose lines end in \\n)', () => {
  /** What eventsource-parser makes of the whole text, the skipped events left out. */
  function parsed(text: string, skip: (name: string) => boolean): SseEvent[] {
    const events: SseEvent[] = []
    const parser = createParser({ onEvent: ({ event, data }) => (event === undefined || !skip(event)) && events.push({ event, data }) })
    parser.feed(`${text}\n\n`)
    return events
  }
  function splitWith(chunks: Buffer[], skip: (name: string) => boolean): SseEvent[] {
    const events: SseEvent[] = []
    const splitter = new SseEventSplitter((e) => events.push(e), skip)
    for (const c of chunks) splitter.push(c)
    splitter.end()
    return events
  }
  const skip = (name: string): boolean => name === 'delta'
  const text = [
    'event: start\ndata: {"usage":{"input_tokens":5}}\n\n',
    'event: delta\ndata: {"text":"é"}\n\n',
    // a skipped name first, another after: the last `event:` line names the event
    'event: delta\nevent: stop\ndata: {"usage":{"output_tokens":7}}\n\n',
    // the name after the data
    'data: {"text":"ü"}\nevent: delta\n\n',
    'data: {"text":"x"}\nevent: usage\n\n',
    ': comment\n\n\n\nevent:delta\ndata:x\n\n',
    'event: tail\ndata: no blank line at the end'
  ].join('')

  test('any chunking gives the events the parser gives the whole text', () => {
    const bytes = Buffer.from(text)
    const expected = parsed(text, skip)
    expect(expected.map((e) => e.event)).toEqual(['start', 'stop', 'usage', 'tail'])
    expect(
      splitWith(
        [...bytes].map((_, i) => bytes.subarray(i, i + 1)),
        skip
      )
    ).toEqual(expected)
    for (let seed = 1; seed <= 50; seed++) {
      const chunks: Buffer[] = []
      for (let at = 0, step = seed; at < bytes.length; at += step, step = ((step * 7 + seed) % 23) + 1) chunks.push(bytes.subarray(at, at + step))
      expect(splitWith(chunks, skip)).toEqual(expected)
    }
  })

  test('a \\r arriving after bytes were held hands the rest to the parser, nothing lost', () => {
    const events = splitWith([Buffer.from('event: delta\ndata: 1\n\nevent: sto'), Buffer.from('p\r\ndata: 2\r\n\r\nevent: delta\rdata: 3\r\r')], skip)
    expect(events).toEqual([{ event: 'stop', data: '2' }])
  })

  test('a skipped event larger than the bound stops the reading', () => {
    const events: SseEvent[] = []
    const splitter = new SseEventSplitter((e) => events.push(e), skip, 4096)
    splitter.push(Buffer.from(`event: delta\ndata: ${'x'.repeat(5000)}`))
    splitter.push(Buffer.from('\n\nevent: stop\ndata: 2\n\n'))
    splitter.end()
    expect(events).toEqual([])
  })
})
