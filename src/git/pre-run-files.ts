import { existsSync, lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { GitRepository } from './repository.js'

/**
 * The files that were in the working tree, untracked, before the agent's first call (a lockfile
 * the user generated, a local `.env`, build output). They are the user's, not the agent's work:
 * loopgate's commits leave them out unless the agent changed them.
 *
 * Untracked and ignored files are recorded with the blob id `git add` would give them (mode and
 * hash, computed in a scratch index, no object written); a staged addition with the same mode and
 * blob is the file as it was, and is unstaged. Whole ignored folders (`node_modules/`) and very
 * large ignored files are not read: they stay out of loopgate's commits even if the agent
 * un-ignores them. The record lives next to loopgate's own git directory (root-only), so the post
 * step sees it too, and never goes back into the workspace's `.git`.
 */
export interface PreRunFiles {
  /** path → `<mode> <blob>` */
  files: Record<string, string>
  /** Folders (trailing `/`) and files that stay out whatever the agent does. */
  alwaysOut: string[]
}

const RECORD = 'pre-run-files.json'
const HASH_LIMIT = 64 * 1024 * 1024

/** Next to loopgate's git directory (the root-only run directory) when the repository is held. */
async function recordFile(repo: GitRepository): Promise<string> {
  return repo.held ? path.join(path.dirname(repo.held.gitDir), RECORD) : path.join(await repo.gitDir(), RECORD)
}

/** Records the untracked and ignored files before the first call (the agent has not run yet). */
export async function recordPreRunFiles(repo: GitRepository): Promise<PreRunFiles> {
  const dir = repo.dir
  const [untracked, ignored] = await Promise.all([
    repo.lsFiles(['--others', '--exclude-standard']),
    repo.lsFiles(['--others', '--ignored', '--exclude-standard', '--directory'])
  ])
  const alwaysOut: string[] = []
  const toHash: string[] = []
  for (const rel of [...untracked, ...ignored]) {
    if (rel.endsWith('/')) {
      alwaysOut.push(rel)
      continue
    }
    let st
    try {
      st = lstatSync(path.join(dir, rel))
    } catch {
      continue
    }
    if (!st.isFile() && !st.isSymbolicLink()) continue
    if (st.isFile() && st.size > HASH_LIMIT) alwaysOut.push(rel)
    else toHash.push(rel)
  }
  const files: Record<string, string> = {}
  if (toHash.length) {
    const scratch = path.join(await repo.gitDir(), `loopgate-pre-run-index-${process.pid}`)
    try {
      await repo.run(['update-index', '--add', '--info-only', '-z', '--stdin'], {
        env: repo.env({ GIT_INDEX_FILE: scratch }),
        config: ['core.splitIndex=false'],
        input: `${toHash.join('\0')}\0`
      })
      for (const line of await repo.lsFiles(['-s'], { indexFile: scratch })) {
        const tab = line.indexOf('\t')
        const [mode, blob] = line.slice(0, tab).split(' ')
        files[line.slice(tab + 1)] = `${mode} ${blob}`
      }
    } finally {
      rmSync(scratch, { force: true })
    }
  }
  const record: PreRunFiles = { files, alwaysOut }
  writeFileSync(await recordFile(repo), JSON.stringify(record), { mode: 0o600 })
  return record
}

/** The record written by recordPreRunFiles for this run, if any (the post step reads it too). */
export async function readPreRunFiles(repo: GitRepository): Promise<PreRunFiles | null> {
  const file = await recordFile(repo)
  if (!existsSync(file)) return null
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as PreRunFiles
    return data && typeof data.files === 'object' && Array.isArray(data.alwaysOut) ? data : null
  } catch {
    return null
  }
}

function isAlwaysOut(file: string, record: PreRunFiles): boolean {
  return record.alwaysOut.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry))
}

/**
 * Whether a staged path (as `git diff --numstat` names it, quoted when unusual) may be a pre-run
 * file: when none is, the staged additions need no closer look.
 */
export function mayBePreRunAddition(file: string, record: PreRunFiles): boolean {
  return file.startsWith('"') || Object.hasOwn(record.files, file) || isAlwaysOut(file, record)
}

/**
 * Staged additions that are pre-run files as they were: `raw` is `git diff --cached --raw -z`
 * output. A pre-run file the agent changed (other content, other mode) is not listed.
 */
export function unchangedPreRunAdditions(raw: string, record: PreRunFiles): string[] {
  const out: string[] = []
  const parts = raw.split('\0')
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]
    const file = parts[i + 1]
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(meta)
    if (!m || m[5] !== 'A') continue
    if (isAlwaysOut(file, record) || record.files[file] === `${m[2]} ${m[4]}`) out.push(file)
  }
  return out
}
