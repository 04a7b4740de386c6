/**
 * A preload (`node --require`) that sends Node's built-in `fetch` through the proxy of
 * `HTTP_PROXY` / `HTTPS_PROXY`, as curl, Python and npm already go, honouring `NO_PROXY`. Node
 * before 22.21 / 24 reads no proxy variable for `fetch`; newer Node does with `NODE_USE_ENV_PROXY=1`,
 * and then this does nothing. It swaps `fetch`'s global dispatcher (undici's, shared by the
 * `undici.globalDispatcher.1` symbol) for the same Agent class with a connector that opens a
 * `CONNECT` tunnel through the proxy.
 *
 * A convenience, not a control: the network namespace is what keeps a process in. Plain
 * JavaScript in a string, written by loopgate for each run into a folder only root may change.
 */
export const FETCH_PROXY_PRELOAD = String.raw`
'use strict'
;(() => {
  const net = require('net'), tls = require('tls')
  const key = Symbol.for('undici.globalDispatcher.1')
  // Node set a dispatcher of its own from the proxy variables (NODE_USE_ENV_PROXY): leave it.
  if (globalThis[key] !== undefined || typeof globalThis.fetch !== 'function') return
  const env = (name) => process.env[name] || process.env[name.toLowerCase()] || ''
  const direct = (host) =>
    env('NO_PROXY').split(/[\s,]+/).filter(Boolean).some((entry) => {
      const name = entry.toLowerCase().replace(/^\*?\./, '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '')
      return name === '*' || host === name || host.endsWith('.' + name)
    })
  function proxyFor(protocol) {
    try {
      const url = new URL(env(protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY'))
      return url.protocol === 'http:' ? { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) } : null
    } catch { return null }
  }
  function secure(socket, opts, callback) {
    const host = String(opts.hostname).replace(/^\[|\]$/g, '')
    // host: what the certificate is checked against (an address too); servername: SNI, names only.
    const s = tls.connect({ socket, host, servername: opts.servername || (net.isIP(host) ? undefined : host), ALPNProtocols: ['http/1.1'] })
    s.once('secureConnect', () => { s.removeAllListeners('error'); callback(null, s) })
    s.once('error', (e) => callback(e, null))
  }
  function connect(opts, callback) {
    const host = String(opts.hostname).toLowerCase().replace(/^\[|\]$/g, '')
    const port = Number(opts.port || (opts.protocol === 'https:' ? 443 : 80))
    const proxy = direct(host) ? null : proxyFor(opts.protocol)
    if (!proxy) {
      const s = net.connect({ host, port })
      s.once('connect', () => {
        s.removeAllListeners('error')
        if (opts.protocol === 'https:') secure(s, opts, callback)
        else callback(null, s)
      })
      s.once('error', (e) => callback(e, null))
      return
    }
    const target = (host.includes(':') ? '[' + host + ']' : host) + ':' + port
    const s = net.connect(proxy)
    let answer = Buffer.alloc(0)
    const fail = (e) => { s.destroy(); callback(e, null) }
    s.once('error', fail)
    s.once('connect', () => s.write('CONNECT ' + target + ' HTTP/1.1\r\nHost: ' + target + '\r\n\r\n'))
    const read = (chunk) => {
      answer = Buffer.concat([answer, chunk])
      const end = answer.indexOf('\r\n\r\n')
      if (end < 0) { if (answer.length > 16384) fail(new Error('the proxy answered too long a header')); return }
      s.removeListener('data', read)
      s.pause()
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer.subarray(0, end).toString('latin1'))
      if (!status || status[1] !== '200') return fail(new Error('the proxy refused ' + target + ' (' + (status ? status[1] : 'no status') + ')'))
      if (answer.length > end + 4) s.unshift(answer.subarray(end + 4))
      s.removeListener('error', fail)
      if (opts.protocol === 'https:') secure(s, opts, callback)
      else callback(null, s)
    }
    s.on('data', read)
  }
  function install() {
    void globalThis.Headers // loads Node's undici, which makes its default Agent
    const Agent = globalThis[key] && globalThis[key].constructor
    // Anything but undici's default Agent was set on purpose (by Node from the proxy variables, or by the program).
    if (typeof Agent === 'function' && Agent.name === 'Agent') globalThis[key] = new Agent({ connect })
  }
  const fetch = globalThis.fetch
  let installed = false
  globalThis.fetch = function fetch_(input, init) {
    if (!installed) { installed = true; try { install() } catch {} }
    return fetch.call(this, input, init)
  }
  Object.defineProperty(globalThis.fetch, 'name', { value: 'fetch' })
})()
`
