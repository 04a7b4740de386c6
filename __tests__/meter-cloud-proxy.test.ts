import { createHash } from 'node:crypto'
import { DEFAULT_PRICES } from '../src/agents/pricing.js'
import { bedrockUpstream, vertexUpstream } from '../src/meter/cloud-routes.js'
import { EventStreamUsageReader } from '../src/meter/event-stream.js'
import { WireMeter } from '../src/meter/wire-meter.js'
import { bedrockChunk, eventFrame, startCloudServer, type CloudKeys, type CloudServer } from './servers/cloud-model-server.js'

const KEYS: CloudKeys = {
  accessKeyId: 'AKIAEXAMPLEPROXY0001',
  secretAccessKey: 'proxy/secret+key/EXAMPLE',
  sessionToken: 'session-token-for-the-proxy-test',
  region: 'eu-central-1',
  googleToken: 'ya29.proxy-test-token'
}
const limits = { limitUsd: 10, limitName: 'call-budget-usd', maxModelRequests: 10 }

let server: CloudServer
beforeAll(async () => {
  server = await startCloudServer(KEYS)
})
afterAll(() => server.close())
beforeEach(() => server.setScript([{ kind: 'text', text: 'hi', usage: { input_tokens: 2000, output_tokens: 300 } }]))

const bedrockEnv = (): NodeJS.ProcessEnv => ({
  AWS_ACCESS_KEY_ID: KEYS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
  AWS_SESSION_TOKEN: KEYS.sessionToken,
  AWS_REGION: KEYS.region,
  ANTHROPIC_BEDROCK_BASE_URL: server.url
})

async function withMeter(meter: WireMeter, fn: (url: string, token: string) => Promise<void>): Promise<number> {
  try {
    const call = meter.open(limits, () => undefined)
    await fn(await meter.url(), call.token)
    await call.settled(1000)
    return meter.close(call).usedUsd
  } finally {
    await meter.stop()
  }
}

const usd = (2000 * 4 + 300 * 20) / 1e6
const request = (token: string, body: unknown = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: [], tools: [{ name: 'Task' }] }) => ({
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify(body)
})

test('Bedrock invoke (JSON) with a model id the client percent-encodes: signed so the upstream accepts it, charged its usage', async () => {
  const meter = new WireMeter(bedrockUpstream(bedrockEnv())!, DEFAULT_PRICES)
  const used = await withMeter(meter, async (url, token) => {
    const req = request(token)
    // a client's own x-amz-* header must be signed too, or AWS refuses the request
    const res = await fetch(`${url}/model/${encodeURIComponent('anthropic.claude-opus-5-5-v1:0')}/invoke`, {
      ...req,
      headers: { ...req.headers, 'x-amz-user-agent': 'aws-sdk-js/3' }
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { usage: unknown }).usage).toEqual({ input_tokens: 2000, output_tokens: 300 })
  })
  expect(server.requests).toHaveLength(1)
  expect(server.requests[0].url).toBe('/model/anthropic.claude-opus-5-5-v1%3A0/invoke')
  expect(server.requests[0].refused).toBeUndefined()
  expect(JSON.stringify(server.requests[0].headers)).not.toContain('loopgate-call-')
  expect(used).toBeCloseTo(usd, 12)
})

