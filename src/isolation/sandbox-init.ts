/**
 * The first process inside a sandbox's namespaces (PID 1 there, root, run with `node -e` and an
 * empty environment). It reads its launch file (root-only, deleted once read), brings loopback up,
 * makes every address local so nothing leaves by a route, relays the loopback ports it is given to
 * loopgate's unix sockets outside, answers every DNS query with REFUSED and reports it, reports
 * each direct connection and UDP datagram the kernel refused with its destination, runs the setup
 * steps, then starts the command as the run's user and ends with it: it kills every process left
 * in the namespace, and reports how many there were.
 *
 * A refused connection's destination comes from the packets on loopback: every address in the
 * namespace is local, so the kernel answers a connection nothing listens for with a reset and a
 * UDP datagram nothing listens for with a port unreachable, and a packet watcher of root's
 * (`LOOPBACK_SNIFFER`, Python 3) names each. Where it cannot run, the kernel's socket-destroy
 * events (`ss -E`, part of iproute2) name the refused TCP connections, but not a blocking
 * connect's port (the kernel clears it) nor UDP. The kernel's counters of failed TCP attempts and
 * of UDP datagrams no socket took cover what no watcher named: those are listed without a
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
/** A counter of the kernel's SNMP table (/proc/net/snmp, 'Tcp' or 'Udp'), or of IPv6's (/proc/net/snmp6, one per line). */
function counter(table, name) {
  try {
    if (table === 'snmp6') {
      const line = fs.readFileSync('/proc/net/snmp6', 'utf8').split('\n').find((l) => l.split(/\s+/)[0] === name)
      return Number(line ? line.split(/\s+/)[1] : 0) || 0
    }
    const lines = fs.readFileSync('/proc/net/snmp', 'utf8').split('\n').filter((l) => l.startsWith(table + ':'))
    const names = lines[0].split(/\s+/), values = lines[1].split(/\s+/)
    return Number(values[names.indexOf(name)]) || 0
  } catch { return 0 }
}
/** TCP connections that failed, and UDP datagrams no socket took (IPv4 and IPv6): what no watcher named is counted from these. */
const attemptFails = () => counter('Tcp', 'AttemptFails')
const datagramsUnanswered = () => counter('Udp', 'NoPorts') + counter('snmp6', 'Udp6NoPorts')
let failsBefore = 0, named = 0, unansweredBefore = 0, namedUdp = 0, watcher = null, watching = null, sniffing = false
// A loopback port nothing listens on: refused connections to it tell when the watcher hears events.
let probePort = 1
while (c.relays.some((r) => r.port === probePort)) probePort++
/** A refusal a watcher named: the probe's tells the watcher is ready, any other is reported. */
function heard(kind, host, port, count) {
  if (kind === 'connect' && host === '127.0.0.1' && port === probePort) { if (watching) watching(); return }
  if (kind === 'connect') named += count
  else namedUdp += count
  send({ kind, host, port, count })
}
/** A closed socket as ss -E prints it (a line, then its indented details): a refused connection when it never got a byte acknowledged. */
function closed(head, details) {
  if (/\bbytes_acked:/.test(details)) return
  const cols = head.trim().split(/\s+/)
  const peer = cols[cols[0] === 'tcp' ? 5 : 4] || ''
  const m = /^\[?([0-9A-Fa-f:.]+)(?:%[^\]]*)?\]?:(\d+|\*)$/.exec(peer)
  if (!m) return
  const host = m[1].replace(/^::ffff:(?=[0-9.]+$)/i, '')
  if (host === '0.0.0.0' || host === '::' || host === '*') return
  heard('connect', host, m[2] === '*' ? 0 : Number(m[2]), 1)
}
/** What ss -E prints, line by line. */
function socketEvents(out) {
  let pending = '', head = null
  out.on('data', (d) => {
    const lines = (pending + d.toString('utf8')).split('\n')
    pending = lines.pop().slice(-10000)
    for (const line of lines) {
      if (/^\s/.test(line)) { if (head !== null) closed(head, line); head = null }
      else { if (head !== null) closed(head, ''); head = line }
    }
  })
}
/** What the packet watcher prints: a JSON line per destination, its count. */
function packetEvents(out) {
  let pending = ''
  out.on('data', (d) => {
    const lines = (pending + d.toString('utf8')).split('\n')
    pending = lines.pop().slice(-10000)
    for (const line of lines) {
      try {
        const e = JSON.parse(line)
        if ((e.kind !== 'connect' && e.kind !== 'udp') || typeof e.host !== 'string' || !Number.isInteger(e.port) || e.port < 0 || e.port > 65535) continue
        const count = Number.isInteger(e.count) && e.count > 0 ? Math.min(e.count, 1e6) : 1
        heard(e.kind, e.host.replace(/^::ffff:(?=[0-9.]+$)/i, '').slice(0, 45), e.port, count)
      } catch {}
    }
  })
}
/**
 * Starts the watcher of refused connections, and calls then() once it hears them: the packet
 * watcher (it names UDP too, and a blocking connect's port), else ss -E, else none (refused
 * connections are then only counted). The sandbox is told which.
 */
