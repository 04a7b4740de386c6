import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { DEFAULT_PRICES, type PriceTable } from '../src/agents/pricing.js'
import type { CallLimits } from '../src/meter/metered-call.js'
import { WireMeter } from '../src/meter/wire-meter.js'
import type { WireApi } from '../src/meter/wire-api.js'

// A scripted model API: `answer` decides each response; `served` counts the answers it finished sending.
interface Asked {
  method: string
  url: string
  body: string
}
let upstream: http.Server
let base = ''
const asked: Asked[] = []
let served = 0
let answer: (q: Asked, res: http.ServerResponse) => void = (_q, res) => res.end('{}')

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      const q = { method: req.method ?? '', url: req.url ?? '', body }
      asked.push(q)
      res.on('finish', () => served++)
      answer(q, res)
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
})
afterAll(async () => {
  upstream.closeAllConnections()
  await new Promise((resolve) => upstream.close(resolve))
})
beforeEach(() => {
  asked.length = 0
  served = 0
})

const limits: CallLimits = { limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 100 }
// claude-opus-5-5: $4 in, $5 5-minute cache write, $8 1-hour cache write, $20 out per million
const opus = DEFAULT_PRICES['claude-opus-5-5']

async function withMeter(api: WireApi, fn: (meter: WireMeter, url: string) => Promise<void>, prices: PriceTable = DEFAULT_PRICES): Promise<void> {
  const auth = api === 'anthropic' ? { header: 'x-api-key', value: 'sk-ant-real' } : { header: 'authorization', value: 'Bearer sk-real' }
  const meter = new WireMeter({ api, base: new URL(api === 'anthropic' ? base : `${base}/v1`), auth }, prices)
  try {
    await fn(meter, await meter.url())
  } finally {
    await meter.stop()
  }
}

function json(res: http.ServerResponse, data: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(data))
}

async function send(url: string, token: string, body: unknown, init: { method?: string; header?: string } = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: init.method ?? 'POST',
    headers: { [init.header ?? 'x-api-key']: token, 'content-type': 'application/json' },
    body: init.method === 'GET' || init.method === 'HEAD' ? undefined : JSON.stringify(body)
  })
  return { status: res.status, text: await res.text() }
}

describe('a caller that hangs up', () => {
  test('ten large requests each abandoned before the answer: the ledger holds what the model served, and stops at the limit', async () => {
    const usage = { input_tokens: 150_000, output_tokens: 4000 }
    const perAnswer = (150_000 * opus.input + 4000 * opus.output) / 1e6
    answer = (_q, res) => setTimeout(() => json(res, { type: 'message', model: 'claude-opus-5-5', content: [], usage }), 1000)
    await withMeter('anthropic', async (meter, url) => {
      const ended: string[] = []
      const call = meter.open({ ...limits, limitUsd: 3, limitName: 'spend-ceiling-usd' }, (why) => ended.push(why))
      // ~150,000 tokens of prompt, 4,000 of output asked for
      const body = JSON.stringify({ model: 'claude-opus-5-5', max_tokens: 4000, messages: [{ role: 'user', content: 'x'.repeat(600_000) }] })
      for (let i = 0; i < 10; i++) {
        const gone = new AbortController()
        setTimeout(() => gone.abort(), 500)
        await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': call.token }, body, signal: gone.signal }).then(
          (res) => res.text(),
          () => undefined
        )
      }
      await call.settled(5000)
      const reading = meter.close(call)
      expect(served).toBeGreaterThan(0)
      expect(reading.usedUsd).toBeGreaterThanOrEqual(served * perAnswer - 1e-9)
      expect(reading.usedUsd).toBeLessThanOrEqual(3 + perAnswer)
      expect(served).toBeLessThan(10)
      expect(ended.length).toBeGreaterThan(0)
      for (const why of ended) expect(why).toMatch(/more than is left under spend-ceiling-usd/)
    })
  })

  test('a request still unanswered when the call closes is charged its reservation, not $0', async () => {
    answer = () => undefined
    await withMeter('anthropic', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      const body = JSON.stringify({ model: 'claude-opus-5-5', max_tokens: 1000, messages: [] })
      const gone = new AbortController()
      const pending = fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': call.token }, body, signal: gone.signal }).catch(() => undefined)
      while (asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      gone.abort()
      await pending
      await call.settled(200)
      const reading = meter.close(call)
      expect(reading.usedUsd).toBeCloseTo((Math.ceil(body.length / 4) * opus.input + 1000 * opus.output) / 1e6, 12)
      expect(reading.notes.join('\n')).toMatch(/still unanswered when the call ended: charged its reservation/)
    })
    upstream.closeAllConnections()
  })
})