test('Bedrock: a payload hash or date the client sends is replaced, never signed as given', async () => {
  const meter = new WireMeter(bedrockUpstream(bedrockEnv())!, DEFAULT_PRICES)
  const req = request('')
  await withMeter(meter, async (url, token) => {
    const res = await fetch(`${url}/model/m/invoke`, {
      ...request(token),
      headers: { ...request(token).headers, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', 'x-amz-date': '20000101T000000Z' }
    })
    expect(res.status).toBe(200)
    await res.text()
  })
  expect(server.requests[0].refused).toBeUndefined()
  expect(server.requests[0].headers['x-amz-content-sha256']).toBe(createHash('sha256').update(req.body).digest('hex'))
  expect(server.requests[0].headers['x-amz-date']).not.toBe('20000101T000000Z')
})

test('Bedrock: a wrong secret is refused by the upstream (the test upstream really checks the signature)', async () => {
  const meter = new WireMeter(bedrockUpstream({ ...bedrockEnv(), AWS_SECRET_ACCESS_KEY: 'not-the-secret' })!, DEFAULT_PRICES)
  const used = await withMeter(meter, async (url, token) => {
    const res = await fetch(`${url}/model/m/invoke`, request(token))
    expect(res.status).toBe(403)
    await res.text()
  })
  expect(server.requests[0].refused).toBe('signature does not match')
  expect(used).toBe(0)
})

test("Bedrock: anything but a model invocation is refused before the upstream (the runner's keys reach the whole account)", async () => {
  const meter = new WireMeter(bedrockUpstream(bedrockEnv())!, DEFAULT_PRICES)
  await withMeter(meter, async (url, token) => {
    for (const [method, p] of [
      ['GET', '/inference-profiles?type=SYSTEM_DEFINED'],
      ['POST', '/model-invocation-job'],
      ['POST', '/guardrail/g1/version/1/apply']
    ]) {
      const res = await fetch(`${url}${p}`, { ...request(token), method, body: method === 'GET' ? undefined : '{}' })
      expect(res.status).toBe(403)
      await res.text()
    }
  })
  expect(server.requests).toHaveLength(0)
})

test('Vertex rawPredict (JSON) and count-tokens: the runner access token replaces the per-call token', async () => {
  const meter = new WireMeter(vertexUpstream({ GOOGLE_OAUTH_ACCESS_TOKEN: KEYS.googleToken, ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1` })!, DEFAULT_PRICES)
  const models = '/v1/projects/p/locations/us-east5/publishers/anthropic/models'
  const used = await withMeter(meter, async (url, token) => {
    const res = await fetch(`${url}${models}/claude-opus-5-5:rawPredict`, request(token))
    expect(res.status).toBe(200)
    await res.text()
    const count = await fetch(`${url}${models}/count-tokens:rawPredict`, request(token, { messages: [] }))
    expect(count.status).toBe(200)
    await count.text()
    const other = await fetch(`${url}/v1/projects/p/locations/us-east5/endpoints`, { headers: { authorization: `Bearer ${token}` } })
    expect(other.status).toBe(403)
    await other.text()
  })
  expect(server.requests.map((q) => q.headers.authorization)).toEqual([`Bearer ${KEYS.googleToken}`, `Bearer ${KEYS.googleToken}`])
  // the count-tokens answer is relayed, never charged
  expect(used).toBeCloseTo(usd, 12)
})

test('the event-stream reader finds the usage whatever the chunk boundaries, and skips a frame whose CRC is wrong', () => {
  const start = { type: 'message_start', message: { model: 'claude-opus-5-5', usage: { input_tokens: 100, cache_read_input_tokens: 50, output_tokens: 1 } } }
  const delta = { type: 'message_delta', usage: { output_tokens: 40 } }
  const forged = bedrockChunk({ type: 'message_delta', usage: { output_tokens: 0 } })
  forged[forged.length - 1] ^= 0xff
  const other = eventFrame({ ':message-type': 'event', ':event-type': 'metadata' }, Buffer.from('{}'))
  const bytes = Buffer.concat([bedrockChunk(start), other, bedrockChunk({ type: 'content_block_delta', delta: { text: 'é' } }), bedrockChunk(delta), forged])
  for (const size of [1, 7, bytes.length]) {
    const reader = new EventStreamUsageReader()
    for (let i = 0; i < bytes.length; i += size) reader.push(bytes.subarray(i, i + size))
    expect(reader.end()).toEqual({ model: 'claude-opus-5-5', final: true, usage: { input: 150, cachedInput: 50, cacheWrite: 0, output: 40 } })
  }
})
