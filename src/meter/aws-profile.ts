import { readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ConfigError } from '../errors.js'

/** Static keys read from the runner's shared AWS files, and the profile's region when it has one. */
interface ProfileKeys {
  profile: string
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
  region?: string
}

/** Settings that make the SDK obtain credentials by running code or asking another service. */
const RESOLVED_ELSEWHERE = [
  'role_arn',
  'source_profile',
  'credential_source',
  'credential_process',
  'web_identity_token_file',
  'sso_session',
  'sso_start_url',
  'sso_account_id',
  'sso_role_name'
]

const FIX =
  'export short-lived keys instead: aws-actions/configure-aws-credentials sets AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN ' +
  '(loopgate signs each request with them and the agent gets none), or put static aws_access_key_id, aws_secret_access_key ' +
  '(and aws_session_token) in the profile'

type Sections = Map<string, Map<string, string>>

/** The sections of an AWS shared file, as the SDKs read them (`#`/`;` comments, indented sub-settings skipped). */
function parseAwsIni(text: string): Sections {
  const sections: Sections = new Map()
  let current: Map<string, string> | undefined
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(line) || /^\s/.test(line)) continue
    const header = /^\[([^\]]+)\]\s*(?:[#;].*)?$/.exec(line)
    if (header) {
      const name = header[1].trim().replace(/\s+/g, ' ')
      current = sections.get(name) ?? new Map<string, string>()
      sections.set(name, current)
      continue
    }
    const setting = /^([^=]+?)\s*=\s*(.*?)\s*$/.exec(line)
    if (setting && current) current.set(setting[1].trim().toLowerCase(), setting[2])
  }
  return sections
}

function readShared(file: string): Sections {
  try {
    return parseAwsIni(readFileSync(file, 'utf8'))
  } catch {
    return new Map()
  }
}

/** The profile's settings: the config file's `[profile x]` (`[default]` for default), then the credentials file's `[x]` over them. */
function profileSettings(env: NodeJS.ProcessEnv, profile: string): { settings: Map<string, string>; files: string[] } {
  const home = env.HOME || os.homedir()
  const configFile = env.AWS_CONFIG_FILE || path.join(home, '.aws', 'config')
  const credentialsFile = env.AWS_SHARED_CREDENTIALS_FILE || path.join(home, '.aws', 'credentials')
  const config = readShared(configFile)
  const fromConfig = config.get(`profile ${profile}`) ?? (profile === 'default' ? config.get('default') : undefined)
  const fromCredentials = readShared(credentialsFile).get(profile)
  const settings = new Map([...(fromConfig ?? []), ...(fromCredentials ?? [])])
  return { settings, files: [configFile, credentialsFile] }
}

/**
 * The runner's AWS profile (AWS_PROFILE, else `default`) read from the shared config and
 * credentials files, as the AWS SDKs resolve them, when it holds static keys. Undefined when the
 * profile has no settings at all. A profile whose credentials come from somewhere loopgate would
 * have to run code or call another service for (an assumed role, SSO, web identity, a command) is
 * refused before any spend.
 */
export function profileKeys(env: NodeJS.ProcessEnv): ProfileKeys | undefined {
  const profile = (env.AWS_PROFILE || env.AWS_DEFAULT_PROFILE || 'default').trim()
  const { settings, files } = profileSettings(env, profile)
  if (settings.size === 0) return undefined
  const elsewhere = RESOLVED_ELSEWHERE.filter((k) => settings.has(k))
  const accessKeyId = settings.get('aws_access_key_id')
  const secretAccessKey = settings.get('aws_secret_access_key')
  if (elsewhere.length > 0 || !accessKeyId || !secretAccessKey) {
    const what = elsewhere.length > 0 ? `its credentials come from ${elsewhere.join(', ')}` : 'it has no aws_access_key_id and aws_secret_access_key'
    throw new ConfigError(
      'AWS_PROFILE',
      profile,
      `a profile loopgate can read static keys from without running code (profile ${JSON.stringify(profile)} in ${files.join(' and ')} cannot: ${what}); ${FIX}`
    )
  }
  return { profile, accessKeyId, secretAccessKey, sessionToken: settings.get('aws_session_token') || undefined, region: settings.get('region') || undefined }
}
