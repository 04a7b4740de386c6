import type http from 'node:http'
import { LocalHttp, type RecordedRequest } from './local-http.js'

export interface ResponsesUsage {
  input_tokens: number
  cached_tokens?: number
  /** Input tokens written to the prompt cache (OpenAI bills them above plain input). */
  cache_write_tokens?: number
  output_tokens: number
  reasoning_tokens?: number
}

/** One scripted answer of the fake OpenAI Responses API. */
export type OpenAIStep =
  | { kind: 'text'; text: string; usage?: ResponsesUsage }
  /**
   * A function call of codex's `exec_command` tool: codex runs `cmd` and calls again (after
   * `yield_time_ms`, when set, with the command still running in the background if it has not ended).
   */
  | { kind: 'exec'; cmd: string; yieldTimeMs?: number; usage?: ResponsesUsage }
  /** A refusal content part in the assistant message (after `delayMs`, when set, as a slow model's). */
  | { kind: 'refusal'; text: string; delayMs?: number; usage?: ResponsesUsage }
  /** `response.failed` with this message. */
  | { kind: 'failed'; message: string; code?: string }
  /** `response.incomplete` (e.g. max_output_tokens) after a partial message. */
  | { kind: 'incomplete'; reason: string; usage?: ResponsesUsage }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'cut' }
  | { kind: 'slow'; delayMs: number }
  /** Answers after this long with this usage, as JSON or a stream as the request asks. */
  | { kind: 'late'; delayMs: number; usage: ResponsesUsage }

export interface OpenAIServer {
  url: string
  requests: RecordedRequest[]
  scriptedCalls: number
  /**
   * The usage of every answer the model computed, as a real API bills it: when the request is
   * taken, whether or not anyone is still there to read the answer.
   */
  billed: ResponsesUsage[]
  setScript(steps: OpenAIStep[], fallback?: OpenAIStep): void
  close(): Promise<void>
}

export const DEFAULT_OPENAI_USAGE: ResponsesUsage = { input_tokens: 1000, cached_tokens: 200, output_tokens: 100, reasoning_tokens: 0 }

