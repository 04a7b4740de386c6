// The metering proxy's cost: added latency per model request (median, p99) and throughput on a
// 10 MB streamed response, each against a direct connection to the same local server, in one run.
import { spawn } from 'node:child_process'
import http from 'node:http'
import { pathToFileURL } from 'node:url'
import { DEFAULT_PRICES } from '../src/agents/pricing.js'
import { WireMeter } from '../src/meter/wire-meter.js'
import { median, printTable, type Figure } from './lib.js'

// the Bedrock route (SigV4, AWS event stream) is measured beside it, in `npm run bench` too
export { benchMeterBedrock } from './meter-bedrock.js'

const REQUESTS = 400
const BIG_BYTES = 10 * 1024 * 1024
const BIG_RUNS = 5

const event = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
const start = event('message_start', { type: 'message_start', message: { model: 'claude-opus-5-5', usage: { input_tokens: 100, output_tokens: 1 } } })
const stop = event('message_delta', { type: 'message_delta', usage: { output_tokens: 20 } }) + event('message_stop', { type: 'message_stop' })
const delta = event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x'.repeat(900) } })

/**
 * A local Anthropic-shaped server in a process of its own (as the model API is): a short stream,
 * or ~10 MB of text deltas for `?big`.
 */
async function modelServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const script = `
    const http = require('node:http')
    const [start, delta, stop, big] = JSON.parse(process.argv[1])
    const chunk = Buffer.from(delta.repeat(64))
    const server = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(start)
        if (req.url.includes('big')) for (let sent = 0; sent < big; sent += chunk.length) res.write(chunk)
        else res.write(delta)
        res.end(stop)
      })
    })
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'))
  `
  const child = spawn(process.execPath, ['-e', script, JSON.stringify([start, delta, stop, BIG_BYTES])], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())))
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill()
      })
  }
}

const agent = new http.Agent({ keepAlive: true })

/** One POST, its body read to the end; returns milliseconds and bytes. */
function post(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const t = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'x-api-key': token, 'content-type': 'application/json' } }, (res) => {
      let bytes = 0
      res.on('data', (c: Buffer) => (bytes += c.length))
      res.on('end', () => resolve({ ms: performance.now() - t, bytes }))
    })
    req.on('error', reject)
    req.end('{"model":"claude-opus-5-5","stream":true,"messages":[]}')
  })
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]
}

async function latencies(url: string, token: string): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < REQUESTS; i++) times.push((await post(`${url}/v1/messages`, token)).ms)
  return times.slice(20)
}

async function throughput(url: string, token: string): Promise<number> {
  const rates: number[] = []
  for (let i = 0; i < BIG_RUNS; i++) {
    const r = await post(`${url}/v1/messages?big`, token)
    rates.push(r.bytes / 1024 / 1024 / (r.ms / 1000))
  }
  return median(rates)
}

export async function benchMeter(): Promise<Figure[]> {
  const upstream = await modelServer()
  const meter = new WireMeter({ api: 'anthropic', base: new URL(upstream.url), auth: { header: 'x-api-key', value: 'bench' } }, DEFAULT_PRICES)
  const proxy = await meter.url()
  const call = meter.open({ limitUsd: 1e9, limitName: 'call-budget-usd', maxModelRequests: 1e9 }, () => undefined)
  try {
    const direct = await latencies(upstream.url, 'bench')
    const via = await latencies(proxy, call.token)
    const directRate = await throughput(upstream.url, 'bench')
    const viaRate = await throughput(proxy, call.token)
    const added = (f: (v: number[]) => number): string => `${(f(via) - f(direct)).toFixed(2)} ms`
    return [
      { name: `metering proxy: added latency per model request, median (${direct.length} requests)`, value: added(median) },
      { name: 'metering proxy: added latency per model request, p99', value: added(p99) },
      { name: 'metering proxy: request latency median, direct / via proxy', value: `${median(direct).toFixed(2)} / ${median(via).toFixed(2)} ms` },
      { name: 'metering proxy: 10 MB stream throughput, direct / via proxy', value: `${directRate.toFixed(0)} / ${viaRate.toFixed(0)} MB/s` },
      { name: 'metering proxy: throughput ratio (via proxy ÷ direct)', value: (viaRate / directRate).toFixed(2) }
    ]
  } finally {
    meter.close(call)
    await meter.stop()
    await upstream.close()
    agent.destroy()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) printTable(await benchMeter())
