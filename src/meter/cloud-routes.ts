import { signSigV4, type AwsCredentials } from './sigv4.js'
import type { Upstream } from './wire-api.js'

function httpUrl(raw: string, variable: string): URL {
  try {
    const url = new URL(raw.trim())
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // reported below
  }
  throw new Error(`${variable} must be an http(s) URL (got ${JSON.stringify(raw)})`)
}

const set = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined)

/**
 * Claude on Bedrock: the proxy signs each request with the runner's AWS credentials (SigV4), or
 * sends the runner's Bedrock API key (AWS_BEARER_TOKEN_BEDROCK). Undefined without either.
 */
export function bedrockUpstream(runnerEnv: NodeJS.ProcessEnv): Upstream | undefined {
  const region = set(runnerEnv.AWS_REGION) ?? set(runnerEnv.AWS_DEFAULT_REGION) ?? 'us-east-1'
  const custom = set(runnerEnv.ANTHROPIC_BEDROCK_BASE_URL)
  const base = custom ? httpUrl(custom, 'ANTHROPIC_BEDROCK_BASE_URL') : new URL(`https://bedrock-runtime.${region}.amazonaws.com`)
  const accessKeyId = set(runnerEnv.AWS_ACCESS_KEY_ID)
  const secretAccessKey = set(runnerEnv.AWS_SECRET_ACCESS_KEY)
  if (accessKeyId && secretAccessKey) {
    const creds: AwsCredentials = { accessKeyId, secretAccessKey, sessionToken: set(runnerEnv.AWS_SESSION_TOKEN), region }
    return { api: 'bedrock', base, sign: (request) => signSigV4({ request, creds }) }
  }
  const apiKey = set(runnerEnv.AWS_BEARER_TOKEN_BEDROCK)
  return apiKey ? { api: 'bedrock', base, auth: { header: 'authorization', value: `Bearer ${apiKey}` } } : undefined
}

/**
 * Claude on Vertex AI: the proxy sends the runner's OAuth access token (GOOGLE_OAUTH_ACCESS_TOKEN,
 * e.g. the `access_token` output of google-github-actions/auth, or CLOUDSDK_AUTH_ACCESS_TOKEN).
 * Undefined without one: the runner's credentials file is never exchanged here.
 */
export function vertexUpstream(runnerEnv: NodeJS.ProcessEnv): Upstream | undefined {
  const token = set(runnerEnv.GOOGLE_OAUTH_ACCESS_TOKEN) ?? set(runnerEnv.CLOUDSDK_AUTH_ACCESS_TOKEN)
  if (!token) return undefined
  const region = set(runnerEnv.CLOUD_ML_REGION) ?? 'us-east5'
  const custom = set(runnerEnv.ANTHROPIC_VERTEX_BASE_URL)
  const host = region === 'global' ? 'aiplatform.googleapis.com' : `${region}-aiplatform.googleapis.com`
  const base = custom ? httpUrl(custom, 'ANTHROPIC_VERTEX_BASE_URL') : new URL(`https://${host}/v1`)
  return { api: 'vertex', base, auth: { header: 'authorization', value: `Bearer ${token}` } }
}
