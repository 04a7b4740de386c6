import { createHash } from 'node:crypto'
import semver from 'semver'
import { readAgentText, readTreeEntry } from '../../fs/tree.js'
import { runProcess, type RunResult } from '../../process/run-process.js'
import type { BumpResult, CandidateInWorkspace, DependencyType, OutdatedDependency, OutdatedReport, PackageManager, UpgradeCandidate } from '../types.js'
import { SEMVER } from './semver.js'
import { OTHER_NODE_LOCKFILES } from '../unmanaged.js'
import { bumpedRange, packageJsonWorkspaces } from '../node-project.js'
import { workspaceBump, workspaceInstalledCopy, workspaceOutdated, type NpmWorkspace } from './workspaces.js'

export const MANIFEST = 'package.json'
export const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json'] as const
const SECTIONS: readonly DependencyType[] = ['dependencies', 'devDependencies', 'optionalDependencies']
const MAX_JSON_BYTES = 32 * 1024 * 1024
const NPM_TIMEOUT_MS = 10 * 60_000
/** Changelog files a package commonly ships, looked for in the installed copy. */
const CHANGELOG_FILES = ['CHANGELOG.md', 'CHANGELOG', 'HISTORY.md', 'CHANGES.md', 'RELEASES.md']

type Json = Record<string, unknown>

function readJson(workspace: string, rel: string): Json | null {
  const text = readAgentText(workspace, rel, MAX_JSON_BYTES)
  if (text === null) return null
  try {
    const data = JSON.parse(text) as unknown
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Json) : null
  } catch {
    return null
  }
}

function section(manifest: Json, type: DependencyType): Record<string, string> {
  const value = manifest[type]
  return typeof value === 'object' && value !== null ? (value as Record<string, string>) : {}
}

/** The section and the range the manifest declares a package with (the first section that has it). */
function declared(manifest: Json, name: string): { type: DependencyType; range: string } | null {
  for (const type of SECTIONS) {
    const range = section(manifest, type)[name]
    if (typeof range === 'string') return { type, range }
  }
  return null
}

/** The version the lockfile holds for a top-level package. */
function lockedVersion(lock: Json | null, name: string): string | null {
  const packages = lock?.packages
  if (typeof packages !== 'object' || packages === null) return null
  const entry = (packages as Record<string, unknown>)[`node_modules/${name}`]
  const version = typeof entry === 'object' && entry !== null ? (entry as Json).version : undefined
  return typeof version === 'string' ? version : null
}

/** `git+https://github.com/o/r.git` and `github:o/r` as a browsable https URL. */
export function repositoryUrl(repository: unknown): string | null {
  const raw = typeof repository === 'string' ? repository : typeof repository === 'object' && repository !== null ? (repository as Json).url : undefined
  if (typeof raw !== 'string' || raw.length > 500) return null
  const shorthand = /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(raw)
  if (shorthand) return `https://github.com/${shorthand[1]}/${shorthand[2].replace(/\.git$/, '')}`
  const m = /^(?:git\+)?(?:https?|git|ssh):\/\/(?:[^@/]+@)?([\w.-]+)(?::\d+)?\/(.+?)(?:\.git)?\/?$/.exec(raw) ?? /^git@([\w.-]+):(.+?)(?:\.git)?$/.exec(raw)
  if (!m) return null
  return `https://${m[1]}/${m[2]}`
}

