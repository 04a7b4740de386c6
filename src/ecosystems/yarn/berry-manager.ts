import { lstatSync, mkdtempSync, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import yaml from 'js-yaml'
import { readAgentText } from '../../fs/tree.js'
import { NodeLockManager } from '../node-lock-manager.js'
import { lockedByDeclaredRange, MAX_JSON_BYTES, packageJsonWorkspaces, parseVersions, type Json } from '../node-project.js'
import { runTool, type Tool } from '../package-manager-tool.js'
import type { BumpResult, CandidateInWorkspace, UpgradeCandidate } from '../types.js'
import { berryLocked, parseBerryLock } from './berry-lockfile.js'

export const LOCKFILE = 'yarn.lock'
const YARNRC = '.yarnrc.yml'

/**
 * What every Berry command of the bump runs with: no lifecycle script, a lockfile it may rewrite
 * (Berry makes installs immutable under CI), downloads in the global cache rather than the
 * project's `.yarn/cache` (unless the project keeps its archives there), the `node-modules` linker the gate's dependency folders model, and
 * nothing on the terminal.
 */
const BERRY_ENV = {
  YARN_ENABLE_SCRIPTS: '0',
  YARN_ENABLE_IMMUTABLE_INSTALLS: '0',
  YARN_ENABLE_GLOBAL_CACHE: '1',
  YARN_NODE_LINKER: 'node-modules',
  YARN_ENABLE_TELEMETRY: '0',
  YARN_ENABLE_PROGRESS_BARS: '0',
  YARN_ENABLE_COLORS: '0'
}

const isTable = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Berry's project cache folder, the one the gate holds as a dependency folder (the ecosystem's `archives`). */
export const PROJECT_CACHE_FOLDER = '.yarn/cache'

/** A setting of the project's `.yarnrc.yml` (null: no such file, or it does not parse). */
function yarnrcSetting(workspace: string, key: string): unknown {
  const text = readAgentText(workspace, YARNRC, MAX_JSON_BYTES)
  if (text === null) return null
  try {
    const doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA })
    return isTable(doc) ? doc[key] : null
  } catch {
    return null
  }
}

/** Whether every component of `rel` under `workspace` is a real folder (no symlink out of the checkout). */
function realFolder(workspace: string, rel: string): boolean {
  let at = workspace
  for (const part of rel.split('/')) {
    at = path.join(at, part)
    try {
      if (!lstatSync(at).isDirectory()) return false
    } catch {
      return false
    }
  }
  return true
}

/**
 * The project's own cache folder, relative to the workspace, when the project keeps its archives
 * in `.yarn/cache` (zero-installs: the global cache not turned on, the folder holding archives): the bump must
 * add the new version's archive and drop the old one, or an `--immutable-cache` install fails on
 * the pull request. Null when the archives live in Yarn's global cache.
 */
function projectCacheFolder(workspace: string): string | null {
  if (yarnrcSetting(workspace, 'enableGlobalCache') === 'true') return null
  // Another `cacheFolder` is no folder the gate holds: its archives would be the agent's to change.
  const configured = yarnrcSetting(workspace, 'cacheFolder')
  if (typeof configured === 'string' && path.posix.normalize(configured.replace(/\\/g, '/')).replace(/\/$/, '') !== PROJECT_CACHE_FOLDER) return null
  const folder = PROJECT_CACHE_FOLDER
  return realFolder(workspace, folder) && cacheArchives(workspace, folder).size > 0 ? folder : null
}

