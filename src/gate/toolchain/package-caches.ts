import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../isolation/agent-user.js'

/** A package manager's download cache on the runner, and where that tool looks for it under HOME. */
export interface PackageCache {
  name: string
  /** The runner's cache folder. */
  source: string
  /** The same folder relative to the gate's HOME (the tool's default, so no setting is needed). */
  home: string
  /** Sub-folders the tool rewrites in place (npm's index): the gate gets its own copy, not links. */
  copied?: string[]
  /**
   * The tool writes its files readable by their owner only (pip's 0600): links to them are no use
   * to the gate user, so the gate links a copy readable by it, made once next to the gate's HOME.
   */
  ownerOnly?: boolean
}

/** Points each tool's cache variable at the gate's HOME, whatever the runner's environment says. */
export function gateCacheEnv(gateHome: string, checkout?: string): NodeJS.ProcessEnv {
  const npm = path.join(gateHome, '.npm')
  const cache = path.join(gateHome, '.cache')
  // Without a store folder set, pnpm probes the project's root with a file of its own, and the root is not the gate user's.
  const pnpm = checkout && existsSync(path.join(checkout, 'pnpm-lock.yaml')) ? { npm_config_store_dir: path.join(gateHome, '.local/share/pnpm/store') } : {}
  return {
    ...pnpm,
    npm_config_cache: npm,
    NPM_CONFIG_CACHE: npm,
    PIP_CACHE_DIR: path.join(cache, 'pip'),
    UV_CACHE_DIR: path.join(cache, 'uv'),
    YARN_CACHE_FOLDER: path.join(cache, 'yarn'),
    // Yarn Berry writes its install state under the project's `.yarn/`, a folder of the commit's.
    YARN_INSTALL_STATE_PATH: path.join(gateHome, '.yarn', 'install-state.gz'),
    // Corepack's copies of pinned package managers, the runner's linked here; it never pins one into package.json.
    COREPACK_HOME: path.join(cache, COREPACK_DATA),
    COREPACK_ENABLE_AUTO_PIN: '0',
    COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
    // pnpm keeps its store under PNPM_HOME when it is set (as pnpm/action-setup sets it): the gate's is in its HOME.
    PNPM_HOME: path.join(gateHome, PNPM_DATA)
  }
}

const PNPM_DATA = '.local/share/pnpm'
const COREPACK_DATA = 'node/corepack'

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory()
  } catch {
    return false
  }
}

/** The home folder of the user who ran `sudo` (loopgate re-launched as root on a hosted runner). */
function sudoUserHome(env: NodeJS.ProcessEnv): string | null {
  if (!env.SUDO_UID || !/^\d+$/.test(env.SUDO_UID)) return null
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.split(':')[2] === env.SUDO_UID)
    const home = line?.split(':')[5]
    return home && path.isAbsolute(home) ? home : null
  } catch {
    return null
  }
}

/**
 * The download caches the runner's user has (npm, pip, uv, yarn, pnpm, corepack's package managers), where each tool keeps it
 * by default or by its variable; under the sudo user's home first, when loopgate was re-launched.
 */
export function runnerPackageCaches(env: NodeJS.ProcessEnv): PackageCache[] {
  const found = new Map<string, PackageCache>()
  const homes = [sudoUserHome(env), env.HOME]
  for (const home of homes) {
    if (!home || !path.isAbsolute(home)) continue
    for (const cache of cachesUnder(home, home === env.HOME ? env : {})) if (!found.has(cache.home)) found.set(cache.home, cache)
  }
  return [...found.values()]
}

