import type { RunResult } from '../../process/run-process.js'
import { declarations, outdatedFromRegistry, parseVersions, readJson, workspaceDirs, writeBumpedManifests, type Json } from '../node-project.js'
import type { BumpResult, OutdatedReport, UpgradeCandidate } from '../types.js'

/** Runs npm in the workspace root with `args`. */
type NpmRunner = (args: string[]) => Promise<RunResult>

const isTable = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The version package-lock.json installs for `name` in the package at `dir`: its own nested copy, else the hoisted one. */
function npmLocked(lock: Json | null, dir: string, name: string): string | null {
  const packages = isTable(lock?.packages) ? lock.packages : {}
  for (const key of dir ? [`${dir}/node_modules/${name}`, `node_modules/${name}`] : [`node_modules/${name}`]) {
    const entry = packages[key]
    if (!isTable(entry)) continue
    return typeof entry.version === 'string' && entry.link !== true ? entry.version : null
  }
  return null
}

const tail = (r: RunResult): string =>
  `(${r.timedOut ? 'timed out' : (r.exitCode ?? r.signal)}): ${`${r.stderr}\n${r.stdout}`.trim().split('\n').slice(-8).join(' | ').slice(0, 1500)}`

/** An npm workspace: its root, the package patterns of its `workspaces`, the lockfile and how npm runs. */
export interface NpmWorkspace {
  workspace: string
  patterns: readonly string[]
  lockfile: string
  npm: NpmRunner
}

/** What is outdated across every package of the workspace: versions from `npm view`, the held ones from the lockfile. */
export async function workspaceOutdated({ workspace, patterns, lockfile, npm }: NpmWorkspace): Promise<OutdatedReport> {
  const lock = readJson(workspace, lockfile)
  let failure: string | null = null
  let answered = 0
  const report = await outdatedFromRegistry({
    decls: declarations(workspace, workspaceDirs(workspace, patterns)),
    locked: (dir, name) => npmLocked(lock, dir, name),
    versions: async (name) => {
      const r = await npm(['view', name, 'versions', '--json'])
      const versions = r.exitCode === 0 ? parseVersions(r.stdout) : null
      if (versions === null) failure = tail(r)
      else answered++
      return versions
    }
  })
  if (answered === 0 && failure !== null) throw new Error(`npm could not read any version from the registry ${failure}`)
  return report
}

/**
 * The bump in every package of the workspace that declares the dependency, each range keeping its
 * kind, then one `npm install` at the root, scripts off, which rewrites the one lockfile.
 */
export async function workspaceBump(ws: NpmWorkspace, candidate: UpgradeCandidate): Promise<BumpResult> {
  const { workspace, patterns, lockfile, npm } = ws
  const decls = declarations(workspace, workspaceDirs(workspace, patterns)).get(candidate.name) ?? []
  const files = [...writeBumpedManifests({ workspace, decls, name: candidate.name, to: candidate.to }), lockfile]
  if (decls.length === 0) return { ok: false, message: `no package.json of the workspace declares ${candidate.name}`, files }
  const r = await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund'])
  if (r.exitCode !== 0) return { ok: false, message: `npm install failed ${tail(r)}`, files }
  const lock = readJson(workspace, lockfile)
  const stale = decls.filter((d) => npmLocked(lock, d.dir, candidate.name) !== candidate.to)
  if (stale.length > 0) {
    const where = stale.map((d) => `${d.dir || '.'} at ${npmLocked(lock, d.dir, candidate.name) ?? 'nothing'}`).join(', ')
    return { ok: false, message: `npm left ${candidate.name} in ${lockfile} for ${where}, not ${candidate.to}`, files }
  }
  return { ok: true, files }
}

/**
 * Where npm installed the bumped version for the workspace: the hoisted `node_modules/<name>` when
 * it holds that version, else the first declaring package's own copy (`<dir>/node_modules/<name>`,
 * where npm puts a version that conflicts with the root's).
 */
export function workspaceInstalledCopy(ws: Omit<NpmWorkspace, 'npm'>, candidate: UpgradeCandidate): string {
  const hoisted = `node_modules/${candidate.name}`
  const packages = readJson(ws.workspace, ws.lockfile)?.packages
  const at = (key: string): unknown => (isTable(packages) && isTable(packages[key]) ? packages[key].version : undefined)
  if (at(hoisted) === candidate.to) return hoisted
  const decls = declarations(ws.workspace, workspaceDirs(ws.workspace, ws.patterns)).get(candidate.name) ?? []
  const nested = decls.map((d) => `${d.dir}/${hoisted}`).find((key) => !key.startsWith('/') && at(key) === candidate.to)
  return nested ?? hoisted
}
