import { readdirSync } from 'node:fs'
import path from 'node:path'
import { DEPENDENCY_FOLDER_NAMES } from '../../ecosystems/registry.js'
import { inRunnerFolder } from '../toolchain/runner-folders.js'

/** Folders never walked: git's, and the dependency folders (their content is the pristine copies' or the setup's install). */
const PRUNED = new Set(['.git', ...DEPENDENCY_FOLDER_NAMES])

/**
 * Every path under `dir` (symlinks not followed, the runner's own folders and dependency folders
 * left out) that `isProtected` says is protected: after gate-setup, the candidates a file the setup
 * added is found among.
 */
export function protectedFilesUnder(dir: string, isProtected: (rel: string) => boolean, report?: string): string[] {
  const out: string[] = []
  const walk = (rel: string): void => {
    let entries
    try {
      entries = readdirSync(rel ? path.join(dir, rel) : dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name
      if (inRunnerFolder(child, report)) continue
      if (e.isDirectory()) {
        if (!PRUNED.has(e.name)) walk(child)
      } else if (isProtected(child)) out.push(child)
    }
  }
  walk('')
  return out
}
