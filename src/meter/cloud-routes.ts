import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ConfigError } from '../errors.js'
import { MINTING_FIX, mintingReason } from '../isolation/minting-credentials.js'
import { profileKeys } from './aws-profile.js'
import { googleGrantOf, MintedGoogleToken } from './google-token.js'
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

/** A request is not signed with credentials this close to their expiry: it could arrive after it. */
const EXPIRY_MARGIN_MS = 30_000

const NO_AWS_CREDENTIAL =
  'AWS credentials loopgate holds itself: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (as aws-actions/configure-aws-credentials exports them), ' +
  'a profile with static keys in the shared credentials or config file, or AWS_BEARER_TOKEN_BEDROCK'

/** The runner's exported keys, else the static keys of its AWS profile; the region from AWS_REGION, then the profile. */
function awsCredentials(runnerEnv: NodeJS.ProcessEnv): { creds: AwsCredentials; expiresAt?: number } | undefined {
  const accessKeyId = set(runnerEnv.AWS_ACCESS_KEY_ID)
  const secretAccessKey = set(runnerEnv.AWS_SECRET_ACCESS_KEY)
  const envRegion = set(runnerEnv.AWS_REGION) ?? set(runnerEnv.AWS_DEFAULT_REGION)
  if (accessKeyId && secretAccessKey) {
    const expiration = set(runnerEnv.AWS_CREDENTIAL_EXPIRATION)
    const expiresAt = expiration === undefined ? undefined : Date.parse(expiration)
    if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw new ConfigError('AWS_CREDENTIAL_EXPIRATION', expiration ?? '', 'an ISO 8601 time')
    const creds = { accessKeyId, secretAccessKey, sessionToken: set(runnerEnv.AWS_SESSION_TOKEN), region: envRegion ?? 'us-east-1' }
    return { creds, expiresAt }
  }
  if (set(runnerEnv.AWS_BEARER_TOKEN_BEDROCK)) return undefined
  const profile = profileKeys(runnerEnv)
  if (!profile) return undefined
  return { creds: { ...profile, region: envRegion ?? profile.region ?? 'us-east-1' } }
}

/**
 * Claude on Bedrock: the proxy signs each request (SigV4) with the runner's AWS keys (exported, or
 * read from its profile), or sends the runner's Bedrock API key (AWS_BEARER_TOKEN_BEDROCK). With
 * neither, the run is refused: no route hands the agent the cloud's credentials. Keys with a known
 * expiry (AWS_CREDENTIAL_EXPIRATION) are not used past it.
 */
export function bedrockUpstream(runnerEnv: NodeJS.ProcessEnv, now: () => number = Date.now): Upstream {
  const aws = awsCredentials(runnerEnv)
  const region = aws?.creds.region ?? set(runnerEnv.AWS_REGION) ?? set(runnerEnv.AWS_DEFAULT_REGION) ?? 'us-east-1'
  const custom = set(runnerEnv.ANTHROPIC_BEDROCK_BASE_URL)
  const base = custom ? httpUrl(custom, 'ANTHROPIC_BEDROCK_BASE_URL') : new URL(`https://bedrock-runtime.${region}.amazonaws.com`)
  if (aws) {
    const { creds, expiresAt } = aws
    const upstream: Upstream = { api: 'bedrock', base, sign: (request) => signSigV4({ request, creds, now: new Date(now()) }) }
    if (expiresAt !== undefined) {
      const when = new Date(expiresAt).toISOString()
      upstream.ready = () =>
        Promise.resolve(
          now() < expiresAt - EXPIRY_MARGIN_MS
            ? undefined
            : `the runner's AWS credentials expired at ${when} (AWS_CREDENTIAL_EXPIRATION) and loopgate cannot renew them; ` +
                'give the run credentials that outlast it (role-duration-seconds of aws-actions/configure-aws-credentials)'
        )
    }
    return upstream
  }
  const apiKey = set(runnerEnv.AWS_BEARER_TOKEN_BEDROCK)
  if (apiKey) return { api: 'bedrock', base, auth: { header: 'authorization', value: `Bearer ${apiKey}` } }
  throw new ConfigError('provider', 'bedrock', NO_AWS_CREDENTIAL)
}

const NO_GOOGLE_CREDENTIAL =
  'a Google credential loopgate holds itself: GOOGLE_OAUTH_ACCESS_TOKEN (the access_token output of google-github-actions/auth with ' +
  '`token_format: access_token`), or GOOGLE_APPLICATION_CREDENTIALS naming a service-account key (google-github-actions/auth with `credentials_json`)'

/** The access tokens of the runner's credentials file, minted by loopgate; refused before spend when it cannot mint them. */
function mintedFrom(runnerEnv: NodeJS.ProcessEnv, now: () => number): MintedGoogleToken {
  const file = set(runnerEnv.GOOGLE_APPLICATION_CREDENTIALS)
  if (!file) throw new ConfigError('provider', 'vertex', NO_GOOGLE_CREDENTIAL)
  let content: string
  try {
    content = readFileSync(path.resolve(file), 'utf8')
  } catch (err) {
    throw new ConfigError('GOOGLE_APPLICATION_CREDENTIALS', file, `a readable credentials file (${(err as Error).message})`)
  }
  const minting = mintingReason(content, runnerEnv)
  if (minting) {
    throw new ConfigError(
      'GOOGLE_APPLICATION_CREDENTIALS',
      file,
      `a credentials file that cannot mint other credentials (this one cannot: ${minting}); ${MINTING_FIX}`
    )
  }
  try {
    return new MintedGoogleToken(googleGrantOf(content), now)
  } catch (err) {
    throw new ConfigError(
      'GOOGLE_APPLICATION_CREDENTIALS',
      file,
      `a service-account key or authorized_user file (this one is not: ${(err as Error).message}); or ${NO_GOOGLE_CREDENTIAL}`
    )
  }
}

/**
 * Claude on Vertex AI: the proxy sends the runner's OAuth access token (GOOGLE_OAUTH_ACCESS_TOKEN,
 * else CLOUDSDK_AUTH_ACCESS_TOKEN), or access tokens it mints itself from the service-account key
 * or authorized_user file GOOGLE_APPLICATION_CREDENTIALS names, renewed before they expire. With
 * neither, or a file it cannot mint from, the run is refused.
 */
export function vertexUpstream(runnerEnv: NodeJS.ProcessEnv, now: () => number = Date.now): Upstream {
  const region = set(runnerEnv.CLOUD_ML_REGION) ?? 'us-east5'
  const custom = set(runnerEnv.ANTHROPIC_VERTEX_BASE_URL)
  const host = region === 'global' ? 'aiplatform.googleapis.com' : `${region}-aiplatform.googleapis.com`
  const base = custom ? httpUrl(custom, 'ANTHROPIC_VERTEX_BASE_URL') : new URL(`https://${host}/v1`)
  const token = set(runnerEnv.GOOGLE_OAUTH_ACCESS_TOKEN) ?? set(runnerEnv.CLOUDSDK_AUTH_ACCESS_TOKEN)
  if (token) return { api: 'vertex', base, auth: { header: 'authorization', value: `Bearer ${token}` } }
  const minted = mintedFrom(runnerEnv, now)
  const upstream: Upstream = { api: 'vertex', base }
  upstream.ready = async () => {
    try {
      upstream.auth = { header: 'authorization', value: `Bearer ${await minted.current()}` }
      return undefined
    } catch (err) {
      delete upstream.auth
      return `the Vertex access token from GOOGLE_APPLICATION_CREDENTIALS expired or could not be minted: ${(err as Error).message}`
    }
  }
  return upstream
}
