import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type * as CacheLibrary from '@actions/cache'
import { parseState } from './parse.js'
import { emptyState, StateCorruptError, type LoopState } from './schema.js'

/** The part of @actions/cache loopgate uses (injectable for unit tests). */
export interface CacheClient {
  isFeatureAvailable(): boolean | Promise<boolean>
  restoreCache(paths: string[], primaryKey: string, restoreKeys?: string[]): Promise<string | undefined>
  saveCache(paths: string[], key: string): Promise<number>
}

/** The cache client is loaded only when a run uses it (it is most of the bundle's weight). */
const cacheLibrary = (): Promise<typeof CacheLibrary> => import('@actions/cache')

const actionsCache: CacheClient = {
  isFeatureAvailable: async () => (await cacheLibrary()).isFeatureAvailable(),
  restoreCache: async (paths, key, restoreKeys) => (await cacheLibrary()).restoreCache(paths, key, restoreKeys),
  saveCache: async (paths, key) => (await cacheLibrary()).saveCache(paths, key)
}

export interface StateLocation {
  /** The directory cached as a whole; under RUNNER_TEMP, outside the workspace. */
  dir: string
  file: string
}

/**
 * @actions/cache derives an entry's version from the path strings it is given, and stores the
 * archive's paths relative to GITHUB_WORKSPACE. An absolute state path under RUNNER_TEMP would
 * make both depend on where the runner keeps its files, so a runner with another temp folder
 * would miss the state (and the rolling period ceiling would reset). Every cache call is made
 * from the state root instead, with the state directory's bare name: the same version and the
 * same archive on every runner.
 */
async function fromStateRoot<T>(location: StateLocation, fn: (cachePath: string) => Promise<T>): Promise<T> {
  const root = path.dirname(location.dir)
  const cwd = process.cwd()
  const workspace = process.env.GITHUB_WORKSPACE
  process.chdir(root)
  process.env.GITHUB_WORKSPACE = root
  try {
    return await fn(stateCachePath(location))
  } finally {
    process.chdir(cwd)
    if (workspace === undefined) delete process.env.GITHUB_WORKSPACE
    else process.env.GITHUB_WORKSPACE = workspace
  }
}

/** The path string the cache version is computed from: the state directory's name, never absolute. */
function stateCachePath(location: StateLocation): string {
  return path.basename(location.dir)
}

const STATE_FILE_NAME = 'state.json'
/** How much of an unreadable state is kept in the attempt log. */
const CORRUPT_BLOB_CHARS = 64 * 1024

export function stateLocation(tempDir: string, loopId: string, pr: number | null): StateLocation {
  const dir = path.join(tempDir, 'loopgate-state', pr === null ? loopId : `${loopId}-pr-${pr}`)
  return { dir, file: path.join(dir, STATE_FILE_NAME) }
}

/**
 * `loopgate-<loop-id>-`: every saved state of the loop. PR loops use `loopgate-<loop-id>@pr-<n>-`:
 * `@` cannot occur in a loop id, so the plain loop's prefix never matches a PR's entries.
 */
export function stateKeyPrefix(loopId: string, pr: number | null): string {
  return pr === null ? `loopgate-${loopId}-` : `loopgate-${loopId}@pr-${pr}-`
}

/** Cache entries are immutable: one key per run attempt. `runId` is `<run id>-<attempt>`. */
export function stateKey(loopId: string, runId: string, pr: number | null): string {
  return `${stateKeyPrefix(loopId, pr)}${runId}`
}

export type RestoreResult =
  | { status: 'restored'; state: LoopState; key: string }
  | { status: 'miss'; state: LoopState }
  /** No cache service, or it failed: a fresh state, the window's earlier spend unknown. */
  | { status: 'unavailable' | 'failed'; state: LoopState; message: string }
  | { status: 'corrupt'; key: string; message: string; blob: string }

/**
 * @actions/cache reports its own failures only as `::warning::` / `::error::` lines and returns
 * a miss; those lines are the one way to tell "no entry" from "the service failed". Its
 * `Cache hit for …: <key>` line tells that an entry was found before anything failed.
 */
