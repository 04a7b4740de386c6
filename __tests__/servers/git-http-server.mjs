// A private repository host: `git http-backend` behind a node server on 127.0.0.1 that answers 401
// without `Authorization: basic base64(x-access-token:<token>)`. Run as its own process (tests call
// git synchronously): `node git-http-server.mjs <root> <token> <request-log>`; prints its URL.
import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import http from 'node:http'

const [root, token, requestLog] = process.argv.slice(2)
const expected = `basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`

const server = http.createServer((req, res) => {
  const authorized = (req.headers.authorization ?? '').toLowerCase() === expected.toLowerCase()
  appendFileSync(requestLog, `${JSON.stringify({ method: req.method, url: req.url, authorized })}\n`)
  if (!authorized) {
    req.resume()
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="private"', 'Content-Type': 'text/plain' })
    res.end('authentication required\n')
    return
  }
  const url = new URL(req.url ?? '/', 'http://localhost')
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      REMOTE_USER: 'x-access-token',
      REMOTE_ADDR: '127.0.0.1'
    }
  })
  req.pipe(child.stdin)
  let head = Buffer.alloc(0)
  let headerDone = false
  child.stdout.on('data', (chunk) => {
    if (headerDone) return void res.write(chunk)
    head = Buffer.concat([head, chunk])
    const end = head.indexOf('\r\n\r\n')
    if (end < 0) return
    headerDone = true
    let status = 200
    const headers = {}
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':')
      if (colon < 0) continue
      const name = line.slice(0, colon).trim()
      const value = line.slice(colon + 1).trim()
      if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0])
      else headers[name] = value
    }
    res.writeHead(status, headers)
    res.write(head.subarray(end + 4))
  })
  child.stdout.on('end', () => res.end())
  child.on('error', () => res.destroy())
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`))
process.on('SIGTERM', () => process.exit(0))
