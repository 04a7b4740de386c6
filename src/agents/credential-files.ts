import { chownSync, mkdtempSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { agentSpec, providerSpec } from './agent-registry.js'
import type { AgentUser } from '../isolation/agent-user.js'
import { readAgentFile } from '../fs/tree.js'
import { ConfigError } from '../errors.js'
import { MINTING_FIX, mintingReason, mintingVariable } from '../isolation/minting-credentials.js'

const OUTSIDE_FIX =
  "loopgate's metering proxy holds the credential and the agent gets none: write the key file to $RUNNER_TEMP, or have " +
  'google-github-actions/auth mint an access token (`token_format: access_token`, `create_credentials_file: false`) and set GOOGLE_OAUTH_ACCESS_TOKEN to it'

/** A credentials file larger than this is not a credentials file. */
const MAX_CREDENTIALS_BYTES = 1024 * 1024

interface StagedCredentials {
  /** The agent's environment, each credentials-file variable naming the agent's own copy. */
  env: NodeJS.ProcessEnv
  /** Credentials files that lie inside the workspace (relative paths): kept out of loopgate's commits. */
  inWorkspace: string[]
  notes: string[]
}

/** The provider's credentials files that lie inside the workspace (relative paths): kept out of loopgate's commits. */
export function credentialFilesInWorkspace(env: NodeJS.ProcessEnv, opts: { agent: string; provider?: string; workspace: string }): string[] {
  const provider = providerSpec(agentSpec(opts.agent), opts.provider)
  const inside: string[] = []
  for (const name of provider?.files ?? []) {
    const source = env[name]
    if (!source) continue
    const rel = path.relative(opts.workspace, path.resolve(opts.workspace, source))
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) inside.push(rel.split(path.sep).join('/'))
  }
  return inside
}

/**
 * The provider's credentials files (GOOGLE_APPLICATION_CREDENTIALS, AWS_SHARED_CREDENTIALS_FILE, …)
 * for an agent that runs as its own user: each is read without following links, before the first
 * call, and copied into a fresh folder in the agent's home, owned by the agent user with mode 0600;
 * the variable then names the copy. The runner's file is never chmod-ed or chown-ed. Without a
 * separate user the agent can already read the runner's path, which stays. When loopgate's proxy
 * holds the credential (`heldByProxy`) nothing is copied, and a file inside the workspace, which
 * the agent's user is handed, is refused.
 */
export function stageCredentialFiles(
  env: NodeJS.ProcessEnv,
  opts: { agent: string; provider?: string; user?: AgentUser; workspace: string; runnerEnv?: NodeJS.ProcessEnv; heldByProxy?: boolean }
): StagedCredentials {
  const staged: StagedCredentials = { env: { ...env }, inWorkspace: credentialFilesInWorkspace(env, opts), notes: [] }
  const provider = providerSpec(agentSpec(opts.agent), opts.provider)
  const runnerEnv = opts.runnerEnv ?? {}
  const variable = mintingVariable(env, runnerEnv)
  if (variable) throw new ConfigError(variable, '(not shown)', `a value that does not carry the runner's OIDC request token or URL; ${MINTING_FIX}`)
  let folder: string | undefined
  for (const name of provider?.files ?? []) {
    const source = env[name]
    if (!source) continue
    const file = path.resolve(opts.workspace, source)
    const data = readAgentFile(file, MAX_CREDENTIALS_BYTES)
    // Checked whoever the agent runs as: without a separate user it reads the runner's file itself.
    const reason = data === null ? null : mintingReason(data, runnerEnv)
    if (reason) throw new ConfigError(name, source, `a credentials file that cannot mint other credentials (this one cannot: ${reason}); ${MINTING_FIX}`)
    if (opts.heldByProxy && staged.inWorkspace.includes(path.relative(opts.workspace, file).split(path.sep).join('/'))) {
      throw new ConfigError(name, source, `a credentials file outside the workspace, which the agent's user is handed (${OUTSIDE_FIX})`)
    }
    if (!opts.user) continue
    if (data === null) {
      delete staged.env[name]
      staged.notes.push(`${name} (${source}) is not a readable regular file of at most 1 MiB: not passed to the agent`)
      continue
    }
    if (!folder) {
      folder = mkdtempSync(path.join(opts.user.home, '.loopgate-credentials-'))
      chownSync(folder, opts.user.uid, opts.user.gid)
    }
    const copy = path.join(folder, `${name.toLowerCase()}-${path.basename(file)}`)
    writeFileSync(copy, data, { flag: 'wx', mode: 0o600 })
    chownSync(copy, opts.user.uid, opts.user.gid)
    staged.env[name] = copy
  }
  return staged
}