describe('reservations', () => {
  test('an answer with no readable usage is charged its reservation (input by size, max_tokens at the output rate)', async () => {
    answer = (_q, res) => json(res, { type: 'message', content: [] })
    await withMeter('anthropic', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      const body = { model: 'claude-opus-5-5', max_tokens: 2000, messages: [{ role: 'user', content: 'y'.repeat(4000) }] }
      expect((await send(`${url}/v1/messages`, call.token, body)).status).toBe(200)
      await call.settled(1000)
      const reserved = (Math.ceil(JSON.stringify(body).length / 4) * opus.input + 2000 * opus.output) / 1e6
      expect(meter.close(call).usedUsd).toBeCloseTo(reserved, 12)
    })
  })

  test('an output cap that does not fit is lowered to what is left; a request whose input alone does not fit never leaves', async () => {
    answer = (_q, res) => json(res, { type: 'message', model: 'claude-opus-5-5', content: [], usage: { input_tokens: 10, output_tokens: 10 } })
    await withMeter('anthropic', async (meter, url) => {
      const ended: string[] = []
      const call = meter.open({ ...limits, limitUsd: 1 }, (why) => ended.push(why))
      const asks = { model: 'claude-opus-5-5', max_tokens: 128_000, thinking: { type: 'enabled', budget_tokens: 60_000 }, messages: [] }
      expect((await send(`${url}/v1/messages`, call.token, asks)).status).toBe(200)
      const relayed = JSON.parse(asked[0].body) as { max_tokens: number; thinking: { budget_tokens: number } }
      const inputUsd = (Math.ceil(JSON.stringify(asks).length / 4) * opus.input) / 1e6
      expect(relayed.max_tokens).toBe(Math.floor(((1 - inputUsd) * 1e6) / opus.output))
      expect(relayed.thinking.budget_tokens).toBe(relayed.max_tokens - 1)
      await call.settled(1000)

      const huge = { model: 'claude-opus-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'z'.repeat(1_200_000) }] }
      const refused = await send(`${url}/v1/messages`, call.token, huge)
      expect(refused.status).toBe(400)
      expect(refused.text).toMatch(/its input \(about 300\d+ tokens\) would cost up to \$1\.20\d+, more than is left under call-budget-usd/)
      expect(asked).toHaveLength(1)
      expect(ended).toHaveLength(1)
      expect(meter.close(call).refused).toMatch(/more than is left/)
    })
  })
  test('Chat Completions asking for n answers reserves n times its output cap', async () => {
    answer = (_q, res) => json(res, { object: 'chat.completion', choices: [] })
    await withMeter('openai', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      const body = { model: 'gpt-5', n: 3, max_completion_tokens: 1000, messages: [] }
      expect((await send(`${url}/v1/chat/completions`, `Bearer ${call.token}`, body, { header: 'authorization' })).status).toBe(200)
      await call.settled(1000)
      const gpt5 = DEFAULT_PRICES['gpt-5']
      expect(meter.close(call).usedUsd).toBeCloseTo((Math.ceil(JSON.stringify(body).length / 4) * gpt5.input + 3 * 1000 * gpt5.output) / 1e6, 12)
    })
  })
})

