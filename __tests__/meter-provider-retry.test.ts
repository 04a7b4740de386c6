import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { DEFAULT_PRICES } from '../src/agents/pricing.js'
import type { CallLimits } from '../src/meter/metered-call.js'
import { WireMeter } from '../src/meter/wire-meter.js'

// A scripted Anthropic upstream: each request takes the next step; `at` records when each came.
type Step = { status: number; body?: unknown; headers?: Record<string, string> } | 'ok' | 'drop' | 'cut' | 'hang'
const REAL_KEY = 'sk-ant-real-key-never-in-a-record'
const USAGE = { input_tokens: 1000, output_tokens: 100 }
const OK_BODY = JSON.stringify({ type: 'message', model: 'claude-opus-5-5', usage: USAGE, content: [] })

let upstream: http.Server
let base = ''
let script: Step[] = []
const at: number[] = []

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      at.push(Date.now())
      const step = script.shift() ?? 'ok'
      if (step === 'drop') return req.socket.destroy()
      if (step === 'hang') return
      if (step === 'ok') {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(OK_BODY)
      }
      if (step === 'cut') {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { model: 'claude-opus-5-5', usage: USAGE } })}\n\n`)
        return setTimeout(() => req.socket.destroy(), 20)
      }
      res.writeHead(step.status, { 'content-type': 'application/json', ...(step.headers ?? {}) })
      res.end(JSON.stringify(step.body ?? { type: 'error', error: { type: 'overloaded_error', message: `scripted ${step.status}` } }))
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
})
afterAll(async () => {
  upstream.closeAllConnections()
  await new Promise((resolve) => upstream.close(resolve))
})

const limits: CallLimits = { limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 10 }
const fast = { 'retry-after-ms': '5' }
// claude-opus-5-5: $4 in, $20 out per million
const okUsd = (1000 * 4 + 100 * 20) / 1e6

async function oneRequest(steps: Step[], callLimits: CallLimits = limits) {
  script = [...steps]
  at.length = 0
  const meter = new WireMeter({ api: 'anthropic', base: new URL(base), auth: { header: 'x-api-key', value: REAL_KEY } }, DEFAULT_PRICES)
  try {
    const url = await meter.url()
    const call = meter.open(callLimits, () => undefined)
    const res = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': call.token }, body: '{"model":"claude-opus-5-5"}' })
    const text = await res.text().catch((err: Error) => `broken: ${err.message}`)
    await call.settled(5000)
    return { status: res.status, text, reading: meter.close(call), requests: at.length }
  } finally {
    await meter.stop()
  }
}

test('a 429 then a 200: the caller gets the one answer, charged once, and no provider failure is recorded', async () => {
  const r = await oneRequest([{ status: 429, headers: fast, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } } }, 'ok'])
  expect(r.requests).toBe(2)
  expect(r.status).toBe(200)
  expect(r.text).toBe(OK_BODY)
  expect(r.reading.responses).toBe(1)
  expect(r.reading.usedUsd).toBeCloseTo(okUsd, 12)
  expect(r.reading.providerFailure).toBeUndefined()
})

test('a connection dropped before the answer and a 503 are retried too', async () => {
  const r = await oneRequest(['drop', { status: 503, headers: fast }, 'ok'])
  expect(r.requests).toBe(3)
  expect(r.status).toBe(200)
  expect(r.reading.usedUsd).toBeCloseTo(okUsd, 12)
  expect(r.reading.providerFailure).toBeUndefined()
})

test("529 every time: four attempts, then the caller gets the provider's last error, recorded in loopgate's words and charged nothing", async () => {
  const overloaded = {
    status: 529,
    headers: { ...fast, 'request-id': 'req_011CX' },
    body: { type: 'error', error: { type: 'overloaded_error', message: `Overloaded (key ${REAL_KEY})` } }
  }
  const r = await oneRequest([overloaded, overloaded, overloaded, overloaded, overloaded])
  expect(r.requests).toBe(4)
  expect(r.status).toBe(529)
  expect(JSON.parse(r.text).error.type).toBe('overloaded_error')
  expect(r.reading.usedUsd).toBe(0)
  expect(r.reading.providerFailure).toEqual({
    kind: 'transient',
    status: 529,
    message: 'status 529 (overloaded_error): overloaded (request req_011CX)'
  })
  expect(JSON.stringify(r.reading)).not.toContain(REAL_KEY)
})

test('an exhausted quota is not retried', async () => {
  const quota = {
    status: 429,
    headers: fast,
    body: { error: { type: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan and billing details.' } }
  }
  const r = await oneRequest([quota, 'ok'])
  expect(r.requests).toBe(1)
  expect(r.status).toBe(429)
  expect(r.reading.providerFailure).toEqual(
    expect.objectContaining({ kind: 'quota', status: 429, message: "status 429 (insufficient_quota): the provider's quota or credit is exhausted" })
  )
})

test('an error that is not the provider failing (a 400) is passed on once and records no provider failure', async () => {
  const r = await oneRequest([{ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } } }, 'ok'])
  expect(r.requests).toBe(1)
  expect(r.status).toBe(400)
  expect(r.reading.providerFailure).toBeUndefined()
})

test("retry-after is honoured: the retry waits for it, and none starts past the call's deadline", async () => {
  const waited = await oneRequest([{ status: 429, headers: { 'retry-after-ms': '250' } }, 'ok'])
  expect(waited.requests).toBe(2)
  expect(at[1] - at[0]).toBeGreaterThanOrEqual(245)
  expect(waited.status).toBe(200)

  const late = await oneRequest([{ status: 429, headers: { 'retry-after': '2' } }, 'ok'], { ...limits, deadline: Date.now() + 1000 })
  expect(late.requests).toBe(1)
  expect(late.status).toBe(429)
  expect(late.reading.providerFailure).toEqual(expect.objectContaining({ kind: 'transient', status: 429 }))
})

test('a stream the provider drops midway is charged what it showed and recorded as a provider failure', async () => {
  const r = await oneRequest(['cut'])
  expect(r.requests).toBe(1)
  expect(r.text).toMatch(/^broken: |message_start/)
  expect(r.reading.responses).toBe(1)
  expect(r.reading.usedUsd).toBeGreaterThan(0)
  expect(r.reading.providerFailure?.message).toMatch(/^the connection to the provider broke/)
})

test("the CLI's retry of a request the provider failed is not a new turn; a different request is", async () => {
  const overloaded = { status: 529, headers: fast }
  script = [overloaded, overloaded, overloaded, overloaded, 'ok', 'ok']
  const meter = new WireMeter({ api: 'anthropic', base: new URL(base), auth: { header: 'x-api-key', value: REAL_KEY } }, DEFAULT_PRICES)
  try {
    const url = await meter.url()
    const call = meter.open({ ...limits, maxModelRequests: 1 }, () => undefined)
    const send = async (text: string): Promise<number> => {
      const body = JSON.stringify({ model: 'claude-opus-5-5', tools: [{ name: 'Task' }], messages: [{ role: 'user', content: text }] })
      const res = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': call.token }, body })
      await res.text()
      return res.status
    }
    expect(await send('turn one')).toBe(529)
    expect(await send('turn one')).toBe(200)
    expect(await send('turn two')).toBe(400)
    expect(meter.close(call)).toEqual(expect.objectContaining({ modelRequests: 1, refused: expect.stringMatching(/max-turns allows 1/) }))
  } finally {
    await meter.stop()
  }
})

test('a caller that hangs up before the answer is no provider failure', async () => {
  script = ['hang']
  at.length = 0
  const meter = new WireMeter({ api: 'anthropic', base: new URL(base), auth: { header: 'x-api-key', value: REAL_KEY } }, DEFAULT_PRICES)
  try {
    const url = await meter.url()
    const call = meter.open(limits, () => undefined)
    const gone = new AbortController()
    const asked = fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': call.token }, body: '{}', signal: gone.signal })
    while (at.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    gone.abort()
    await expect(asked).rejects.toThrow()
    await call.settled(5000)
    expect(meter.close(call).providerFailure).toBeUndefined()
  } finally {
    await meter.stop()
  }
})
