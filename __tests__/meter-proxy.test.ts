import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { DEFAULT_PRICES } from '../src/agents/pricing.js'
import { WireMeter } from '../src/meter/wire-meter.js'
import type { Upstream } from '../src/meter/wire-api.js'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

let upstream: http.Server
let base = ''
const seen: Seen[] = []
let answer: (req: Seen, res: http.ServerResponse) => void = (_q, res) => res.end('{}')

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      const q = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body }
      seen.push(q)
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
  seen.length = 0
})

async function withMeter(up: Omit<Upstream, 'base'> & { path?: string }, fn: (meter: WireMeter, url: string) => Promise<void>): Promise<void> {
  const meter = new WireMeter({ ...up, base: new URL(`${base}${up.path ?? ''}`) }, DEFAULT_PRICES)
  try {
    await fn(meter, await meter.url())
  } finally {
    await meter.stop()
  }
}

const limits = { limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 10 }

test('Chat Completions: the proxy asks for the usage chunk, relays the stream unchanged and charges its usage', async () => {
  const stream = [
    `data: ${JSON.stringify({ model: 'gpt-5', choices: [{ delta: { content: 'hé' } }] })}\n\n`,
    `data: ${JSON.stringify({ model: 'gpt-5', choices: [], usage: { prompt_tokens: 1000, completion_tokens: 100 } })}\n\n`,
    'data: [DONE]\n\n'
  ].join('')
  answer = (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    for (let i = 0; i < stream.length; i += 7) res.write(stream.slice(i, i + 7))
    res.end()
  }
  await withMeter({ api: 'openai', path: '/v1', auth: { header: 'authorization', value: 'Bearer sk-real' } }, async (meter, url) => {
    const call = meter.open(limits, () => undefined)
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${call.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5', stream: true, messages: [] })
    })
    expect(await res.text()).toBe(stream)
    await call.settled(1000)
    const reading = meter.close(call)
    expect(reading.usedUsd).toBeCloseTo((1000 * 1.25 + 100 * 10) / 1e6, 12)
    expect(seen[0].headers.authorization).toBe('Bearer sk-real')
    expect(JSON.parse(seen[0].body).stream_options).toEqual({ include_usage: true })
  })
})

test('Azure: the per-call token comes as api-key, the real key goes as api-key, the query is kept', async () => {
  answer = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ model: 'gpt-5', output: [], usage: { input_tokens: 10, output_tokens: 10 } }))
  }
  await withMeter({ api: 'azure', path: '/openai/v1', auth: { header: 'api-key', value: 'azure-real' } }, async (meter, url) => {
    const call = meter.open(limits, () => undefined)
    const res = await fetch(`${url}/openai/v1/responses?api-version=2025-04-01`, {
      method: 'POST',
      headers: { 'api-key': call.token },
      body: '{"model":"gpt-5"}'
    })
    expect(res.status).toBe(200)
    await res.text()
    await call.settled(1000)
    expect(seen[0].url).toBe('/openai/v1/responses?api-version=2025-04-01')
    expect(seen[0].headers['api-key']).toBe('azure-real')
    expect(meter.close(call).responses).toBe(1)
  })
})

test('a POST the proxy cannot meter (batches) is refused and never reaches the upstream; an unknown model is charged the dearest rate', async () => {
  answer = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ model: 'claude-unheard-of', content: [], usage: { input_tokens: 1_000_000, output_tokens: 0 } }))
  }
  await withMeter({ api: 'anthropic', auth: { header: 'x-api-key', value: 'sk-ant-real' } }, async (meter, url) => {
    const call = meter.open(limits, () => undefined)
    const batch = await fetch(`${url}/v1/messages/batches`, { method: 'POST', headers: { 'x-api-key': call.token }, body: '{}' })
    expect(batch.status).toBe(403)
    expect(seen).toHaveLength(0)
    const res = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': call.token }, body: '{"model":"claude-unheard-of"}' })
    await res.text()
    await call.settled(1000)
    const reading = meter.close(call)
    const dearestInput = Math.max(...Object.values(DEFAULT_PRICES).map((p) => p.input))
    expect(reading.usedUsd).toBeCloseTo(dearestInput, 9)
    expect(reading.notes.join('\n')).toMatch(/no price for model 'claude-unheard-of'.*dearest/)
    expect(seen[0].headers['x-api-key']).toBe('sk-ant-real')
  })
})