function sse(res: http.ServerResponse, data: { type: string } & Record<string, unknown>): void {
  res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`)
}

function usageBody(u: ResponsesUsage): Record<string, unknown> {
  return {
    input_tokens: u.input_tokens,
    input_tokens_details: { cached_tokens: u.cached_tokens ?? 0, cache_write_tokens: u.cache_write_tokens ?? 0 },
    output_tokens: u.output_tokens,
    output_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
    total_tokens: u.input_tokens + u.output_tokens
  }
}

let counter = 0

function streamResponse(res: http.ServerResponse, model: string, items: unknown[], usage: ResponsesUsage): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const id = `resp_${++counter}`
  sse(res, { type: 'response.created', response: { id, object: 'response', model, status: 'in_progress', output: [] } })
  items.forEach((item, output_index) => sse(res, { type: 'response.output_item.done', output_index, item }))
  sse(res, {
    type: 'response.completed',
    response: { id, object: 'response', model, status: 'completed', output: items, usage: usageBody(usage) }
  })
  res.end()
}

/**
 * A scripted OpenAI Responses API on 127.0.0.1 (port 0). Each POST /v1/responses takes the next
 * step of the script; when the script is used up the fallback answers. With `models`, a request
 * for a model the pattern does not match is answered 404, as the real API does.
 */
export async function startOpenAIServer(opts: { models?: RegExp } = {}): Promise<OpenAIServer> {
  let script: OpenAIStep[] = []
  let fallback: OpenAIStep = { kind: 'text', text: 'Done.' }
  const state: OpenAIServer = {
    url: '',
    requests: [],
    scriptedCalls: 0,
    billed: [],
    setScript(steps, fb) {
      script = [...steps]
      fallback = fb ?? { kind: 'text', text: 'Done.' }
      state.scriptedCalls = 0
      state.billed.length = 0
      state.requests.length = 0
    },
    close: () => local.close()
  }

  const message = (content: unknown[]): unknown => ({ type: 'message', id: `msg_${++counter}`, role: 'assistant', status: 'completed', content })

  const answer = (step: OpenAIStep, res: http.ServerResponse, model: string, stream = true): void => {
    if (step.kind === 'text' || step.kind === 'exec' || step.kind === 'refusal' || step.kind === 'late') state.billed.push(step.usage ?? DEFAULT_OPENAI_USAGE)
    switch (step.kind) {
      case 'text':
        return streamResponse(res, model, [message([{ type: 'output_text', text: step.text, annotations: [] }])], step.usage ?? DEFAULT_OPENAI_USAGE)
      case 'refusal': {
        const refuse = (): void => streamResponse(res, model, [message([{ type: 'refusal', refusal: step.text }])], step.usage ?? DEFAULT_OPENAI_USAGE)
        if (!step.delayMs) return refuse()
        local.later(step.delayMs, () => {
          if (!res.destroyed) refuse()
        })
        return
      }
      case 'exec':
        return streamResponse(
          res,
          model,
          [
            {
              type: 'function_call',
              id: `fc_${++counter}`,
              call_id: `call_${counter}`,
              name: 'exec_command',
              arguments: JSON.stringify({ cmd: step.cmd, ...(step.yieldTimeMs ? { yield_time_ms: step.yieldTimeMs } : {}) })
            }
          ],
          step.usage ?? DEFAULT_OPENAI_USAGE
        )
      case 'failed': {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        const id = `resp_${++counter}`
        sse(res, { type: 'response.created', response: { id, object: 'response', model, status: 'in_progress', output: [] } })
        sse(res, {
          type: 'response.failed',
          response: { id, object: 'response', model, status: 'failed', output: [], error: { code: step.code ?? 'server_error', message: step.message } }
        })
        res.end()
        return
      }
      case 'incomplete': {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        const id = `resp_${++counter}`
        sse(res, { type: 'response.created', response: { id, object: 'response', model, status: 'in_progress', output: [] } })
        sse(res, {
          type: 'response.incomplete',
          response: {
            id,
            object: 'response',
            model,
            status: 'incomplete',
            output: [],
            incomplete_details: { reason: step.reason },
            usage: usageBody(step.usage ?? DEFAULT_OPENAI_USAGE)
          }
        })
        res.end()
        return
      }
      case 'status':
        res.writeHead(step.status, { 'content-type': 'application/json', ...(step.headers ?? {}) })
        res.end(JSON.stringify(step.body ?? { error: { message: `scripted ${step.status}`, type: 'server_error', code: null } }))
        return
      case 'cut': {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        sse(res, { type: 'response.created', response: { id: `resp_${++counter}`, object: 'response', model, status: 'in_progress', output: [] } })
        local.cut(res)
        return
      }
      case 'slow': {
        local.later(step.delayMs, () => {
          if (!res.destroyed) answer({ kind: 'text', text: 'Late.' }, res, model)
        })
        return
      }
      case 'late': {
        local.later(step.delayMs, () => {
          if (res.destroyed) return
          const item = message([{ type: 'output_text', text: 'Late.', annotations: [] }])
          if (stream) return streamResponse(res, model, [item], step.usage)
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ id: `resp_${++counter}`, object: 'response', model, status: 'completed', output: [item], usage: usageBody(step.usage) }))
        })
        return
      }
    }
  }

  const local = new LocalHttp((req, res, body) => {
    if (req.method === 'POST' && (req.url ?? '').startsWith('/v1/responses')) {
      const model = typeof body?.model === 'string' ? body.model : 'gpt-5'
      if (opts.models && !opts.models.test(model)) {
        // as the real API does: a model it does not serve is named in the 404
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            error: {
              message: `The model \`${model}\` does not exist or you do not have access to it.`,
              type: 'invalid_request_error',
              param: null,
              code: 'model_not_found'
            }
          })
        )
        return
      }
      state.scriptedCalls++
      const step = script.length > 0 ? script.shift()! : fallback
      answer(step, res, model, body?.stream === true)
      return
    }
    if ((req.url ?? '').startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: [], models: [] }))
      return
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"error":{"message":"not found"}}')
  })
  state.requests = local.requests
  state.url = await local.listen()
  return state
}