/** `env` carries the tools' own variables when `home` is the environment's HOME. */
function cachesUnder(home: string, env: NodeJS.ProcessEnv): PackageCache[] {
  const xdgCache = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache')
  const xdgData = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share')
  const npmCache = env.npm_config_cache ?? env.NPM_CONFIG_CACHE ?? path.join(home, '.npm')
  const candidates: PackageCache[] = [
    { name: 'npm', source: path.join(npmCache, '_cacache'), home: '.npm/_cacache', copied: ['index-v5'] },
    { name: 'pip', source: env.PIP_CACHE_DIR ?? path.join(xdgCache, 'pip'), home: '.cache/pip', ownerOnly: true },
    { name: 'uv', source: env.UV_CACHE_DIR ?? path.join(xdgCache, 'uv'), home: '.cache/uv' },
    { name: 'yarn', source: env.YARN_CACHE_FOLDER ?? path.join(xdgCache, 'yarn'), home: '.cache/yarn' },
    { name: 'yarn berry', source: path.join(env.YARN_GLOBAL_FOLDER ?? path.join(home, '.yarn', 'berry'), 'cache'), home: '.yarn/berry/cache' },
    { name: 'corepack', source: env.COREPACK_HOME ?? path.join(xdgCache, COREPACK_DATA), home: `.cache/${COREPACK_DATA}` },
    ...pnpmStore(env, xdgData)
  ]
  return candidates.filter((c) => path.isAbsolute(c.source) && isDir(c.source))
}

/**
 * The runner's pnpm store, the first of pnpm's own order that exists: `store-dir`, then
 * `PNPM_HOME/store`, then the data folder's; given where the gate's pnpm looks by default.
 */
function pnpmStore(env: NodeJS.ProcessEnv, xdgData: string): PackageCache[] {
  const configured = env.npm_config_store_dir ?? env.NPM_CONFIG_STORE_DIR
  const sources = [configured, env.PNPM_HOME && path.join(env.PNPM_HOME, 'store'), path.join(xdgData, 'pnpm', 'store')]
  const source = sources.find((s): s is string => typeof s === 'string' && path.isAbsolute(s) && isDir(s))
  if (!source) return []
  // A `store-dir` may name the versioned folder (`…/store/v10`) itself.
  const versioned = /^v\d+$/.test(path.basename(source)) ? `/${path.basename(source)}` : ''
  return [{ name: 'pnpm', source, home: `${PNPM_DATA}/store${versioned}` }]
}

/**
 * The caches a gate run gets: with a gate-setup, every one its install may read; without one, only
 * the package managers corepack keeps (the program a gate command such as `pnpm test` starts, which
 * corepack would otherwise fetch, and the gate is offline).
 */
export function gateCaches(caches: PackageCache[], hasSetup: boolean): PackageCache[] {
  return hasSetup ? caches : caches.filter((c) => c.name === 'corepack')
}

/**
 * Gives a gate run the runner's package caches in its fresh HOME, read-only: the folders are the
 * gate user's (a tool may add entries), the files are hard links to the runner's, which the gate
 * user can read but not write. Nothing the gate adds outlives its HOME, and the runner's own
 * folders (under /root, say) are never opened to it. A file someone else could write is left out,
 * and so is a cache on another file system (hard links cannot cross it). Returns what was given
 * and what was left out, one phrase each.
 */
export function linkPackageCaches(
  caches: PackageCache[],
  gateHome: string,
  user: AgentUser | undefined
): { given: string[]; skipped: string[]; homes: string[] } {
  const given: string[] = []
  const homes: string[] = []
  const skipped: string[] = []
  for (const cache of caches) {
    const dest = path.join(gateHome, cache.home)
    const parents: string[] = []
    for (let p = path.dirname(dest); p !== gateHome && !isDir(p); p = path.dirname(p)) parents.unshift(p)
    for (const p of parents) {
      mkdirSync(p, { mode: 0o700 })
      if (user) chownSync(p, user.uid, user.gid)
    }
    try {
      const source = cache.ownerOnly ? readableCopy(cache, path.dirname(gateHome)) : cache.source
      execFileSync('cp', ['-al', '--no-dereference', source, dest], { stdio: 'pipe' })
    } catch (err) {
      execFileSync('rm', ['-rf', dest])
      skipped.push(
        `${cache.name} (${cache.source}: ${
          String((err as { stderr?: Buffer }).stderr ?? err)
            .trim()
            .split('\n')[0]
        })`
      )
      continue
    }
    // Only the links' folders become the gate's; a file writable by others would let it write the runner's.
    execFileSync('find', [dest, '-type', 'f', '-perm', '/022', '-delete'])
    for (const sub of cache.copied ?? []) copyPrivately(path.join(cache.source, sub), path.join(dest, sub), user)
    if (user) execFileSync('find', [dest, '-type', 'd', '-exec', 'chown', `${user.uid}:${user.gid}`, '{}', '+'])
    given.push(cache.name)
    homes.push(cache.home)
  }
  return { given, skipped, homes }
}

