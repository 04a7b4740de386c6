import { createHash } from 'node:crypto'
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { CacheLister, ListedCache } from './cache-list.js'
import type { CacheClient } from './store.js'

/**
 * The loop state of the local CLI, kept in a folder instead of actions/cache: the same entries (one
 * per run, restored by key, else the newest whose key starts with a restore prefix; the loop's
 * charge and lease records listed by prefix as the Actions cache list does), so the state session,
 * its checks and its notes are the action's. Only regular files are copied either way.
 */

/** How many saved states of one loop are kept (the newest); records of charges and leases are counted apart. */
const KEEP_STATES = 5
const KEEP_RECORDS = 500
/** A loop's records (charges, leases) are named `<prefix>@charges-…` / `<prefix>@lease-…`. */
const RECORD_KEY = /@(?:charges|lease)-/
/** The file in each entry that holds its key (a folder name cannot hold every key). */
const KEY_FILE = '.loopgate-key'

interface Entry {
  key: string
  dir: string
  savedAt: number
}

/** A folder name for any key: the key itself when it is short and plain, else a hash of it. */
function folderName(key: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._@~-]{0,200}$/.test(key) ? key : `h-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`
}

function copyFiles(from: string, to: string): void {
  mkdirSync(to, { recursive: true, mode: 0o700 })
  for (const name of readdirSync(from)) {
    const source = path.join(from, name)
    if (lstatSync(source).isFile()) copyFileSync(source, path.join(to, name))
  }
}

function readEntry(root: string, name: string): Entry | null {
  const dir = path.join(root, name)
  try {
    const st = lstatSync(dir)
    if (!st.isDirectory() || name.startsWith('.')) return null
    const keyFile = path.join(dir, KEY_FILE)
    const key = lstatSync(keyFile, { throwIfNoEntry: false })?.isFile() ? readFileSync(keyFile, 'utf8') : name
    return { key, dir, savedAt: st.mtimeMs }
  } catch {
    return null
  }
}

/** The entries of the folder, newest first. */
function entries(root: string): Entry[] {
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return []
  }
  return names
    .map((n) => readEntry(root, n))
    .filter((e): e is Entry => e !== null)
    .sort((a, b) => b.savedAt - a.savedAt)
}

function prune(root: string): void {
  const all = entries(root)
  const states = all.filter((e) => !RECORD_KEY.test(e.key))
  const records = all.filter((e) => RECORD_KEY.test(e.key))
  for (const old of [...states.slice(KEEP_STATES), ...records.slice(KEEP_RECORDS)]) rmSync(old.dir, { recursive: true, force: true })
}

/** A cache client over `root` (made 0700 on the first save). Paths are relative to the caller's cwd, as with actions/cache. */
export function folderCache(root: string): CacheClient {
  return {
    isFeatureAvailable: () => true,
    restoreCache: async (paths, primaryKey, restoreKeys = []) => {
      const states = entries(root).filter((e) => !RECORD_KEY.test(e.key))
      const found = states.find((e) => e.key === primaryKey) ?? states.find((e) => restoreKeys.some((prefix) => e.key.startsWith(prefix)))
      if (!found) return undefined
      copyFiles(found.dir, path.resolve(paths[0]))
      rmSync(path.join(path.resolve(paths[0]), KEY_FILE), { force: true })
      return found.key
    },
    saveCache: async (paths, key) => {
      mkdirSync(root, { recursive: true, mode: 0o700 })
      const partial = path.join(root, `.partial-${process.pid}`)
      rmSync(partial, { recursive: true, force: true })
      copyFiles(path.resolve(paths[0]), partial)
      writeFileSync(path.join(partial, KEY_FILE), key, { mode: 0o600 })
      const target = path.join(root, folderName(key))
      rmSync(target, { recursive: true, force: true })
      renameSync(partial, target)
      prune(root)
      return 1
    }
  }
}

/** The folder's entries whose key starts with a prefix, newest first: the local stand-in for the Actions cache list. */
export function folderCacheLister(root: string): CacheLister {
  return async (prefix) =>
    entries(root)
      .filter((e) => e.key.startsWith(prefix))
      .map((e): ListedCache => ({ key: e.key, ref: 'local', createdAt: new Date(e.savedAt).toISOString() }))
}
