/**
 * The first process inside a sandbox's namespaces (PID 1 there, root, run with `node -e` and an
 * empty environment). It reads its launch file (root-only, deleted once read), brings loopback up,
 * makes every address local so nothing leaves by a route, relays the loopback ports it is given to
 * loopgate's unix sockets outside, answers every DNS query with REFUSED and reports it, counts the
 * direct connections the kernel refused, runs the setup steps, then starts the command as the
 * run's user and ends with it: its end kills every process left in the namespace, and it reports
 * how many there were.
 *
 * Plain JavaScript in a string: it runs as a child of `unshare`, not as part of loopgate's bundle.
 */
export const SANDBOX_INIT = String.raw`
'use strict'
const net = require('net'), dgram = require('dgram'), cp = require('child_process'), fs = require('fs')
const file = process.argv[1]
const c = JSON.parse(fs.readFileSync(file, 'utf8'))
fs.rmSync(file, { force: true })
const say = (m) => process.stderr.write('loopgate sandbox: ' + m + '\n')
let report = null
const queue = []
function send(event) {
  const line = JSON.stringify(event) + '\n'
  if (report) report.write(line)
  else queue.push(line)
}
if (c.report) {
  const s = net.connect(c.report)
  s.on('connect', () => { report = s; for (const l of queue.splice(0)) s.write(l) })
  s.on('error', () => undefined)
}
function ip(args, optional) {
  try { cp.execFileSync(c.ip, args, { stdio: ['ignore', 'ignore', 'pipe'] }) }
  catch (e) { if (!optional) { say('ip ' + args.join(' ') + ' failed: ' + String(e.stderr || e.message).trim()); process.exit(125) } }
}
function relay(port, socket) {
  const server = net.createServer((inside) => {
    const outside = net.connect(socket)
    const end = () => { inside.destroy(); outside.destroy() }
    inside.on('error', end); outside.on('error', end)
    inside.pipe(outside); outside.pipe(inside)
  })
  server.on('error', (e) => say('relay on port ' + port + ': ' + e.message))
  server.listen(port, '127.0.0.1')
}
function question(msg, at) {
  const labels = []
  let i = at
  while (i < msg.length && msg[i] !== 0 && labels.length < 128) {
    const n = msg[i]
    if (n > 63) break
    labels.push(msg.subarray(i + 1, i + 1 + n).toString('latin1'))
    i += n + 1
  }
  return { name: labels.join('.'), end: Math.min(msg.length, i + 5) }
}
function refused(msg) {
  if (msg.length < 12) return null
  const q = question(msg, 12)
  send({ kind: 'dns', host: q.name.replace(/[^A-Za-z0-9._-]/g, '?').slice(0, 253) || '?', port: 53 })
  const out = Buffer.from(msg.subarray(0, q.end))
  out[2] = 0x80 | (msg[2] & 0x79)
  out[3] = 0x05
  out.writeUInt16BE(msg.readUInt16BE(4) ? 1 : 0, 4)
  out.fill(0, 6, 12)
  return out
}
function dns() {
  for (const type of ['udp4', 'udp6']) {
    const sock = dgram.createSocket(type)
    sock.on('error', () => sock.close())
    sock.on('message', (msg, from) => { const r = refused(msg); if (r) sock.send(r, from.port, from.address) })
    sock.bind(53, type === 'udp4' ? '0.0.0.0' : '::')
  }
  const tcp = net.createServer((s) => {
    let buf = Buffer.alloc(0)
    s.on('error', () => s.destroy())
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]).subarray(0, 70000)
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const r = refused(buf.subarray(2, 2 + buf.readUInt16BE(0)))
        buf = buf.subarray(2 + buf.readUInt16BE(0))
        if (r) { const len = Buffer.alloc(2); len.writeUInt16BE(r.length); s.write(Buffer.concat([len, r])) }
      }
    })
  })
  tcp.on('error', () => undefined)
  tcp.listen(53, '0.0.0.0')
}
function attemptFails() {
  try {
    const lines = fs.readFileSync('/proc/net/snmp', 'utf8').split('\n').filter((l) => l.startsWith('Tcp:'))
    const names = lines[0].split(/\s+/), values = lines[1].split(/\s+/)
    return Number(values[names.indexOf('AttemptFails')]) || 0
  } catch { return 0 }
}
let counted = 0
function countConnects() {
  const now = attemptFails()
  if (now > counted) send({ kind: 'connect', count: now - counted })
  counted = now
}
if (c.net) {
  ip(['link', 'set', 'lo', 'up'])
  ip(['route', 'add', 'local', '0.0.0.0/0', 'dev', 'lo', 'table', 'local'])
  ip(['-6', 'route', 'add', 'local', '::/0', 'dev', 'lo', 'table', 'local'], true)
  for (const r of c.relays) relay(r.port, r.socket)
  dns()
  counted = attemptFails()
  setInterval(countConnects, 250).unref()
}
for (const step of c.setup) {
  try { cp.execFileSync('/bin/sh', ['-c', step], { stdio: ['ignore', 'ignore', 'inherit'] }) }
  catch (e) { say('setup step failed: ' + step); process.exit(125) }
}
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => undefined)
const child = cp.spawn(c.command, c.args, { stdio: 'inherit', env: c.env, uid: c.uid, gid: c.gid })
child.on('error', (e) => { say('cannot start ' + c.command + ': ' + e.message); finish(127) })
child.on('exit', (code, signal) => finish(code === null ? 128 + (require('os').constants.signals[signal] || 0) : code))
function leftovers() {
  let n = 0
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(pid) || pid === '1') continue
    try { if (!/^[0-9]+ \(.*\) [ZX] /s.test(fs.readFileSync('/proc/' + pid + '/stat', 'utf8'))) n++ } catch {}
  }
  return n
}
function finish(code) {
  if (c.net) countConnects()
  const left = leftovers()
  if (left) send({ kind: 'leftover', count: left })
  if (!report) process.exit(code)
  report.end(() => process.exit(code))
  setTimeout(() => process.exit(code), 500)
}
`
