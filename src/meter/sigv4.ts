import { createHash } from 'node:crypto'
import type http from 'node:http'
import { Hash } from '@smithy/core/serde'
import { SignatureV4 } from '@smithy/signature-v4'

/** The runner's AWS credentials, held by loopgate's proxy only. */
export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
  region: string
}

/** A request to sign, the credentials, the signing time and the AWS service. */
interface SigV4Signing {
  request: { method: string; url: URL; headers: http.OutgoingHttpHeaders; body: Buffer }
  creds: AwsCredentials
  now?: Date
  service?: string
}

/** The headers the signature covers: the content type, the host and every x-amz-* header sent. */
const signedHeader = (name: string): boolean => name === 'content-type' || name === 'host' || name.startsWith('x-amz-')

/** The query as the signer wants it: a name given more than once keeps each of its values. */
function queryOf(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {}
  for (const [k, v] of search) {
    const had = Object.hasOwn(query, k) ? query[k] : undefined
    query[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v]
  }
  return query
}

/**
 * Signs one request with AWS Signature Version 4 (service `bedrock`) by `@smithy/signature-v4`,
 * setting host, x-amz-date, x-amz-content-sha256, x-amz-security-token and authorization on
 * `headers`. Those, the content type and any other x-amz-* header are signed: the client's other
 * headers pass unsigned. The payload hash is always the body's own (a client's
 * x-amz-content-sha256 is replaced, never signed as given).
 */
export async function signSigV4({ request, creds, now = new Date(), service = 'bedrock' }: SigV4Signing): Promise<void> {
  const { headers, url } = request
  headers.host = url.host
  headers['x-amz-content-sha256'] = createHash('sha256').update(request.body).digest('hex')
  delete headers['x-amz-date']
  if (creds.sessionToken) headers['x-amz-security-token'] = creds.sessionToken
  const toSign: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && signedHeader(name)) toSign[name] = String(value)
  const signer = new SignatureV4({ credentials: creds, region: creds.region, service, sha256: Hash.bind(null, 'sha256') })
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query: queryOf(url.searchParams),
      headers: toSign,
      body: request.body
    },
    { signingDate: now }
  )
  headers['x-amz-date'] = signed.headers['x-amz-date']
  headers.authorization = signed.headers.authorization
}