function watchConnects(then) {
  const ways = []
  if (c.python && c.sniffer) ways.push({ by: 'packets', start: () => cp.spawn(c.python, ['-I', '-S', '-u', '-c', c.sniffer], { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'ignore'] }), read: packetEvents, tries: 150 })
  if (c.ss && c.stdbuf) ways.push({ by: 'sockets', start: () => cp.spawn(c.stdbuf, ['-oL', c.ss, '-tHnEi'], { cwd: '/', stdio: ['ignore', 'pipe', 'ignore'] }), read: socketEvents, tries: 50 })
  const next = () => {
    const way = ways.shift()
    if (!way) {
      say('cannot watch refused connections; they are counted without their destination')
      send({ kind: 'watch', by: 'counter' })
      return then()
    }
    const w = way.start()
    watcher = w
    way.read(w.stdout)
    let tries = 0
    const done = (ok) => {
      if (watching !== give) return
      clearInterval(timer)
      watching = null
      if (ok) { sniffing = way.by === 'packets'; send({ kind: 'watch', by: way.by }); return then() }
      watcher = null
      w.kill('SIGKILL')
      next()
    }
    const give = () => done(true)
    watching = give
    const timer = setInterval(() => {
      if (++tries > way.tries) return done(false)
      net.connect(probePort, '127.0.0.1').on('error', () => undefined)
    }, 20)
    w.on('error', () => done(false))
    w.on('exit', () => done(false))
  }
  next()
}
/** Stops the watcher once it has reported every refusal already made (the packet watcher reads what is queued, then ends). */
function stopWatching(after) {
  let called = false
  const then = () => { if (!called) { called = true; after() } }
  if (!watcher) return then()
  const w = watcher
  watcher = null
  if (!sniffing) return setTimeout(() => { w.kill('SIGKILL'); then() }, 50)
  if (w.stdout.destroyed) return then()
  const timer = setTimeout(() => { w.kill('SIGKILL'); then() }, 1000)
  w.stdout.on('close', () => { clearTimeout(timer); then() })
  w.stdin.on('error', () => undefined)
  w.stdin.end()
}
function start() {
  if (c.net) { failsBefore = attemptFails(); unansweredBefore = datagramsUnanswered() }
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
  // Every unanswered datagram gets its port unreachable: unlimited in this namespace, not 1000 a second.
  for (const [knob, value] of [['/proc/sys/net/ipv4/icmp_ratemask', '0'], ['/proc/sys/net/ipv6/icmp/ratemask', '0']]) {
    try { fs.writeFileSync(knob, value) } catch {}
  }
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
  setTimeout(() => stopWatching(() => {
    if (c.net) {
      const unnamed = attemptFails() - failsBefore - named
      if (unnamed > 0) send({ kind: 'connect', count: unnamed })
      const unnamedUdp = datagramsUnanswered() - unansweredBefore - namedUdp
      if (unnamedUdp > 0) send({ kind: 'udp', count: unnamedUdp })
    }
    if (!report) process.exit(code)
    report.end(() => process.exit(code))
    setTimeout(() => process.exit(code), 500)
  }), !c.net ? 0 : left ? 100 : 0)
}
`
