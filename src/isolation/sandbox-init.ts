/**
 * The first process inside a sandbox's namespaces (PID 1 there, root, run with `node -e` and an
 * empty environment). It reads its launch file (root-only, deleted once read), brings loopback up,
 * makes every address local so nothing leaves by a route, relays the loopback ports it is given to
 * loopgate's unix sockets outside, answers every DNS query with REFUSED and reports it, reports
 * each direct connection the kernel refused with its destination, runs the setup steps, then starts
 * the command as the run's user and ends with it: it kills every process left in the namespace,
 * and reports how many there were.
 *
 * A refused connection's destination comes from the kernel's socket-destroy events (`ss -E`, part
 * of iproute2): every address in the namespace is local, so a connection nothing listens for is
 * reset at once, and its socket, never established (no byte acknowledged), still names where it
 * went when it is closed. The TCP counter of failed attempts covers what no event named (a socket
 * still open when the namespace ended, or one `ss` cannot watch): those are listed without a
 * destination.
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
let failsBefore = 0, named = 0, watcher = null, watching = null
// A loopback port nothing listens on: refused connections to it tell when the watcher hears events.
let probePort = 1
while (c.relays.some((r) => r.port === probePort)) probePort++
/** A closed socket as ss -E prints it (a line, then its indented details): a refused connection when it never got a byte acknowledged. */
function closed(head, details) {
  if (/\bbytes_acked:/.test(details)) return
  const cols = head.trim().split(/\s+/)
  const peer = cols[cols[0] === 'tcp' ? 5 : 4] || ''
  const m = /^\[?([0-9A-Fa-f:.]+)(?:%[^\]]*)?\]?:(\d+|\*)$/.exec(peer)
  if (!m) return
  const host = m[1].replace(/^::ffff:(?=[0-9.]+$)/i, '')
  if (host === '0.0.0.0' || host === '::' || host === '*') return
  if (host === '127.0.0.1' && m[2] === String(probePort)) { if (watching) watching(); return }
  named++
  send({ kind: 'connect', host, port: m[2] === '*' ? 0 : Number(m[2]) })
}
/** Starts the watcher of closed sockets, and calls then() once it hears them (or at once, when it cannot watch). */
function watchConnects(then) {
  if (!c.ss || !c.stdbuf) return then()
  watcher = cp.spawn(c.stdbuf, ['-oL', c.ss, '-tHnEi'], { stdio: ['ignore', 'pipe', 'ignore'] })
  let pending = '', head = null
  watcher.stdout.on('data', (d) => {
    const lines = (pending + d.toString('utf8')).split('\n')
    pending = lines.pop().slice(-10000)
    for (const line of lines) {
      if (/^\s/.test(line)) { if (head !== null) closed(head, line); head = null }
      else { if (head !== null) closed(head, ''); head = line }
    }
  })
  let tries = 0
  const give = () => { clearInterval(timer); watching = null; then() }
  watching = give
  const timer = setInterval(() => {
    if (!watching) return
    if (++tries > 50) { say('cannot watch refused connections; they are counted without their destination'); return give() }
    net.connect(probePort, '127.0.0.1').on('error', () => undefined)
  }, 20)
  watcher.on('error', () => { watcher = null; if (watching) give() })
}
function start() {
  if (c.net) failsBefore = attemptFails()
  for (const step of c.setup) {
    try { cp.execFileSync('/bin/sh', ['-c', step], { stdio: ['ignore', 'ignore', 'inherit'] }) }
    catch (e) { say('setup step failed: ' + step); process.exit(125) }
  }
  const child = cp.spawn(c.command, c.args, { stdio: 'inherit', env: c.env, uid: c.uid, gid: c.gid })
  child.on('error', (e) => { say('cannot start ' + c.command + ': ' + e.message); finish(127) })
  child.on('exit', (code, signal) => finish(code === null ? 128 + (require('os').constants.signals[signal] || 0) : code))
}
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => undefined)
if (c.net) {
  ip(['link', 'set', 'lo', 'up'])
  ip(['route', 'add', 'local', '0.0.0.0/0', 'dev', 'lo', 'table', 'local'])
  ip(['-6', 'route', 'add', 'local', '::/0', 'dev', 'lo', 'table', 'local'], true)
  for (const r of c.relays) relay(r.port, r.socket)
  dns()
  watchConnects(start)
} else start()
/** Kills every process left in the namespace (but the watcher) and says how many there were. */
function killLeftovers() {
  let n = 0
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(pid) || pid === '1' || (watcher && Number(pid) === watcher.pid)) continue
    try {
      if (/^[0-9]+ \(.*\) [ZX] /s.test(fs.readFileSync('/proc/' + pid + '/stat', 'utf8'))) continue
      n++
      process.kill(Number(pid), 'SIGKILL')
    } catch {}
  }
  return n
}
function finish(code) {
  const left = killLeftovers()
  if (left) send({ kind: 'leftover', count: left })
  // The sockets the command and its leftovers held close now: their events take a moment to arrive.
  setTimeout(() => {
    if (c.net) {
      const unnamed = attemptFails() - failsBefore - named
      if (unnamed > 0) send({ kind: 'connect', count: unnamed })
    }
    if (watcher) watcher.kill('SIGKILL')
    if (!report) process.exit(code)
    report.end(() => process.exit(code))
    setTimeout(() => process.exit(code), 500)
  }, !c.net ? 0 : left ? 150 : 50)
}
`