async function watchCacheFailures<T>(fn: () => Promise<T>, pattern: RegExp): Promise<{ value: T; failures: string[]; hit: string | null }> {
  const failures: string[] = []
  let hit: string | null = null
  const original = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString() : ''
    for (const line of text.split('\n')) {
      const m = /^::(?:warning|error)(?: [^:]*)?::(.*)$/.exec(line.trim())
      if (m && pattern.test(m[1])) failures.push(m[1].replace(/%0A/g, ' ').replace(/%25/g, '%'))
      const h = /^Cache hit for(?: restore-key)?: (\S+)$/.exec(line.trim())
      if (h) hit = h[1]
    }
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest)
  }) as typeof process.stdout.write
  try {
    return { value: await fn(), failures, hit }
  } finally {
    process.stdout.write = original
  }
}

/** An entry that was found but whose archive would not unpack: the state itself is unreadable. */
const UNREADABLE_ARCHIVE = /\btar\b|zstd|gzip|decompress|extract/i

interface RestoreOptions {
  loopId: string
  pr: number | null
  location: StateLocation
  primaryKey: string
  cache?: CacheClient
}

export async function restoreLoopState(opts: RestoreOptions): Promise<RestoreResult> {
  const client = opts.cache ?? actionsCache
  const fresh = emptyState(opts.loopId)
  // A stale file from an earlier step must never pass for a restored state.
  rmSync(opts.location.dir, { recursive: true, force: true })
  mkdirSync(opts.location.dir, { recursive: true, mode: 0o700 })
  if (!(await client.isFeatureAvailable())) {
    return { status: 'unavailable', state: fresh, message: 'the cache service is not available to this job' }
  }
  let matched: string | undefined
  try {
    const r = await watchCacheFailures(
      () => fromStateRoot(opts.location, (cachePath) => client.restoreCache([cachePath], opts.primaryKey, [stateKeyPrefix(opts.loopId, opts.pr)])),
      /restore/i
    )
    if (r.failures.length > 0) {
      const message = r.failures.join('; ')
      if (r.hit && UNREADABLE_ARCHIVE.test(message)) {
        return { status: 'corrupt', key: r.hit, message: `the cache entry ${r.hit} could not be unpacked: ${message}`, blob: '' }
      }
      return { status: 'failed', state: fresh, message }
    }
    matched = r.value
  } catch (err) {
    return { status: 'failed', state: fresh, message: (err as Error).message }
  }
  if (!matched) return { status: 'miss', state: fresh }
  let text: string
  try {
    if (!existsSync(opts.location.file)) throw new StateCorruptError(`the cache entry ${matched} holds no ${STATE_FILE_NAME}`)
    text = readFileSync(opts.location.file, 'utf8')
  } catch (err) {
    return { status: 'corrupt', key: matched, message: (err as Error).message, blob: '' }
  }
  try {
    return { status: 'restored', state: parseState(text, opts.loopId), key: matched }
  } catch (err) {
    return { status: 'corrupt', key: matched, message: (err as Error).message, blob: text.slice(0, CORRUPT_BLOB_CHARS) }
  }
}

/** Writes the state as the only file of a fresh directory: nothing else planted there is cached. */
export function writeStateFile(state: LoopState, location: StateLocation): void {
  rmSync(location.dir, { recursive: true, force: true })
  mkdirSync(location.dir, { recursive: true, mode: 0o700 })
  writeFileSync(location.file, `${JSON.stringify(state)}\n`, { mode: 0o600 })
  chmodSync(location.file, 0o600)
}

export async function saveLoopState(
  state: LoopState,
  opts: { location: StateLocation; key: string; cache?: CacheClient }
): Promise<{ saved: boolean; message?: string }> {
  writeStateFile(state, opts.location)
  return saveDirectory(opts.location, opts.key, opts.cache)
}

/** Saves a directory under the state root as one cache entry; failures are reported, never thrown. */
export async function saveDirectory(location: StateLocation, key: string, cache?: CacheClient): Promise<{ saved: boolean; message?: string }> {
  const client = cache ?? actionsCache
  if (!(await client.isFeatureAvailable())) return { saved: false, message: 'the cache service is not available to this job' }
  try {
    const r = await watchCacheFailures(() => fromStateRoot(location, (cachePath) => client.saveCache([cachePath], key)), /save|reserv|finaliz/i)
    if (r.value === -1 || r.failures.length > 0) {
      return { saved: false, message: r.failures.join('; ') || `the cache did not accept ${key}` }
    }
    return { saved: true }
  } catch (err) {
    return { saved: false, message: (err as Error).message }
  }
}
