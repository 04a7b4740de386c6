import type http from 'node:http'
import { LocalHttp, type RecordedRequest } from './local-http.js'

/** One scripted answer of the fake Anthropic Messages API. */
export type AnthropicStep =
  | { kind: 'text'; text: string; stopReason?: 'end_turn' | 'refusal' | 'max_tokens'; usage?: Usage }
  | { kind: 'tool'; name: string; input: Record<string, unknown>; text?: string; usage?: Usage }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Starts the SSE stream, sends a partial text block, then destroys the socket. */
  | { kind: 'cut' }
  /** Answers nothing for this long (then a short end_turn text). */
  | { kind: 'slow'; delayMs: number }
  /** Answers after this long with this usage, as JSON or a stream as the request asks. */
  | { kind: 'late'; delayMs: number; usage: Usage }

export interface Usage {
  input_tokens: number
  output_tokens: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
}

export type { RecordedRequest } from './local-http.js'

export interface AnthropicServer {
  url: string
  requests: RecordedRequest[]
  /** Requests that took a step from the script (tool-carrying main-loop calls). */
  scriptedCalls: number
  /**
   * The usage of every answer the model computed, as a real API bills it: when the request is
   * taken, whether or not anyone is still there to read the answer.
   */
  billed: Usage[]
  setScript(steps: AnthropicStep[], fallback?: AnthropicStep): void
  close(): Promise<void>
}

const DEFAULT_USAGE: Usage = { input_tokens: 100, output_tokens: 20 }

function sse(res: http.ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
}

let idCounter = 0

function streamMessage(
  res: http.ServerResponse,
  model: string,
  blocks: Array<{ type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown }>,
  stopReason: string,
  usage: Usage
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const id = `msg_${++idCounter}`
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 }
    }
  })
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } })
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } })
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: `toolu_${++idCounter}`, name: block.name, input: {} }
      })
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) }
      })
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index })
  })
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: {
      output_tokens: usage.output_tokens,
      input_tokens: usage.input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0
    }
  })
  sse(res, 'message_stop', { type: 'message_stop' })
  res.end()
}

/** Side requests the CLI makes besides the agent loop (titles, quota probes): no tools offered. */
function isMainLoopCall(body: any): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0
}

/**
 * A scripted Anthropic Messages API on 127.0.0.1 (port 0). Each main-loop request (one that offers
 * tools) takes the next step of the script; when the script is used up the fallback answers.
 */
export async function startAnthropicServer(): Promise<AnthropicServer> {
  let script: AnthropicStep[] = []
  let fallback: AnthropicStep = { kind: 'text', text: 'Done.' }
  const state: AnthropicServer = {
    url: '',
    requests: [],
    scriptedCalls: 0,
    billed: [],
    setScript(steps, fb) {
      script = [...steps]
      if (fb) fallback = fb
      else fallback = { kind: 'text', text: 'Done.' }
      state.scriptedCalls = 0
      state.billed.length = 0
      state.requests.length = 0
    },
    close: () => local.close()
  }

  const answer = (step: AnthropicStep, res: http.ServerResponse, model: string, stream = true): void => {
    if (step.kind === 'text' || step.kind === 'tool' || step.kind === 'late') state.billed.push(step.usage ?? DEFAULT_USAGE)
    switch (step.kind) {
      case 'text':
        return streamMessage(res, model, [{ type: 'text', text: step.text }], step.stopReason ?? 'end_turn', step.usage ?? DEFAULT_USAGE)
      case 'tool':
        return streamMessage(
          res,
          model,
          [...(step.text ? [{ type: 'text' as const, text: step.text }] : []), { type: 'tool_use', name: step.name, input: step.input }],
          'tool_use',
          step.usage ?? DEFAULT_USAGE
        )
      case 'status': {
        const body = step.body ?? {
          type: 'error',
          error: { type: step.status === 429 ? 'rate_limit_error' : step.status === 529 ? 'overloaded_error' : 'api_error', message: `scripted ${step.status}` }
        }
        res.writeHead(step.status, { 'content-type': 'application/json', ...(step.headers ?? {}) })
        res.end(JSON.stringify(body))
        return
      }
      case 'cut': {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        sse(res, 'message_start', {
          type: 'message_start',
          message: {
            id: `msg_${++idCounter}`,
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 1 }
          }
        })
        sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
        sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'I will start by' } })
        local.cut(res)
        return
      }
      case 'slow': {
        local.later(step.delayMs, () => {
          if (!res.destroyed) streamMessage(res, model, [{ type: 'text', text: 'Late.' }], 'end_turn', DEFAULT_USAGE)
        })
        return
      }
      case 'late': {
        local.later(step.delayMs, () => {
          if (res.destroyed) return
          if (stream) return streamMessage(res, model, [{ type: 'text', text: 'Late.' }], 'end_turn', step.usage)
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(
            JSON.stringify({
              id: `msg_${++idCounter}`,
              type: 'message',
              role: 'assistant',
              model,
              content: [{ type: 'text', text: 'Late.' }],
              stop_reason: 'end_turn',
              usage: step.usage
            })
          )
        })
        return
      }
    }
  }

  const local = new LocalHttp((req, res, body) => {
    const url = req.url ?? ''
    if (req.method !== 'POST' || !url.startsWith('/v1/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
      return
    }
    if (url.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ input_tokens: 100 }))
      return
    }
    const model = typeof body?.model === 'string' ? body.model : 'claude-sonnet-4-5'
    if (!model.startsWith('claude-')) {
      // as the real API does: an unknown model's name is echoed in the 404
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `model: ${model}` } }))
      return
    }
    if (!isMainLoopCall(body)) {
      // Side calls (topic/title detection) must not eat script steps nor cost much.
      if (body?.stream) return streamMessage(res, model, [{ type: 'text', text: '{"title":"task"}' }], 'end_turn', { input_tokens: 1, output_tokens: 1 })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          id: 'msg_side',
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text: 'ok' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 1, output_tokens: 1 }
        })
      )
      return
    }
    state.scriptedCalls++
    const step = script.length > 0 ? script.shift()! : fallback
    answer(step, res, model, body?.stream === true)
  })
  state.requests = local.requests
  state.url = await local.listen()
  return state
}
