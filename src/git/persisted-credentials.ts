import { chmodSync, lstatSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { GitRepository } from '../git/repository.js'

interface StashedCredentials {
  /** `key=value` settings that authenticate loopgate's own fetches (see git/fetch-auth.ts); never written into the workspace. */
  auth: string[]
  /** Where they were found, for the log (keys only, never values). */
  found: string[]
}

const CREDENTIAL_KEY = /^http\..*\.extraheader$|^http\.extraheader$/i

interface FoundCredentials extends StashedCredentials {
  /** The included file behind each `found` include key, as the configuration names it. */
  included: Map<string, string>
  files: string[]
}

/**
 * The credential actions/checkout persists (`http.*.extraheader`, in the repository's config or in
 * a config file it includes), read as data: nothing is run, nothing is changed.
 */
async function findCredentials(userConfig: string, cwd: string): Promise<FoundCredentials> {
  const found: string[] = []
  const auth: string[] = []
  const included = new Map<string, string>()
  const files: string[] = []
  const repo = GitRepository.plain(cwd)
  for (const { key, value: set } of await repo.configList(userConfig)) {
    const value = set ?? ''
    if (CREDENTIAL_KEY.test(key)) {
      auth.push(`${key}=${value}`)
      if (!found.includes(key)) found.push(key)
    } else if (/^include(?:if\..*)?\.path$/i.test(key)) {
      const file = path.isAbsolute(value) ? value : path.join(path.dirname(userConfig), value)
      let text: string
      try {
        if (!lstatSync(file).isFile()) continue
        text = readFileSync(file, 'utf8')
      } catch {
        continue
      }
      if (!/extraheader/i.test(text)) continue
      for (const entry of await repo.configList(file)) if (CREDENTIAL_KEY.test(entry.key)) auth.push(`${entry.key}=${entry.value ?? ''}`)
      files.push(file)
      found.push(`${key} (${path.basename(file)})`)
      included.set(`${key} (${path.basename(file)})`, value)
    }
  }
  return { auth, found, included, files }
}

/** The persisted credential, still where actions/checkout left it (before stashCredentials). */
export async function persistedCredentials(userConfig: string): Promise<string[]> {
  return (await findCredentials(userConfig, path.dirname(userConfig))).auth
}

/**
 * Takes the persisted credential (see findCredentials) out of the user's configuration that
 * loopgate holds (see git/custody.ts): the agent's copy of the repository never had it. An
 * included credential file (actions/checkout keeps it under RUNNER_TEMP) is made readable by its
 * owner only. The keys are removed from that configuration, so the repository goes back to the
 * workspace without them.
 */
export async function stashCredentials(userConfig: string, stashFile: string): Promise<StashedCredentials> {
  const cwd = path.dirname(stashFile)
  const { auth, found, included, files } = await findCredentials(userConfig, cwd)
  for (const file of files) chmodSync(file, 0o600)
  // The credential goes back into no workspace: the repository is returned without it.
  for (const key of found) {
    const [name, inc] = key.split(' (')
    await GitRepository.plain(cwd).unsetConfig(userConfig, name, inc ? (included.get(key) ?? '') : undefined)
  }
  if (auth.length) writeFileSync(stashFile, JSON.stringify({ auth }), { mode: 0o600 })
  return { auth, found }
}
