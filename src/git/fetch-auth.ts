import { userConfigOf } from './custody.js'
import { gitEnv } from './command-line.js'
import type { GitRepository } from './repository.js'
import { persistedCredentials } from './persisted-credentials.js'

/**
 * How loopgate's own fetches from origin (the base, the WIP branch, a pull request's head) reach a
 * private repository: the same way its pushes do, an http extraheader in the git process's
 * environment (GIT_CONFIG_COUNT/KEY/VALUE), never on the command line, never in a file, never in
 * the workspace's configuration. The `github-token` input is scoped to GITHUB_SERVER_URL's origin,
 * so it goes to no other host; without it, the credential actions/checkout persisted (stashed
 * by loopgate, or still in the configuration it holds) is used as it was written.
 */
export interface FetchCredentials {
  /** The `github-token` input. */
  token?: string
  /** The runner's environment (GITHUB_SERVER_URL). */
  env: NodeJS.ProcessEnv
  /** `key=value` settings from the persisted credential (see persisted-credentials.ts). */
  persisted?: string[]
}

/** A git setting passed in the process environment (GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n). */
interface ConfigEntry {
  key: string
  value: string
}

const basicOf = (token: string): string => Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64')

/** The token's header for one URL's origin; null when that is no http(s) URL. */
export function tokenHeaderFor(token: string, url: string): ConfigEntry | null {
  let origin: URL
  try {
    origin = new URL(url)
  } catch {
    return null
  }
  if (!/^https?:$/.test(origin.protocol)) return null
  return { key: `http.${origin.origin}/.extraheader`, value: `AUTHORIZATION: basic ${basicOf(token)}` }
}

/** The token's header, for GITHUB_SERVER_URL's origin only; null when that is no http(s) URL. */
function tokenHeader(token: string, env: NodeJS.ProcessEnv): ConfigEntry | null {
  return tokenHeaderFor(token, env.GITHUB_SERVER_URL || 'https://github.com')
}

/** Loopgate's git environment with `entries` as settings of the process (never on the command line, never in a file). */
export function gitEnvWith(entries: ConfigEntry[]): NodeJS.ProcessEnv {
  const env = gitEnv()
  if (entries.length === 0) return env
  env.GIT_CONFIG_COUNT = String(entries.length)
  entries.forEach((e, i) => {
    env[`GIT_CONFIG_KEY_${i}`] = e.key
    env[`GIT_CONFIG_VALUE_${i}`] = e.value
  })
  return env
}

/** The environment of an authenticated git fetch: loopgate's git environment plus the header. */
export function fetchEnv(creds: FetchCredentials): NodeJS.ProcessEnv {
  const header = creds.token ? tokenHeader(creds.token, creds.env) : null
  if (header) return gitEnvWith([header])
  const entries: ConfigEntry[] = []
  for (const setting of creds.persisted ?? []) {
    const eq = setting.indexOf('=')
    if (eq > 0) entries.push({ key: setting.slice(0, eq), value: setting.slice(eq + 1) })
  }
  return gitEnvWith(entries)
}

/**
 * fetchEnv for a workspace whose repository loopgate holds: without `persisted`, the credential
 * is read (as data) from the user's configuration loopgate keeps aside, where it still is before
 * the protection setup stashes it.
 */
export async function fetchEnvFor(repository: GitRepository, creds: FetchCredentials): Promise<NodeJS.ProcessEnv> {
  if (creds.persisted || (creds.token && tokenHeader(creds.token, creds.env))) return fetchEnv(creds)
  const held = repository.held
  const persisted = held ? await persistedCredentials(userConfigOf(held)).catch(() => []) : []
  return fetchEnv({ ...creds, persisted })
}

/** The token and its encodings: what never appears in a message git may echo. */
export function credentialSecrets(creds: Pick<FetchCredentials, 'token' | 'persisted'>): string[] {
  const secrets: string[] = []
  if (creds.token) secrets.push(creds.token, basicOf(creds.token))
  for (const setting of creds.persisted ?? []) {
    const m = /basic\s+(\S+)/i.exec(setting)
    if (m) secrets.push(m[1])
  }
  return secrets
}

/** Removes the token (and its encodings) from text git may echo. */
export function scrubCredentials(text: string, creds: FetchCredentials): string {
  return credentialSecrets(creds).reduce((t, s) => (s ? t.split(s).join('***') : t), text)
}