test('an upstream error answer costs nothing; a success with no readable usage costs what was left under the limit', async () => {
  let status = 529
  answer = (_q, res) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end('{"type":"error"}')
  }
  await withMeter({ api: 'anthropic', auth: { header: 'x-api-key', value: 'k' } }, async (meter, url) => {
    const call = meter.open(limits, () => undefined)
    const post = async (): Promise<void> => {
      await (await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': call.token }, body: '{}' })).text()
      await call.settled(1000)
    }
    await post()
    expect(call.read().usedUsd).toBe(0)
    status = 200
    await post()
    expect(call.read().usedUsd).toBe(10)
    meter.close(call)
  })
})

test("main-loop requests past the allowance are refused and end the call; side requests (no tools) and sub-agents' (no Task tool) are not counted", async () => {
  answer = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ model: 'claude-haiku-4-5', content: [], usage: { input_tokens: 10, output_tokens: 1 } }))
  }
  await withMeter({ api: 'anthropic', auth: { header: 'x-api-key', value: 'k' } }, async (meter, url) => {
    const ended: string[] = []
    const call = meter.open({ limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 2 }, (why) => ended.push(why))
    const post = async (tools: string[]): Promise<number> => {
      const res = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': call.token },
        body: JSON.stringify({ model: 'm', tools: tools.map((name) => ({ name })) })
      })
      await res.text()
      await call.settled(1000)
      return res.status
    }
    const mainLoop = ['Bash', 'Task']
    const subAgent = ['Bash']
    expect(await post(mainLoop)).toBe(200)
    expect(await post([])).toBe(200)
    expect(await post(subAgent)).toBe(200)
    expect(await post(mainLoop)).toBe(200)
    expect(await post(mainLoop)).toBe(400)
    expect(seen).toHaveLength(4)
    expect(ended).toEqual([expect.stringMatching(/already sent 2 main-loop model requests/)])
    // once refused, every later request of the call is refused too
    expect(await post([])).toBe(400)
    expect(seen).toHaveLength(4)
    meter.close(call)
  })
})

test('a request line naming another host, or a path that is not plain, is refused: the real credential goes nowhere', async () => {
  const elsewhere: Seen[] = []
  const other = http.createServer((req, res) => {
    elsewhere.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' })
    res.end('{}')
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  const otherHost = `127.0.0.1:${(other.address() as AddressInfo).port}`
  answer = (_q, res) => res.end('{}')
  try {
    await withMeter({ api: 'anthropic', auth: { header: 'x-api-key', value: 'sk-ant-real' } }, async (meter, url) => {
      const call = meter.open(limits, () => undefined)
      const proxy = new URL(url)
      const lines = [`//${otherHost}/v1/models`, `http://${otherHost}/v1/models`, '/v1/models/..%2Ffiles', '/v1/models/../files', '/v1//models']
      const statuses: number[] = []
      for (const line of lines) {
        statuses.push(
          await new Promise<number>((resolve, reject) => {
            const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'GET', path: line, headers: { 'x-api-key': call.token } }, (res) => {
              res.resume()
              res.on('end', () => resolve(res.statusCode ?? 0))
            })
            req.on('error', reject)
            req.end()
          })
        )
      }
      expect(statuses).toEqual(lines.map(() => 403))
      expect(elsewhere).toEqual([])
      expect(seen).toEqual([])
      meter.close(call)
    })
  } finally {
    await new Promise((resolve) => other.close(resolve))
  }
})
