import { createPrivateKey, createSign, type KeyObject } from 'node:crypto'

/** The only scope a minted token carries: the one Vertex AI accepts. */
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform'
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token'
/** A token is renewed this long before it expires (at most half its lifetime before). */
const RENEW_BEFORE_MS = 5 * 60_000
const TOKEN_TIMEOUT_MS = 30_000

/** A Google credential loopgate can turn into access tokens itself, without running any code. */
type GoogleGrant =
  | { type: 'service_account'; clientEmail: string; privateKey: KeyObject; keyId?: string; tokenUri: string }
  | { type: 'authorized_user'; clientId: string; clientSecret: string; refreshToken: string; tokenUri: string }

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

function tokenUri(raw: unknown): string {
  const uri = text(raw) ?? GOOGLE_TOKEN_URI
  const url = new URL(uri)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))) {
    throw new Error(`its token_uri ${JSON.stringify(uri)} is not an https URL`)
  }
  return uri
}

/**
 * The grant a credentials file holds: a service-account key (exchanged as a signed JWT) or an
 * authorized user's refresh token. Throws, saying why, for anything else (an external account,
 * whose subject token comes from a URL, a file or a command, is never exchanged here).
 */
export function googleGrantOf(content: string): GoogleGrant {
  let json: Record<string, unknown>
  try {
    json = JSON.parse(content) as Record<string, unknown>
  } catch {
    throw new Error('it is not JSON')
  }
  if (json?.type === 'service_account') {
    const clientEmail = text(json.client_email)
    const pem = text(json.private_key)
    if (!clientEmail || !pem) throw new Error('it is a service-account key without client_email or private_key')
    let privateKey: KeyObject
    try {
      privateKey = createPrivateKey(pem)
    } catch {
      throw new Error('its private_key is not a PEM private key')
    }
    return { type: 'service_account', clientEmail, privateKey, keyId: text(json.private_key_id), tokenUri: tokenUri(json.token_uri) }
  }
  if (json?.type === 'authorized_user') {
    const clientId = text(json.client_id)
    const clientSecret = text(json.client_secret)
    const refreshToken = text(json.refresh_token)
    if (!clientId || !clientSecret || !refreshToken) throw new Error('it is an authorized_user file without client_id, client_secret or refresh_token')
    return { type: 'authorized_user', clientId, clientSecret, refreshToken, tokenUri: tokenUri(json.token_uri) }
  }
  const type = typeof json?.type === 'string' ? json.type : 'unknown'
  throw new Error(`it is of type ${JSON.stringify(type)}, whose tokens loopgate cannot obtain without running code or the runner's OIDC request token`)
}

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url')

/** The JWT a service account signs (RS256) to ask for an access token. */
function serviceAccountAssertion(grant: Extract<GoogleGrant, { type: 'service_account' }>, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000)
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', ...(grant.keyId ? { kid: grant.keyId } : {}) }))
  const claims = b64url(JSON.stringify({ iss: grant.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: grant.tokenUri, iat, exp: iat + 3600 }))
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(grant.privateKey)
  return `${header}.${claims}.${b64url(signature)}`
}

function tokenRequestBody(grant: GoogleGrant, nowMs: number): URLSearchParams {
  if (grant.type === 'service_account') {
    return new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: serviceAccountAssertion(grant, nowMs) })
  }
  return new URLSearchParams({ grant_type: 'refresh_token', client_id: grant.clientId, client_secret: grant.clientSecret, refresh_token: grant.refreshToken })
}

interface Held {
  token: string
  expiresAt: number
  renewAt: number
}

/**
 * Access tokens minted from a Google grant, held in loopgate only: the first is minted when a
 * request first needs one, and a new one before the current one nears its expiry.
 */
export class MintedGoogleToken {
  private held: Held | undefined
  private pending: Promise<Held> | undefined

  constructor(
    readonly grant: GoogleGrant,
    private readonly now: () => number = Date.now
  ) {}

  /** A token valid now, renewed first when it is near its expiry. Rejects when none can be had. */
  async current(): Promise<string> {
    const held = this.held
    if (held && this.now() < held.renewAt) return held.token
    this.pending ??= this.mint().finally(() => (this.pending = undefined))
    try {
      this.held = await this.pending
    } catch (err) {
      // a renewal that failed leaves the current token in use while it is still valid
      if (held && this.now() < held.expiresAt) return held.token
      throw err
    }
    return this.held.token
  }

  private async mint(): Promise<Held> {
    const started = this.now()
    const res = await fetch(this.grant.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenRequestBody(this.grant, started).toString(),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS)
    })
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown }
    if (!res.ok || typeof body.access_token !== 'string' || !body.access_token) {
      const said = [body.error, body.error_description].filter((v) => typeof v === 'string').join(': ')
      throw new Error(`${this.grant.tokenUri} answered ${res.status}${said ? ` (${said})` : ''} without an access token`)
    }
    const lifetimeMs = Math.max(0, Number(body.expires_in) || 3600) * 1000
    return { token: body.access_token, expiresAt: started + lifetimeMs, renewAt: started + lifetimeMs - Math.min(RENEW_BEFORE_MS, lifetimeMs / 2) }
  }
}
