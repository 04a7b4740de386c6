import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface GitHttpServer {
  /** `http://git.localhost:<port>`: an http(s) server URL as the runner's GITHUB_SERVER_URL is, on a host that is not GHES. */
  url: string
  close(): Promise<void>
}

/**
 * Serves the bare repositories under `root` over git's smart HTTP protocol (git http-backend as a
 * CGI, pushes allowed, any credential accepted). `*.localhost` names the loopback for git's curl.
 */
export async function startGitHttpServer(root: string): Promise<GitHttpServer> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://git.localhost')
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: 'x-access-token',
        REMOTE_ADDR: '127.0.0.1'
      },
      stdio: ['pipe', 'pipe', 'ignore']
    })
    req.pipe(cgi.stdin)
    let head = Buffer.alloc(0)
    let headerDone = false
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headerDone) return void res.write(chunk)
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end < 0) return
      headerDone = true
      let status = 200
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const colon = line.indexOf(':')
        const name = line.slice(0, colon).trim()
        const value = line.slice(colon + 1).trim()
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0])
        else res.setHeader(name, value)
      }
      res.writeHead(status)
      res.write(head.subarray(end + 4))
    })
    cgi.on('close', () => res.end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://git.localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