/** Where a package's source and release notes are, from its registry metadata (`repository`, `homepage`). */
export function sourceLines(meta: Json): string[] {
  const lines: string[] = []
  const repo = repositoryUrl(meta.repository)
  if (repo) {
    lines.push(`repository: ${repo}`)
    if (/^https:\/\/(?:github\.com|gitlab\.com)\//.test(repo)) lines.push(`release notes: ${repo}/releases`)
  }
  if (typeof meta.homepage === 'string' && /^https?:\/\/\S+$/.test(meta.homepage) && meta.homepage.length <= 500 && meta.homepage !== repo) {
    lines.push(`homepage: ${meta.homepage}`)
  }
  return lines
}

/** An npm command in a workspace: its arguments and environment. */
interface NpmCall {
  workspace: string
  args: string[]
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

export class NpmPackageManager implements PackageManager {
  readonly name = 'npm'
  readonly bumpFiles = [MANIFEST, ...LOCKFILES]
  readonly versions = SEMVER

  detect(workspace: string): boolean {
    return readTreeEntry(workspace, MANIFEST, MAX_JSON_BYTES).kind === 'file' && this.declined(workspace) === null
  }

  /**
   * Why a package.json is not npm's: its `packageManager` names another manager, or, without an
   * npm lockfile, another manager's lockfile is beside it (npm would add a package-lock.json).
   */
  declined(workspace: string): string | null {
    const declaredManager = readJson(workspace, MANIFEST)?.packageManager
    if (typeof declaredManager === 'string') {
      return /^npm@/.test(declaredManager.trim()) ? null : `package.json declares packageManager ${JSON.stringify(declaredManager.slice(0, 80))}`
    }
    if (LOCKFILES.some((f) => readTreeEntry(workspace, f, MAX_JSON_BYTES).kind === 'file')) return null
    const foreign = OTHER_NODE_LOCKFILES.find((f) => readTreeEntry(workspace, f, MAX_JSON_BYTES).kind !== 'missing')
    if (foreign) return `the project has ${foreign} and no npm lockfile`
    // Yarn Berry's configuration: a Yarn project before its first install.
    return readTreeEntry(workspace, '.yarnrc.yml', MAX_JSON_BYTES).kind !== 'missing' ? 'the project has .yarnrc.yml (Yarn Berry) and no npm lockfile' : null
  }

  lockfileHash(workspace: string): string {
    for (const rel of LOCKFILES) {
      const entry = readTreeEntry(workspace, rel, MAX_JSON_BYTES)
      if (entry.kind === 'file') return `${rel}:${createHash('sha256').update(entry.data).digest('hex').slice(0, 32)}`
    }
    return 'none'
  }

  private npm({ workspace, args, env, signal }: NpmCall): Promise<RunResult> {
    return runProcess({ command: 'npm', args, cwd: workspace, env, timeoutMs: NPM_TIMEOUT_MS, signal, maxOutputChars: MAX_JSON_BYTES })
  }

  /** The npm workspace at `workspace` (package.json with `workspaces`), null for a single package. */
  private npmWorkspace(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): NpmWorkspace | null {
    const patterns = packageJsonWorkspaces(workspace)
    if (patterns.length === 0) return null
    const lockfile = LOCKFILES.find((f) => readTreeEntry(workspace, f, MAX_JSON_BYTES).kind === 'file') ?? LOCKFILES[0]
    return { workspace, patterns, lockfile, npm: (args) => this.npm({ workspace, args, env, signal }) }
  }

  async outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport> {
    const ws = this.npmWorkspace(workspace, env, signal)
    if (ws) return workspaceOutdated(ws)
    // Exit 1 means "something is outdated"; anything else without JSON is a failure.
    const r = await this.npm({ workspace, args: ['outdated', '--json'], env, signal })
    let report: Json
    try {
      report = JSON.parse(r.stdout.trim() || '{}') as Json
    } catch {
      throw new Error(`npm outdated failed (${r.exitCode ?? r.signal}): ${r.stderr.trim().split('\n').slice(-5).join(' | ')}`)
    }
    if (r.exitCode !== 0 && r.exitCode !== 1)
      throw new Error(`npm outdated failed (${r.exitCode ?? r.signal}): ${r.stderr.trim().split('\n').slice(-5).join(' | ')}`)
    if (typeof report.error === 'object' && report.error !== null) throw new Error(`npm outdated failed: ${JSON.stringify(report.error).slice(0, 500)}`)
    const manifest = readJson(workspace, MANIFEST) ?? {}
    const lock = readJson(workspace, LOCKFILES[0]) ?? readJson(workspace, LOCKFILES[1])
    const found: OutdatedDependency[] = []
    for (const [name, value] of Object.entries(report)) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue
      const info = value as Json
      const decl = declared(manifest, name)
      // Only the project's own semver dependencies: git, file, alias and workspace specs are not bumped.
      if (!decl || semver.validRange(decl.range) === null) continue
      const current = typeof info.current === 'string' ? info.current : lockedVersion(lock, name)
      const { wanted, latest } = info
      if (!current || !semver.valid(current) || typeof wanted !== 'string' || typeof latest !== 'string') continue
      if (!semver.valid(wanted) || !semver.valid(latest)) continue
      found.push({ name, current, wanted, latest, type: decl.type })
    }
    return { dependencies: found, notes: [] }
  }

  async bump({ workspace, candidate, env, signal }: CandidateInWorkspace): Promise<BumpResult> {
    const ws = this.npmWorkspace(workspace, env, signal)
    if (ws) return workspaceBump(ws, candidate)
    const manifest = readJson(workspace, MANIFEST) ?? {}
    const range = declared(manifest, candidate.name)?.range ?? ''
    const save = candidate.type === 'devDependencies' ? '--save-dev' : candidate.type === 'optionalDependencies' ? '--save-optional' : '--save-prod'
    // A pinned dependency stays pinned, a range keeps its operator (`~`, `>=`).
    const prefix = bumpedRange(range, candidate.to).slice(0, -candidate.to.length)
    const args = [
      'install',
      `${candidate.name}@${candidate.to}`,
      save,
      prefix ? `--save-prefix=${prefix}` : '--save-exact',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund'
    ]
    const r = await this.npm({ workspace, args, env, signal })
    if (r.exitCode !== 0) {
      const tail = `${r.stderr}\n${r.stdout}`.trim().split('\n').slice(-8).join(' | ').slice(0, 1500)
      return { ok: false, message: `npm install ${candidate.name}@${candidate.to} failed (${r.timedOut ? 'timed out' : (r.exitCode ?? r.signal)}): ${tail}` }
    }
    const after = readJson(workspace, MANIFEST) ?? {}
    const now = declared(after, candidate.name)?.range
    if (!now || semver.validRange(now) === null || !semver.satisfies(candidate.to, now)) {
      return {
        ok: false,
        message: `npm install left ${candidate.name} at ${JSON.stringify(now ?? null)} in package.json, which does not admit ${candidate.to}`
      }
    }
    return { ok: true }
  }

  installedCopy(candidate: UpgradeCandidate, workspace?: string): string {
    const patterns = workspace ? packageJsonWorkspaces(workspace) : []
    if (!workspace || patterns.length === 0) return `node_modules/${candidate.name}`
    const lockfile = LOCKFILES.find((f) => readTreeEntry(workspace, f, MAX_JSON_BYTES).kind === 'file') ?? LOCKFILES[0]
    return workspaceInstalledCopy({ workspace, patterns, lockfile }, candidate)
  }

  async releaseNotes({ workspace, candidate, env, signal }: CandidateInWorkspace): Promise<string[]> {
    const lines: string[] = []
    const r = await this.npm({ workspace, args: ['view', `${candidate.name}@${candidate.to}`, 'repository', 'homepage', '--json'], env, signal })
    let meta: Json = {}
    try {
      const parsed = JSON.parse(r.stdout.trim() || '{}') as unknown
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) meta = parsed as Json
    } catch {
      // No metadata: the installed copy may still ship a changelog.
    }
    lines.push(...sourceLines(meta))
    const copy = this.installedCopy(candidate, workspace)
    for (const file of CHANGELOG_FILES) {
      const rel = `${copy}/${file}`
      if (readTreeEntry(workspace, rel, MAX_JSON_BYTES).kind === 'file') {
        lines.push(`changelog of the installed version: ${rel}`)
        break
      }
    }
    return lines
  }
}
