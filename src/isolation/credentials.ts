import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { git } from '../git/git.js'

export interface StashedCredentials {
  /** `-c` settings that authenticate loopgate's own fetches; never written into the workspace. */
  auth: string[]
  /** What was removed, for the log (keys only, never values). */
  removed: string[]
}

const CREDENTIAL_KEY = /^http\..*\.extraheader$|^http\.extraheader$/i

/**
 * Removes the credential actions/checkout persists (`http.*.extraheader`, directly or in a config
 * file included from .git/config) before the first agent call, and keeps it in a file only
 * loopgate can read. It is never put back into the workspace.
 */
export async function stashCredentials(workspace: string, stashFile: string): Promise<StashedCredentials> {
  const removed: string[] = []
  const auth: string[] = []
  const local = await git(['config', '--local', '--list', '-z'], { cwd: workspace, okCodes: [1] })
  const includes: string[] = []
  for (const rec of local.stdout.split('\0')) {
    if (!rec) continue
    const nl = rec.indexOf('\n')
    const key = nl < 0 ? rec : rec.slice(0, nl)
    const value = nl < 0 ? '' : rec.slice(nl + 1)
    if (CREDENTIAL_KEY.test(key)) {
      auth.push(`${key}=${value}`)
      if (!removed.includes(key)) removed.push(key)
    } else if (/^include(?:if\..*)?\.path$/i.test(key)) includes.push(`${key}\n${value}`)
  }
  for (const key of removed) await git(['config', '--local', '--unset-all', key], { cwd: workspace, okCodes: [5] })
  const gitDir = (await git(['rev-parse', '--absolute-git-dir'], { cwd: workspace })).stdout.trim()
  for (const entry of includes) {
    const [key, value] = entry.split('\n')
    const file = path.isAbsolute(value) ? value : path.join(gitDir, value)
    if (!existsSync(file)) continue
    const text = readFileSync(file, 'utf8')
    if (!/extraheader/i.test(text)) continue
    const inc = await git(['config', '--file', file, '--list', '-z'], { cwd: workspace, okCodes: [1] })
    for (const rec of inc.stdout.split('\0')) {
      const nl = rec.indexOf('\n')
      if (nl > 0 && CREDENTIAL_KEY.test(rec.slice(0, nl))) auth.push(`${rec.slice(0, nl)}=${rec.slice(nl + 1)}`)
    }
    await git(['config', '--local', '--fixed-value', '--unset-all', key, value], { cwd: workspace, okCodes: [5] })
    chmodSync(file, 0o600)
    removed.push(`${key} (${path.basename(file)})`)
  }
  if (auth.length) writeFileSync(stashFile, JSON.stringify({ auth }), { mode: 0o600 })
  return { auth, removed }
}
