import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** A service-account key pair made for the test: the key file holds the private half, the token server the public one. */
export function serviceAccountKey(tokenUri: string, email = 'vertex-caller@loopgate-test.iam.gserviceaccount.com'): { json: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const json = JSON.stringify({
    type: 'service_account',
    project_id: 'loopgate-test',
    private_key_id: 'key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: email,
    client_id: '1234567890',
    token_uri: tokenUri
  })
  return { json, publicKey }
}

export interface TokenExchange {
  grant: string
  /** Why the server refused it, or undefined when it issued a token. */
  refused?: string
  claims?: Record<string, unknown>
  issued?: string
}

export interface TokenServer {
  url: string
  exchanges: TokenExchange[]
  /** The public key JWTs must verify against, the refresh token it accepts, and the tokens it issues next. */
  publicKey?: KeyObject
  refreshToken?: string
  issue: { tokens: string[]; expiresIn: number; down?: boolean }
  close(): Promise<void>
}

function checkJwt(assertion: string, server: TokenServer): { claims?: Record<string, unknown>; refused?: string } {
  const [header, claims, signature] = assertion.split('.')
  if (!header || !claims || !signature || !server.publicKey) return { refused: 'not a JWT' }
  const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string }
  if (head.alg !== 'RS256') return { refused: `alg ${String(head.alg)}` }
  if (!verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), server.publicKey, Buffer.from(signature, 'base64url'))) return { refused: 'bad signature' }
  const c = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>
  if (c.aud !== `${server.url}/token`) return { refused: `aud ${String(c.aud)}`, claims: c }
  if (c.scope !== 'https://www.googleapis.com/auth/cloud-platform') return { refused: `scope ${String(c.scope)}`, claims: c }
  if (typeof c.iat !== 'number' || typeof c.exp !== 'number' || c.exp <= c.iat || c.exp - c.iat > 3600) return { refused: 'iat/exp', claims: c }
  return { claims: c }
}

/** Google's OAuth token endpoint on 127.0.0.1 (`POST /token`): JWT-bearer and refresh-token grants. */
export async function startTokenServer(): Promise<TokenServer> {
  const state: TokenServer = {
    url: '',
    exchanges: [],
    issue: { tokens: [], expiresIn: 3600 },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const form = new URLSearchParams(body)
      const exchange: TokenExchange = { grant: form.get('grant_type') ?? '' }
      state.exchanges.push(exchange)
      if (exchange.grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') Object.assign(exchange, checkJwt(form.get('assertion') ?? '', state))
      else if (exchange.grant === 'refresh_token') exchange.refused = form.get('refresh_token') === state.refreshToken ? undefined : 'bad refresh token'
      else exchange.refused = 'unknown grant'
      if (req.url !== '/token' || state.issue.down) exchange.refused = 'unavailable'
      if (exchange.refused) {
        res.writeHead(exchange.refused === 'unavailable' ? 503 : 400, { 'content-type': 'application/json' })
        return void res.end(JSON.stringify({ error: 'invalid_grant', error_description: exchange.refused }))
      }
      exchange.issued = state.issue.tokens.shift() ?? 'ya29.default-minted-token'
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ access_token: exchange.issued, expires_in: state.issue.expiresIn, token_type: 'Bearer' }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}