/** The archive files in the project's cache folder. */
function cacheArchives(workspace: string, folder: string): Set<string> {
  try {
    return new Set(
      readdirSync(path.join(workspace, folder), { withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith('.zip'))
        .map((e) => e.name)
    )
  } catch {
    return new Set()
  }
}

/** A `yarn npm info <name> --fields versions,time --json` answer, quarantined versions left out. */
export function berryVersions(stdout: string, ageGateMinutes: number, now = Date.now()): string[] | null {
  let data: unknown
  try {
    data = JSON.parse(stdout.trim().split('\n').pop() ?? '')
  } catch {
    return null
  }
  if (!isTable(data) || !Array.isArray(data.versions)) return parseVersions(stdout)
  const times = isTable(data.time) ? data.time : {}
  const versions = data.versions.filter((v): v is string => typeof v === 'string')
  if (ageGateMinutes <= 0) return versions
  // As Yarn's own age gate: a version without a publish time, or younger than the gate, is not installable yet.
  return versions.filter((v) => {
    const at = typeof times[v] === 'string' ? Date.parse(times[v]) : NaN
    return Number.isFinite(at) && (now - at) / 60_000 >= ageGateMinutes
  })
}

/**
 * Yarn Berry (2 and later) with the `node-modules` linker: versions from the registry through
 * `yarn npm info` (the project's `npmRegistryServer` and scopes), the bump written into every
 * workspace package that declares the dependency, then `yarn install --mode=skip-build` with
 * scripts off to rewrite yarn.lock and node_modules.
 */
export class YarnBerryManager extends NodeLockManager {
  readonly name = 'yarn'
  readonly lockfile = LOCKFILE

  protected workspacePatterns(workspace: string): string[] {
    return packageJsonWorkspaces(workspace)
  }

  protected override async tool(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<Tool> {
    const tool = await super.tool(workspace, env, signal)
    // Berry's install state goes outside the workspace: an untracked `.yarn/install-state.gz` is no file of the bump's.
    this.stateDir ??= mkdtempSync(path.join(os.tmpdir(), 'loopgate-yarn-state-'))
    const cache = projectCacheFolder(workspace)
    const ownCache: Record<string, string> = cache ? { YARN_ENABLE_GLOBAL_CACHE: '0', YARN_CACHE_FOLDER: path.join(workspace, cache) } : {}
    return { ...tool, env: { ...tool.env, ...BERRY_ENV, ...ownCache, YARN_INSTALL_STATE_PATH: path.join(this.stateDir, 'install-state.gz') } }
  }

  /** The bump, and in a project that commits its cache, the archives the install added and removed there. */
  override async bump(job: CandidateInWorkspace): Promise<BumpResult> {
    const cache = projectCacheFolder(job.workspace)
    if (!cache) return super.bump(job)
    const before = cacheArchives(job.workspace, cache)
    const result = await super.bump(job)
    const after = cacheArchives(job.workspace, cache)
    const archives = [...[...after].filter((f) => !before.has(f)), ...[...before].filter((f) => !after.has(f))].sort()
    return { ...result, files: [...(result.files ?? this.bumpFiles), ...archives.map((f) => `${cache}/${f}`)] }
  }

  private stateDir: string | undefined

  protected lockedReader(workspace: string): (dir: string, name: string) => string | null {
    const doc = parseBerryLock(readAgentText(workspace, LOCKFILE, MAX_JSON_BYTES) ?? '')
    return lockedByDeclaredRange(workspace, (name, range) => berryLocked(doc, name, range))
  }

  protected installArgs(): string[] {
    // skip-build: not even the project's own workspaces' postinstall, which `enableScripts: false` still runs.
    return ['install', '--mode=skip-build']
  }

  protected versionsArgs(name: string): string[] {
    return ['npm', 'info', name, '--fields', 'versions,time', '--json']
  }

  /** Yarn's `npmMinimalAgeGate` (minutes; Yarn 4.10 and later) holds back what was published less than that long ago. */
  protected override async versionsReader(
    tool: Tool,
    job: { workspace: string; env: NodeJS.ProcessEnv; signal?: AbortSignal }
  ): Promise<(stdout: string) => string[] | null> {
    const r = await runTool({ tool, cwd: job.workspace, args: ['config', 'get', 'npmMinimalAgeGate', '--json'], env: job.env, signal: job.signal })
    const minutes = r.exitCode === 0 ? Number(r.stdout.trim()) : 0
    const gate = Number.isFinite(minutes) && minutes > 0 ? minutes : 0
    return (stdout) => berryVersions(stdout, gate)
  }

  protected metadataArgs(name: string, version: string): string[] {
    return ['npm', 'info', `${name}@${version}`, '--fields', 'repository,homepage', '--json']
  }

  protected parseMetadata(stdout: string): Json {
    try {
      const data = JSON.parse(stdout.trim().split('\n').pop() || '{}') as unknown
      return isTable(data) ? data : {}
    } catch {
      return {}
    }
  }

  /** Plug'n'Play keeps the install in `.pnp.cjs` and `.yarn/`, folders the gate does not model: only `nodeLinker: node-modules`. */
  protected unsupported(workspace: string): string | null {
    const linker = yarnrcSetting(workspace, 'nodeLinker')
    if (linker === 'node-modules') return null
    const set = typeof linker === 'string' ? `sets nodeLinker: ${linker.slice(0, 40)}` : "sets no nodeLinker (Plug'n'Play, Yarn Berry's default)"
    return `the Yarn Berry project's ${YARNRC} ${set}: loopgate upgrades Yarn Berry projects with nodeLinker: node-modules only; set \`nodeLinker: node-modules\` in ${YARNRC}`
  }

  installedCopy(candidate: UpgradeCandidate): string {
    return `node_modules/${candidate.name}`
  }
}
