import { copyFileSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { CacheClient } from './store.js'

/**
 * The loop state of the local CLI, kept in a folder instead of actions/cache: the same entries (one
 * per run, restored by key, else the newest whose key starts with a restore prefix), so the state
 * session, its checks and its notes are the action's. Only regular files are copied either way.
 */

/** How many saved states of one loop are kept (the newest). */
const KEEP = 5
const KEY = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,250}$/

function copyFiles(from: string, to: string): void {
  mkdirSync(to, { recursive: true, mode: 0o700 })
  for (const name of readdirSync(from)) {
    const source = path.join(from, name)
    if (lstatSync(source).isFile()) copyFileSync(source, path.join(to, name))
  }
}

function savedAt(dir: string): number {
  try {
    return lstatSync(dir).mtimeMs
  } catch {
    return 0
  }
}

/** The entries of the folder, newest first. */
function entries(root: string): string[] {
  let names: string[]
  try {
    names = readdirSync(root).filter((n) => KEY.test(n) && lstatSync(path.join(root, n)).isDirectory())
  } catch {
    return []
  }
  return names
    .map((n) => ({ n, t: savedAt(path.join(root, n)) }))
    .sort((a, b) => b.t - a.t)
    .map((e) => e.n)
}

/** A cache client over `root` (made 0700 on the first save). Paths are relative to the caller's cwd, as with actions/cache. */
export function folderCache(root: string): CacheClient {
  return {
    isFeatureAvailable: () => true,
    restoreCache: async (paths, primaryKey, restoreKeys = []) => {
      const all = entries(root)
      const key = all.includes(primaryKey) ? primaryKey : all.find((n) => restoreKeys.some((prefix) => n.startsWith(prefix)))
      if (!key) return undefined
      copyFiles(path.join(root, key), path.resolve(paths[0]))
      return key
    },
    saveCache: async (paths, key) => {
      if (!KEY.test(key)) throw new Error(`the state key ${JSON.stringify(key)} cannot name a folder`)
      mkdirSync(root, { recursive: true, mode: 0o700 })
      const partial = path.join(root, `.partial-${process.pid}`)
      rmSync(partial, { recursive: true, force: true })
      copyFiles(path.resolve(paths[0]), partial)
      rmSync(path.join(root, key), { recursive: true, force: true })
      renameSync(partial, path.join(root, key))
      for (const old of entries(root).slice(KEEP)) rmSync(path.join(root, old), { recursive: true, force: true })
      return 1
    }
  }
}