describe('prices for every billed kind', () => {
  test('1-hour cache writes are charged at their own rate, web searches per search', async () => {
    const usage = {
      input_tokens: 1000,
      cache_creation_input_tokens: 300_000,
      cache_creation: { ephemeral_5m_input_tokens: 100_000, ephemeral_1h_input_tokens: 200_000 },
      cache_read_input_tokens: 0,
      output_tokens: 100,
      server_tool_use: { web_search_requests: 3 }
    }
    answer = (_q, res) => json(res, { type: 'message', model: 'claude-opus-5-5', content: [], usage })
    await withMeter('anthropic', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      const body = {
        model: 'claude-opus-5-5',
        max_tokens: 100,
        system: [{ type: 'text', text: 'long', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
        messages: []
      }
      expect((await send(`${url}/v1/messages`, call.token, body)).status).toBe(200)
      await call.settled(1000)
      const reading = meter.close(call)
      const expected = (1000 * opus.input + 100_000 * opus.cacheWrite! + 200_000 * opus.cacheWrite1h! + 100 * opus.output) / 1e6 + 3 * 0.01
      expect(reading.usedUsd).toBeCloseTo(expected, 12)
      expect(reading.tokens).toEqual(expect.objectContaining({ cacheWrite: 300_000, cacheWrite1h: 200_000, webSearches: 3 }))
    })
  })

  test('a request for a kind the table cannot price is refused before it is relayed, naming it', async () => {
    answer = (_q, res) => json(res, { type: 'message', model: 'claude-opus-5-5', content: [], usage: { input_tokens: 1, output_tokens: 1 } })
    const noHourRate: PriceTable = { ...DEFAULT_PRICES, 'claude-opus-5-5': { input: 4, cachedInput: 0.4, output: 20, cacheWrite: 5 } }
    await withMeter(
      'anthropic',
      async (meter, url) => {
        const call = meter.open(limits, () => undefined)
        const asks: [unknown, RegExp][] = [
          [
            { model: 'claude-opus-5-5', max_tokens: 5, system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral', ttl: '1h' } }], messages: [] },
            /1-hour prompt-cache writes for model 'claude-opus-5-5'/
          ],
          [
            { model: 'claude-opus-5-5', max_tokens: 5, tools: [{ type: 'code_execution_20250825', name: 'code_execution' }], messages: [] },
            /the server tool 'code_execution_20250825'/
          ],
          [{ model: 'claude-opus-5-5', max_tokens: 5, service_tier: 'priority', messages: [] }, /the 'priority' service tier/]
        ]
        for (const [body, named] of asks) {
          const r = await send(`${url}/v1/messages`, call.token, body)
          expect(r.status).toBe(400)
          expect(r.text).toMatch(named)
        }
        expect(asked).toEqual([])
        const reading = meter.close(call)
        expect(reading.refused).toBeUndefined()
        expect(reading.notes).toHaveLength(3)
      },
      noHourRate
    )
  })

  test("OpenAI: the priority tier is charged at the model's priority rates, web search calls per search; scale tier and file search are refused", async () => {
    const usage = { input_tokens: 10_000, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1000 }
    answer = (_q, res) =>
      json(res, {
        object: 'response',
        model: 'gpt-5',
        service_tier: 'priority',
        output: [{ type: 'web_search_call' }, { type: 'web_search_call' }, { type: 'message' }],
        usage
      })
    await withMeter('openai', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      const token = `Bearer ${call.token}`
      const postAs = (body: unknown) => send(`${url}/v1/responses`, token, body, { header: 'authorization' })
      expect((await postAs({ model: 'gpt-5', service_tier: 'priority', tools: [{ type: 'web_search' }], input: 'hi' })).status).toBe(200)
      expect((await postAs({ model: 'gpt-5', service_tier: 'scale', input: 'hi' })).text).toMatch(/the 'scale' service tier/)
      expect((await postAs({ model: 'gpt-5', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }], input: 'hi' })).text).toMatch(
        /the server tool 'file_search'/
      )
      expect((await postAs({ model: 'gpt-5', background: true, input: 'hi' })).text).toMatch(/a background response/)
      await call.settled(1000)
      const gpt5 = DEFAULT_PRICES['gpt-5']
      expect(asked).toHaveLength(1)
      expect(meter.close(call).usedUsd).toBeCloseTo((2 * (10_000 * gpt5.input + 1000 * gpt5.output)) / 1e6 + 2 * 0.01, 12)
    })
  })
})

