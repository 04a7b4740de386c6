import { git } from '../git/git.js'

/** One file of a change, as `git diff --numstat` counts it (null counts: a binary file). */
export interface FileChange {
  path: string
  insertions: number | null
  deletions: number | null
}

/** The files a change touched, between two of loopgate's commits. */
export interface ChangeSummary {
  from: string
  to: string
  files: FileChange[]
}

/** Parses `git diff --numstat -z --no-renames`: `<added>\t<deleted>\t<path>\0` per file. */
export function parseNumstatZ(text: string): FileChange[] {
  const files: FileChange[] = []
  for (const entry of text.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t([\s\S]+)$/.exec(entry)
    if (!m) continue
    files.push({ path: m[3], insertions: m[1] === '-' ? null : Number(m[1]), deletions: m[2] === '-' ? null : Number(m[2]) })
  }
  return files
}

/**
 * The files changed from `from` to `to`, read by loopgate's own git (its git directory while it
 * holds the workspace), so nothing the agent wrote in its `.git` is read. Null when git cannot tell.
 */
export async function changesBetween(workspace: string, from: string, to: string): Promise<ChangeSummary | null> {
  if (from === to) return { from, to, files: [] }
  try {
    const r = await git(['diff', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', from, to, '--'], {
      cwd: workspace,
      maxBuffer: 64 * 1024 * 1024
    })
    return { from, to, files: parseNumstatZ(r.stdout) }
  } catch {
    return null
  }
}
