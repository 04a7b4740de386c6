/**
 * Credentials that can mint others: a file or value that carries the runner's OIDC request token
 * or URL (ACTIONS_ID_TOKEN_REQUEST_*), or that makes the agent's SDK fetch a token from a URL or
 * a command of its own choosing. With the request token, anyone can mint an OIDC token for any
 * audience, so reach every cloud role that trusts the repository.
 */

/** The runner's OIDC token endpoint, whatever the request URL's query says. */
const RUNNER_TOKEN_URL = /\.actions\.githubusercontent\.com\b|\/idtoken\b/i

/** Every string anywhere in a parsed JSON value, with its path. */
function strings(value: unknown, at: string, out: [string, string][]): [string, string][] {
  if (typeof value === 'string') out.push([at, value])
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${at}[${i}]`, out))
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, at ? `${at}.${k}` : k, out)
  return out
}

function runnerSecrets(runnerEnv: NodeJS.ProcessEnv): string[] {
  return [runnerEnv.ACTIONS_ID_TOKEN_REQUEST_TOKEN, runnerEnv.ACTIONS_ID_TOKEN_REQUEST_URL].filter((v): v is string => typeof v === 'string' && v.length >= 8)
}

/** Why a Google credentials file can mint others (an external account fed from a URL or a command), or null. */
function googleReason(json: unknown): string | null {
  if (!json || typeof json !== 'object') return null
  const source = (json as { credential_source?: Record<string, unknown> }).credential_source
  if (!source || typeof source !== 'object') return null
  if (typeof source.url === 'string') {
    const what = RUNNER_TOKEN_URL.test(source.url) ? "the runner's OIDC token endpoint" : 'a URL'
    return `it is an external account whose credential_source.url fetches the subject token from ${what}${source.headers ? ' with the bearer request token in its headers' : ''}`
  }
  if (source.executable) return 'it is an external account whose credential_source runs a command to fetch its token'
  return null
}

/** Why the content of a provider's credentials file can mint others, or null. */
export function mintingReason(text: string, runnerEnv: NodeJS.ProcessEnv): string | null {
  for (const secret of runnerSecrets(runnerEnv)) if (text.includes(secret)) return "it holds the runner's OIDC request token or URL"
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (json !== undefined) {
    const reason = googleReason(json)
    if (reason) return reason
    const endpoint = strings(json, '', []).find(([, v]) => RUNNER_TOKEN_URL.test(v))
    return endpoint ? `its ${endpoint[0]} names the runner's OIDC token endpoint` : null
  }
  // AWS shared config / credentials files (INI).
  const ini = /^\s*(credential_process|web_identity_token_file)\s*=/m.exec(text)
  if (ini) return `its ${ini[1]} makes the SDK fetch credentials of its own (a command, or the runner's identity token)`
  return RUNNER_TOKEN_URL.test(text) ? "it names the runner's OIDC token endpoint" : null
}

/** A variable of the agent's environment whose value carries the runner's OIDC request token or URL. */
export function mintingVariable(env: NodeJS.ProcessEnv, runnerEnv: NodeJS.ProcessEnv): string | null {
  const secrets = runnerSecrets(runnerEnv)
  for (const [name, value] of Object.entries(env)) if (value && secrets.some((s) => value.includes(s))) return name
  return null
}

export const MINTING_FIX =
  "keep the credential in loopgate's metering proxy: for Vertex, set GOOGLE_OAUTH_ACCESS_TOKEN to the access token google-github-actions/auth " +
  'mints with `token_format: access_token` and `create_credentials_file: false` (no file is written), or name a service-account key ' +
  '(`credentials_json`, written outside the workspace, e.g. to $RUNNER_TEMP) in GOOGLE_APPLICATION_CREDENTIALS: loopgate mints short-lived tokens ' +
  'from it and the agent gets neither; not workload identity federation, whose credentials file holds the request token; for Bedrock, the short-lived ' +
  'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN that aws-actions/configure-aws-credentials exports (loopgate signs with them, the agent gets none)'
