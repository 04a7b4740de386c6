import { createHash, createHmac } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32 } from 'node:zlib'

/** The fake cloud credentials the server checks: AWS keys for Bedrock, an access token for Vertex. */
export interface CloudKeys {
  accessKeyId: string
  secretAccessKey: string
  sessionToken: string
  region: string
  googleToken: string
}

export interface CloudUsage {
  input_tokens: number
  output_tokens: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
}

export type CloudStep = { kind: 'text'; text: string; usage: CloudUsage } | { kind: 'tool'; name: string; input: Record<string, unknown>; usage: CloudUsage }

export interface CloudRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  raw: Buffer
  /** Why the server refused the request's credential, or undefined when it was accepted. */
  refused?: string
}

export interface CloudServer {
  url: string
  requests: CloudRequest[]
  /** The usage of every answer sent (side requests included), in order. */
  sent: CloudUsage[]
  setScript(steps: CloudStep[]): void
  close(): Promise<void>
}

const hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex')
const mac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest()
const rfc3986 = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())

/** SigV4 as AWS documents it, written apart from loopgate's signer: the signature the request should carry. */
export function expectedSignature(q: CloudRequest, keys: CloudKeys, signedHeaders: string[], scope: string): string {
  const url = new URL(q.url, 'http://x')
  const canonicalUri = url.pathname
    .split('/')
    .map((s) => rfc3986(s))
    .join('/')
  const query = [...url.searchParams]
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&')
  const headerLines = signedHeaders.map((h) => `${h}:${String(q.headers[h] ?? '').trim()}\n`).join('')
  const request = `${q.method}\n${canonicalUri}\n${query}\n${headerLines}\n${signedHeaders.join(';')}\n${hex(q.raw)}`
  const amzDate = String(q.headers['x-amz-date'])
  const [day, region, service] = scope.split('/')
  const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${hex(request)}`
  const kSigning = mac(mac(mac(mac('AWS4' + keys.secretAccessKey, day), region), service), 'aws4_request')
  return createHmac('sha256', kSigning).update(stringToSign).digest('hex')
}

function checkSigV4(q: CloudRequest, keys: CloudKeys): string | undefined {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8}\/[^/]+\/[^/]+\/aws4_request), SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
    String(q.headers.authorization ?? '')
  )
  if (!m) return 'no SigV4 authorization header'
  const [, keyId, scope, signed, signature] = m
  if (keyId !== keys.accessKeyId) return 'unknown access key'
  if (scope.split('/')[1] !== keys.region || scope.split('/')[2] !== 'bedrock') return `scope ${scope}`
  if (q.headers['x-amz-security-token'] !== keys.sessionToken) return 'session token missing'
  const headers = signed.split(';')
  const amz = Object.keys(q.headers).filter((h) => h.startsWith('x-amz-'))
  for (const h of ['host', ...amz]) if (!headers.includes(h)) return `${h} not signed`
  if (q.headers['x-amz-content-sha256'] !== hex(q.raw)) return 'payload hash'
  return expectedSignature(q, keys, headers, scope) === signature ? undefined : 'signature does not match'
}

function events(model: string, step: CloudStep): Record<string, unknown>[] {
  const block =
    step.kind === 'text'
      ? [
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: step.text } }
        ]
      : [
          { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_${Date.now()}`, name: step.name, input: {} } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) } }
        ]
  const u = step.usage
  return [
    {
      type: 'message_start',
      message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { ...u, output_tokens: 1 } }
    },
    ...block,
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: step.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: u.output_tokens }
    },
    { type: 'message_stop' }
  ]
}

/** One AWS event-stream frame: prelude (lengths, CRC), string headers, payload, message CRC. */
export function eventFrame(headers: Record<string, string>, payload: Buffer): Buffer {
  const hs = Buffer.concat(
    Object.entries(headers).map(([k, v]) => {
      const value = Buffer.from(v)
      const len = Buffer.alloc(2)
      len.writeUInt16BE(value.length)
      return Buffer.concat([Buffer.from([k.length]), Buffer.from(k), Buffer.from([7]), len, value])
    })
  )
  const total = 12 + hs.length + payload.length + 4
  const prelude = Buffer.alloc(8)
  prelude.writeUInt32BE(total, 0)
  prelude.writeUInt32BE(hs.length, 4)
  const preludeCrc = Buffer.alloc(4)
  preludeCrc.writeUInt32BE(crc32(prelude))
  const body = Buffer.concat([prelude, preludeCrc, hs, payload])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([body, crc])
}

export function bedrockChunk(event: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abcdef' }))
  return eventFrame({ ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' }, payload)
}

function message(model: string, step: CloudStep): Record<string, unknown> {
  const content = step.kind === 'text' ? [{ type: 'text', text: step.text }] : [{ type: 'tool_use', id: 'toolu_1', name: step.name, input: step.input }]
  return { id: 'msg_1', type: 'message', role: 'assistant', model, content, stop_reason: step.kind === 'tool' ? 'tool_use' : 'end_turn', usage: step.usage }
}

/**
 * A scripted Bedrock runtime and Vertex AI endpoint on 127.0.0.1: Bedrock requests must carry a
 * valid SigV4 signature of the test's keys, Vertex requests the test's bearer token. Main-loop
 * requests (those offering tools) take the script's next step; others get a one-token answer.
 */
export async function startCloudServer(keys: CloudKeys, model = 'claude-opus-5-5'): Promise<CloudServer> {
  let script: CloudStep[] = []
  const state: CloudServer = {
    url: '',
    requests: [],
    sent: [],
    setScript(steps) {
      script = [...steps]
      state.requests.length = 0
      state.sent.length = 0
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
  const answer = (q: CloudRequest, res: http.ServerResponse): void => {
    const bedrock = q.url.startsWith('/model/')
    q.refused = bedrock ? checkSigV4(q, keys) : q.headers.authorization === `Bearer ${keys.googleToken}` ? undefined : 'bad bearer'
    if (q.refused) {
      res.writeHead(403, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ message: q.refused }))
    }
    let body: { tools?: unknown[] } = {}
    try {
      body = JSON.parse(q.raw.toString('utf8')) as typeof body
    } catch {
      // not JSON: answered as a side request
    }
    const main = Array.isArray(body.tools) && body.tools.length > 0
    const step: CloudStep = (main ? script.shift() : undefined) ?? { kind: 'text', text: main ? 'Done.' : 'ok', usage: { input_tokens: 3, output_tokens: 1 } }
    state.sent.push(step.usage)
    if (/\/invoke-with-response-stream$/.test(q.url)) {
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' })
      for (const e of events(model, step)) res.write(bedrockChunk(e))
      return void res.end()
    }
    if (/:streamRawPredict$/.test(q.url)) {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      for (const e of events(model, step)) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`)
      return void res.end()
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(message(model, step)))
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const q: CloudRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) }
      state.requests.push(q)
      answer(q, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}
