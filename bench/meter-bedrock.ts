// The Bedrock route's cost through the metering proxy: SigV4 signing of each request and the reading
// of AWS event-stream frames, as added latency per model request (median, p99) and throughput on a
// 10 MB streamed answer, each against a direct connection to the same local server, in one run.
import { spawn } from 'node:child_process'
import http from 'node:http'
import { pathToFileURL } from 'node:url'
import { DEFAULT_PRICES } from '../src/agents/pricing.js'
import { bedrockUpstream } from '../src/meter/cloud-routes.js'
import { WireMeter } from '../src/meter/wire-meter.js'
import { median, printTable, type Figure } from './lib.js'

const REQUESTS = 400
const BIG_BYTES = 10 * 1024 * 1024
const BIG_RUNS = 5

/** A local Bedrock-shaped server in a process of its own: a short event stream, or ~10 MB of text deltas for `?big`. */
async function bedrockServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const script = `
    const http = require('node:http')
    const { crc32 } = require('node:zlib')
    const big = Number(process.argv[1])
    const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b }
    function frame(event) {
      const payload = Buffer.from(JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64') }))
      const hs = Buffer.concat([[':event-type', 'chunk'], [':message-type', 'event']].map(([k, v]) => {
        const l = Buffer.alloc(2); l.writeUInt16BE(v.length)
        return Buffer.concat([Buffer.from([k.length]), Buffer.from(k), Buffer.from([7]), l, Buffer.from(v)])
      }))
      const prelude = Buffer.concat([u32(12 + hs.length + payload.length + 4), u32(hs.length)])
      const body = Buffer.concat([prelude, u32(crc32(prelude)), hs, payload])
      return Buffer.concat([body, u32(crc32(body))])
    }
    const start = frame({ type: 'message_start', message: { model: 'claude-opus-5-5', usage: { input_tokens: 100, output_tokens: 1 } } })
    const delta = frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x'.repeat(900) } })
    const stop = Buffer.concat([frame({ type: 'message_delta', usage: { output_tokens: 20 } }), frame({ type: 'message_stop' })])
    const chunk = Buffer.concat(Array(64).fill(delta))
    const server = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' })
        res.write(start)
        if (req.url.includes('big')) for (let sent = 0; sent < big; sent += chunk.length) res.write(chunk)
        else res.write(delta)
        res.end(stop)
      })
    })
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'))
  `
  const child = spawn(process.execPath, ['-e', script, String(BIG_BYTES)], { stdio: ['ignore', 'pipe', 'inherit'] })
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

function post(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const t = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      let bytes = 0
      res.on('data', (c: Buffer) => (bytes += c.length))
      res.on('end', () => resolve({ ms: performance.now() - t, bytes }))
    })
    req.on('error', reject)
    req.end('{"anthropic_version":"bedrock-2023-05-31","max_tokens":100,"messages":[]}')
  })
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]
}

async function latencies(url: string, token: string): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < REQUESTS; i++) times.push((await post(`${url}/model/us.anthropic.claude-opus-5-5/invoke-with-response-stream`, token)).ms)
  return times.slice(20)
}

async function throughput(url: string, token: string): Promise<number> {
  const rates: number[] = []
  for (let i = 0; i < BIG_RUNS; i++) {
    const r = await post(`${url}/model/us.anthropic.claude-opus-5-5/invoke-with-response-stream?big`, token)
    rates.push(r.bytes / 1024 / 1024 / (r.ms / 1000))
  }
  return median(rates)
}

export async function benchMeterBedrock(): Promise<Figure[]> {
  const upstream = await bedrockServer()
  const route = bedrockUpstream({
    AWS_ACCESS_KEY_ID: 'AKIABENCH',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SESSION_TOKEN: 'bench',
    AWS_REGION: 'us-east-1',
    ANTHROPIC_BEDROCK_BASE_URL: upstream.url
  })
  const meter = new WireMeter(route!, DEFAULT_PRICES)
  const proxy = await meter.url()
  const call = meter.open({ limitUsd: 1e9, limitName: 'call-budget-usd', maxModelRequests: 1e9 }, () => undefined)
  try {
    const direct = await latencies(upstream.url, 'bench')
    const via = await latencies(proxy, call.token)
    const directRate = await throughput(upstream.url, 'bench')
    const viaRate = await throughput(proxy, call.token)
    const added = (f: (v: number[]) => number): string => `${(f(via) - f(direct)).toFixed(2)} ms`
    return [
      { name: `metering proxy, Bedrock (SigV4, event stream): added latency per request, median (${direct.length} requests)`, value: added(median) },
      { name: 'metering proxy, Bedrock: added latency per request, p99', value: added(p99) },
      { name: 'metering proxy, Bedrock: 10 MB event stream throughput, direct / via proxy', value: `${directRate.toFixed(0)} / ${viaRate.toFixed(0)} MB/s` },
      { name: 'metering proxy, Bedrock: throughput ratio (via proxy ÷ direct)', value: (viaRate / directRate).toFixed(2) }
    ]
  } finally {
    meter.close(call)
    await meter.stop()
    await upstream.close()
    agent.destroy()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) printTable(await benchMeterBedrock())
