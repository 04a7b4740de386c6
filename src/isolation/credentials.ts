import { chmodSync, lstatSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { git } from '../git/git.js'

export interface StashedCredentials {
  /** `-c` settings that authenticate loopgate's own fetches; never written into the workspace. */
  auth: string[]
  /** Where they were found, for the log (keys only, never values). */
  found: string[]
}

const CREDENTIAL_KEY = /^http\..*\.extraheader$|^http\.extraheader$/i

function configEntries(text: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = []
  for (const rec of text.split('\0')) {
    if (!rec) continue
    const nl = rec.indexOf('\n')
    out.push(nl < 0 ? { key: rec, value: '' } : { key: rec.slice(0, nl), value: rec.slice(nl + 1) })
  }
  return out
}

/**
 * The credential actions/checkout persists (`http.*.extraheader`, in the repository's config or in
 * a config file it includes), read as data from the user's configuration that loopgate holds (see
 * git/custody.ts): the agent's copy of the repository never had it. An included credential file
 * (actions/checkout keeps it under RUNNER_TEMP) is made readable by its owner only. The keys are
 * removed from that configuration, so the repository goes back to the workspace without them.
 */
export async function stashCredentials(userConfig: string, stashFile: string): Promise<StashedCredentials> {
  const found: string[] = []
  const auth: string[] = []
  const includedValue = new Map<string, string>()
  const cwd = path.dirname(stashFile)
  const local = await git(['config', '--file', userConfig, '--list', '-z'], { cwd, okCodes: [1] })
  for (const { key, value } of configEntries(local.stdout)) {
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
      const inc = await git(['config', '--file', file, '--list', '-z'], { cwd, okCodes: [1] })
      for (const entry of configEntries(inc.stdout)) if (CREDENTIAL_KEY.test(entry.key)) auth.push(`${entry.key}=${entry.value}`)
      chmodSync(file, 0o600)
      found.push(`${key} (${path.basename(file)})`)
      includedValue.set(`${key} (${path.basename(file)})`, value)
    }
  }
  // The credential goes back into no workspace: the repository is returned without it.
  for (const key of found) {
    const [name, included] = key.split(' (')
    const args = included ? ['--fixed-value', '--unset-all', name, includedValue.get(key) ?? ''] : ['--unset-all', name]
    await git(['config', '--file', userConfig, ...args], { cwd, okCodes: [5] })
  }
  if (auth.length) writeFileSync(stashFile, JSON.stringify({ auth }), { mode: 0o600 })
  return { auth, found }
}