/** The caches given once to a gate (see linkPackageCaches), each run then seeing them through a layer of its own. */
export interface CacheTemplate {
  given: string[]
  skipped: string[]
  /** Each cache: the linked folder, and where it goes under a run's HOME. */
  mounts: { lower: string; home: string }[]
}

/**
 * The runner's caches linked once into `templateHome`, a folder under a root-only one that no
 * process of the gate's reaches: each gate run mounts them in its HOME as the lower layers of
 * copy-on-write mounts of its own (see write-layer.ts), so what a run adds, deletes or chmods lands
 * in its layer and is thrown away with it, as it was with the links made afresh for each run.
 */
export function packageCacheTemplate(caches: PackageCache[], templateHome: string, user: AgentUser | undefined): CacheTemplate {
  execFileSync('rm', ['-rf', templateHome])
  mkdirSync(path.dirname(templateHome), { recursive: true, mode: 0o700 })
  mkdirSync(templateHome, { mode: 0o700 })
  if (user) chownSync(templateHome, user.uid, user.gid)
  const linked = linkPackageCaches(caches, templateHome, user)
  return { given: linked.given, skipped: linked.skipped, mounts: linked.homes.map((home) => ({ lower: path.join(templateHome, home), home })) }
}

/** The empty folders in a run's `home` where the template's caches are mounted, and those on their way, the gate user's. */
export function cacheMountpoints(template: CacheTemplate, home: string, user: AgentUser | undefined): { lower: string; target: string }[] {
  // The path each mount checks it still resolves to (see OverlayMount.canonical).
  const real = realpathSync(home)
  return template.mounts.map((m) => {
    const target = path.join(real, m.home)
    const made: string[] = []
    for (let p = target; p !== real && !isDir(p); p = path.dirname(p)) made.unshift(p)
    for (const p of made) {
      mkdirSync(p, { mode: 0o700 })
      if (user) chownSync(p, user.uid, user.gid)
    }
    return { lower: m.lower, target }
  })
}

/**
 * A copy of an owner-only cache that every user may read and none but loopgate may write, in a
 * folder only loopgate can enter (the gate user reaches the files through its links): made on
 * the first gate run and linked from on the next ones. The runner's files are never changed.
 */
function readableCopy(cache: PackageCache, gateDir: string): string {
  const copies = path.join(gateDir, 'package-cache-copies')
  const copy = path.join(copies, cache.name)
  if (isDir(copy)) return copy
  mkdirSync(copies, { recursive: true, mode: 0o700 })
  try {
    execFileSync('cp', ['-R', '--no-dereference', '--reflink=auto', cache.source, copy], { stdio: 'pipe' })
    execFileSync('find', [copy, '-type', 'l', '-delete'])
    execFileSync('chmod', ['-R', 'u=rwX,go=rX', copy])
  } catch (err) {
    execFileSync('rm', ['-rf', copy])
    throw err
  }
  return copy
}

/** Replaces the links under `to` with the gate user's own copies of `from`'s files. */
function copyPrivately(from: string, to: string, user: AgentUser | undefined): void {
  if (!isDir(from)) return
  execFileSync('rm', ['-rf', to])
  execFileSync('cp', ['-R', '--no-dereference', from, to])
  execFileSync('find', [to, '-type', 'l', '-delete'])
  if (user) execFileSync('chown', ['-R', '-h', `${user.uid}:${user.gid}`, to])
}
