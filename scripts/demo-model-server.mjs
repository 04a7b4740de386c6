#!/usr/bin/env node
// The demo's scripted model: a local Anthropic Messages API (streaming SSE) that drives the real
// `claude` CLI through the bundled example (examples/demo-repo, slugify). Like a real model it gets
// the task half right first; on the next iteration, seeing loopgate's evidence, it fixes the rest.
// No API key, no network: 127.0.0.1 only.
//
//   import { startDemoModelServer } from './demo-model-server.mjs'
//   const model = await startDemoModelServer()   // { url, requests, close() }
//   env.ANTHROPIC_BASE_URL = model.url            // and any anthropic-api-key, e.g. 'demo-no-key'
//   ...run the loop...
//   await model.close()
//
// Or stand-alone: `node scripts/demo-model-server.mjs [port]` prints the URL and serves until killed.
import http from 'node:http'
import { fileURLToPath } from 'node:url'

const HALF_FIX = [
  '/** Turns a title into a URL slug: "Hello, World!" → "hello-world". */',
  'export function slugify(title) {',
  "  return title.toLowerCase().replace(/ +/g, '-')",
  '}'
].join('\n')

const FULL_FIX = [
  '/** Turns a title into a URL slug: "Hello, World!" → "hello-world". */',
  'export function slugify(title) {',
  "  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')",
  '}'
].join('\n')

const write = (content) => `cat > src/slugify.mjs <<'LOOPGATE_EOF'\n${content}\nLOOPGATE_EOF`

/** The scripted turns of each attempt: tool calls, then the final answer. */
const ATTEMPTS = {
  first: [
    { tool: 'Bash', input: { command: 'cat src/slugify.mjs', description: 'Read the slugify source' } },
    { tool: 'Bash', input: { command: write(HALF_FIX), description: 'Join words with dashes' } },
    { text: 'I replaced spaces with dashes. Done!' }
  ],
  retry: [
    { tool: 'Bash', input: { command: 'node --test test/ 2>&1 | grep -E "^(not ok|ok)" || true', description: 'See which tests fail' } },
    { tool: 'Bash', input: { command: write(FULL_FIX), description: 'Strip every non-alphanumeric run' } },
    { text: 'The gate said punctuation still failed; slugify now strips every non-alphanumeric run.' }
  ]
}

/** Token usage reported per answer: the CLI prices it, so every call has a known, small cost. */
const USAGE = { input_tokens: 2000, output_tokens: 150, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }

function textOf(content) {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((c) => (c && c.type === 'text' ? c.text : '')).join('\n')
}

/** Chooses the answer from the conversation itself, so the server keeps no state between calls. */
export function nextTurn(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : []
  const prompt = messages
    .filter((m) => m.role === 'user')
    .map((m) => textOf(m.content))
    .join('\n')
  const attempt = /Evidence from the last iteration/i.test(prompt) ? ATTEMPTS.retry : ATTEMPTS.first
  const done = messages.filter((m) => m.role === 'assistant').length
  return attempt[Math.min(done, attempt.length - 1)]
}

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
}

let ids = 0

function stream(res, model, turn) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id: `msg_demo_${++ids}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...USAGE, output_tokens: 1 }
    }
  })
  if (turn.text !== undefined) {
    sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
    sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } })
  } else {
    sse(res, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_demo_${++ids}`, name: turn.tool, input: {} }
    })
    sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) } })
  }
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 })
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: turn.text !== undefined ? 'end_turn' : 'tool_use', stop_sequence: null },
    usage: USAGE
  })
  sse(res, 'message_stop', { type: 'message_stop' })
  res.end()
}

/** Starts the scripted model on 127.0.0.1 (port 0 = any free port). */
export async function startDemoModelServer({ port = 0 } = {}) {
  const requests = []
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      let body
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null')
      } catch {
        body = null
      }
      requests.push({ method: req.method, url: req.url })
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end('{}')
      }
      if (req.url.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end('{"input_tokens":100}')
      }
      const model = typeof body?.model === 'string' ? body.model : 'claude-demo'
      // Side calls without tools (titles, probes) get a short answer and use no script step.
      const turn = Array.isArray(body?.tools) && body.tools.length > 0 ? nextTurn(body) : { text: 'ok' }
      stream(res, model, turn)
    })
  })
  const sockets = new Set()
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = await startDemoModelServer({ port: Number(process.argv[2] ?? 0) })
  console.log(server.url)
  const stop = () => server.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
