import fc from 'fast-check'
import { anthropicDialect } from '../src/meter/anthropic-usage.js'
import { openaiDialect } from '../src/meter/openai-usage.js'
import { usageReader, type UsageDialect } from '../src/meter/response-usage.js'

/** Feeds `text` to a reader in pieces cut at the given byte offsets. */
function readSplit(dialect: UsageDialect, text: string, cuts: number[], type = 'text/event-stream') {
  const bytes = Buffer.from(text, 'utf8')
  const reader = usageReader(dialect, type)
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  let at = 0
  for (const p of [...points, bytes.length]) {
    reader.push(bytes.subarray(at, p))
    at = p
  }
  return reader.end()
}

const sse = (event: string, data: unknown, eol: string): string => `event: ${event}${eol}data: ${JSON.stringify(data)}${eol}${eol}`

const tokens = fc.nat({ max: 2_000_000 })
const eol = fc.constantFrom('\n', '\r\n', '\r')
// text with multi-byte characters, newlines in JSON strings and SSE-looking content
const chatter = fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 6 })

function anthropicStream(u: { input: number; read: number; write: number; output: number }, texts: string[], end: string): string {
  return [
    sse(
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'm',
          model: 'claude-opus-5-5',
          usage: { input_tokens: u.input, cache_read_input_tokens: u.read, cache_creation_input_tokens: u.write, output_tokens: 1 }
        }
      },
      end
    ),
    ': a comment line' + end,
    ...texts.map((t) => sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } }, end)),
    sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: u.output } }, end),
    sse('message_stop', { type: 'message_stop' }, end)
  ].join('')
}

test('Anthropic SSE: the usage is read whatever the chunk boundaries and line endings', () => {
  fc.assert(
    fc.property(tokens, tokens, tokens, tokens, chatter, eol, fc.array(fc.nat(), { maxLength: 30 }), (input, read, write, output, texts, end, cuts) => {
      const seen = readSplit(anthropicDialect, anthropicStream({ input, read, write, output }, texts, end), cuts)
      expect(seen).toEqual({ model: 'claude-opus-5-5', final: true, usage: { input: input + read + write, cachedInput: read, cacheWrite: write, output } })
    })
  )
})

test('Anthropic SSE cut before message_delta: the input usage seen, not final', () => {
  const text = anthropicStream({ input: 500, read: 10, write: 20, output: 99 }, ['partial'], '\n')
  const seen = readSplit(anthropicDialect, text.slice(0, text.indexOf('event: message_delta')), [7, 100])
  expect(seen).toEqual({ model: 'claude-opus-5-5', final: false, usage: { input: 530, cachedInput: 10, cacheWrite: 20, output: 1 } })
})

test('OpenAI Responses SSE: response.completed usage, whatever the boundaries', () => {
  fc.assert(
    fc.property(tokens, tokens, tokens, chatter, eol, fc.array(fc.nat(), { maxLength: 30 }), (input, cached, output, texts, end, cuts) => {
      const stream = [
        sse('response.created', { type: 'response.created', response: { id: 'r', model: 'gpt-5', status: 'in_progress' } }, end),
        ...texts.map((t) => sse('response.output_text.delta', { type: 'response.output_text.delta', delta: t }, end)),
        sse(
          'response.completed',
          {
            type: 'response.completed',
            response: {
              id: 'r',
              model: 'gpt-5',
              usage: { input_tokens: input + cached, input_tokens_details: { cached_tokens: cached }, output_tokens: output }
            }
          },
          end
        )
      ].join('')
      expect(readSplit(openaiDialect, stream, cuts)).toEqual({
        model: 'gpt-5',
        final: true,
        usage: { input: input + cached, cachedInput: cached, cacheWrite: 0, output }
      })
    })
  )
})

test('Chat Completions SSE: the final usage chunk before [DONE], whatever the boundaries', () => {
  fc.assert(
    fc.property(tokens, tokens, tokens, chatter, fc.array(fc.nat(), { maxLength: 30 }), (prompt, cached, completion, texts, cuts) => {
      const chunk = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`
      const stream = [
        ...texts.map((t) => chunk({ id: 'c', model: 'gpt-5-mini', choices: [{ index: 0, delta: { content: t } }], usage: null })),
        chunk({
          id: 'c',
          model: 'gpt-5-mini',
          choices: [],
          usage: { prompt_tokens: prompt, completion_tokens: completion, prompt_tokens_details: { cached_tokens: Math.min(cached, prompt) } }
        }),
        'data: [DONE]\n\n'
      ].join('')
      expect(readSplit(openaiDialect, stream, cuts)).toEqual({
        model: 'gpt-5-mini',
        final: true,
        usage: { input: prompt, cachedInput: Math.min(cached, prompt), output: completion }
      })
    })
  )
})

test('JSON bodies: Anthropic, Responses and Chat Completions usage, split anywhere', () => {
  fc.assert(
    fc.property(tokens, tokens, fc.array(fc.nat(), { maxLength: 10 }), (input, output, cuts) => {
      const anthropic = JSON.stringify({
        model: 'claude-haiku-4-5',
        content: [{ type: 'text', text: 'é€😀' }],
        usage: { input_tokens: input, output_tokens: output }
      })
      expect(readSplit(anthropicDialect, anthropic, cuts, 'application/json')).toEqual({
        model: 'claude-haiku-4-5',
        final: true,
        usage: { input, cachedInput: 0, cacheWrite: 0, output }
      })
      const chat = JSON.stringify({ model: 'gpt-5', choices: [], usage: { prompt_tokens: input, completion_tokens: output } })
      expect(readSplit(openaiDialect, chat, cuts, 'application/json; charset=utf-8').usage).toEqual({ input, cachedInput: 0, output })
    })
  )
})

test('a body that is not JSON, or an SSE stream with no usage, has no usage', () => {
  expect(readSplit(anthropicDialect, '<html>oops</html>', [3], 'text/html')).toEqual({ final: false })
  expect(readSplit(openaiDialect, 'data: {"choices":[]}\n\ndata: [DONE]\n\n', [5])).toEqual({ final: false })
})
