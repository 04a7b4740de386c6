import { createHash, createHmac } from 'node:crypto'
import type http from 'node:http'

/** The runner's AWS credentials, held by loopgate's proxy only. */
export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
  region: string
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest()

/** RFC 3986 encoding, as SigV4 wants it (unreserved characters only are left as they are). */
function encode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** The canonical URI: each segment of the path as sent, encoded once more (all services but S3). */
function canonicalUri(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => encode(segment))
    .join('/')
}

function canonicalQuery(search: URLSearchParams): string {
  return [...search.entries()]
    .map(([k, v]) => [encode(k), encode(v)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
}

/** A request to sign, the credentials, the signing time and the AWS service. */
export interface SigV4Signing {
  request: { method: string; url: URL; headers: http.OutgoingHttpHeaders; body: Buffer }
  creds: AwsCredentials
  now?: Date
  service?: string
}

/**
 * Signs one request with AWS Signature Version 4 (service `bedrock`), setting host, x-amz-date,
 * x-amz-content-sha256, x-amz-security-token and authorization on `headers`. Those, the content
 * type and any other x-amz-* header are signed: the client's other headers pass unsigned.
 */
export function signSigV4({ request, creds, now = new Date(), service = 'bedrock' }: SigV4Signing): void {
  const { headers, url } = request
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
  const day = amzDate.slice(0, 8)
  const payloadHash = sha256(request.body)
  headers.host = url.host
  headers['x-amz-date'] = amzDate
  headers['x-amz-content-sha256'] = payloadHash
  if (creds.sessionToken) headers['x-amz-security-token'] = creds.sessionToken
  // every x-amz-* header sent must be signed, the client's own included
  const amz = Object.keys(headers).filter((h) => h.startsWith('x-amz-') && headers[h] !== undefined)
  const signed = ['content-type', 'host', ...amz].filter((h) => headers[h] !== undefined).sort()
  const canonicalHeaders = signed.map((h) => `${h}:${String(headers[h]).trim().replace(/\s+/g, ' ')}\n`).join('')
  const canonical = [request.method, canonicalUri(url.pathname), canonicalQuery(url.searchParams), canonicalHeaders, signed.join(';'), payloadHash].join('\n')
  const scope = `${day}/${creds.region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), service), 'aws4_request')
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex')
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signed.join(';')}, Signature=${signature}`
}
