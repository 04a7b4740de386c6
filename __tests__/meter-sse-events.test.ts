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