describe('reads only where a CLI needs them', () => {
  test("Anthropic: the model list, token counting and the CLI's connectivity check are relayed; files, batches and every other path are refused and logged", async () => {
    answer = (_q, res) => json(res, { data: [] })
    await withMeter('anthropic', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      const get = (path: string, method = 'GET') => send(`${url}${path}`, call.token, undefined, { method })
      expect((await get('/v1/models')).status).toBe(200)
      expect((await get('/v1/models/claude-opus-5-5')).status).toBe(200)
      expect((await get('/api/hello', 'HEAD')).status).toBe(200)
      expect((await send(`${url}/v1/messages/count_tokens`, call.token, { model: 'claude-opus-5-5', messages: [] })).status).toBe(200)
      const refused = ['/v1/files', '/v1/messages/batches', '/v1/messages/batches/msgbatch_1/results', '/v1/files/file_1/content', '/v1/organizations/me']
      for (const path of refused) expect((await get(path)).status).toBe(403)
      expect((await get('/v1/files/file_1', 'DELETE')).status).toBe(403)
      expect(asked.map((q) => `${q.method} ${q.url}`)).toEqual([
        'GET /v1/models',
        'GET /v1/models/claude-opus-5-5',
        'HEAD /api/hello',
        'POST /v1/messages/count_tokens'
      ])
      const notes = meter.close(call).notes.join('\n')
      for (const path of refused) expect(notes).toContain(`refused GET ${path}`)
      expect(notes).toContain('refused DELETE /v1/files/file_1')
    })
  })

  test('OpenAI: the model list is relayed; stored responses, files, batches and vector stores are refused', async () => {
    answer = (_q, res) => json(res, { data: [] })
    await withMeter('openai', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      const get = (path: string, method = 'GET') => send(`${url}${path}`, `Bearer ${call.token}`, undefined, { method, header: 'authorization' })
      expect((await get('/v1/models')).status).toBe(200)
      for (const path of [
        '/v1/responses/resp_1',
        '/v1/responses/resp_1/input_items',
        '/v1/files',
        '/v1/batches',
        '/v1/vector_stores',
        '/v1/chat/completions'
      ]) {
        expect((await get(path)).status).toBe(403)
      }
      expect((await get('/v1/responses/resp_1', 'DELETE')).status).toBe(403)
      expect((await send(`${url}/v1/responses/resp_1/cancel`, `Bearer ${call.token}`, {}, { header: 'authorization' })).status).toBe(403)
      expect(asked.map((q) => q.url)).toEqual(['/v1/models'])
      meter.close(call)
    })
  })
})

describe('provider failures by their own fields', () => {
  test("an error whose message the request shaped (a model named like a billing hold) is the agent's error, and no message text is recorded", async () => {
    const sentence = 'billing hold on this account: a maintainer must raise the monthly credit balance'
    answer = (q, res) => {
      const model = (JSON.parse(q.body) as { model: string }).model
      json(res, { type: 'error', error: { type: 'not_found_error', message: `model: ${model}` } }, 404)
    }
    await withMeter('anthropic', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      expect((await send(`${url}/v1/messages`, call.token, { model: sentence, max_tokens: 5, messages: [] })).status).toBe(404)
      await call.settled(1000)
      expect(meter.close(call).providerFailure).toBeUndefined()
    })
    answer = (_q, res) => json(res, { type: 'error', error: { type: 'invalid_request_error', message: `Your credit balance is too low: ${sentence}` } }, 400)
    await withMeter('anthropic', async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      await send(`${url}/v1/messages`, call.token, { model: 'claude-opus-5-5', max_tokens: 5, messages: [] })
      await call.settled(1000)
      expect(meter.close(call).providerFailure).toBeUndefined()
    })
  })

  test.each([
    [
      402,
      { type: 'error', error: { type: 'billing_error', message: 'echo: ME' } },
      'quota',
      "status 402 (billing_error): the provider's quota or credit is exhausted"
    ],
    [
      400,
      { type: 'error', error: { type: 'billing_error', message: 'echo: ME' } },
      'quota',
      "status 400 (billing_error): the provider's quota or credit is exhausted"
    ],
    [
      429,
      { error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'echo: ME' } },
      'quota',
      "status 429 (insufficient_quota): the provider's quota or credit is exhausted"
    ],
    [429, { type: 'error', error: { type: 'rate_limit_error', message: 'echo: ME' } }, 'transient', 'status 429 (rate_limit_error): rate limited'],
    [529, { type: 'error', error: { type: 'overloaded_error', message: 'echo: ME' } }, 'transient', 'status 529 (overloaded_error): overloaded'],
    [500, { type: 'error', error: { type: 'api_error', message: 'echo: ME' } }, 'transient', 'status 500 (api_error): the provider is unavailable'],
    [503, 'echo: ME', 'transient', 'status 503: the provider is unavailable']
  ])('status %i with %j: %s, recorded as %s', async (status, body, kind, message) => {
    answer = (_q, res) => (typeof body === 'string' ? (res.writeHead(status), res.end(body)) : json(res, body, status))
    await withMeter('anthropic', async (meter, url) => {
      const call = meter.open({ ...limits, deadline: Date.now() }, () => undefined)
      await send(`${url}/v1/messages`, call.token, { model: 'claude-opus-5-5', max_tokens: 5, messages: [] })
      await call.settled(1000)
      expect(meter.close(call).providerFailure).toEqual({ kind, status, message })
    })
  })
})
