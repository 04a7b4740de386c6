import { createHash } from 'node:crypto'
import { readTreeEntry } from '../fs/tree.js'
import { sourceLines } from './npm/manager.js'
import { SEMVER } from './npm/semver.js'
import type { BumpResult, CandidateInWorkspace, OutdatedReport, PackageManager, UpgradeCandidate } from './types.js'
import {
  declarations,
  MANIFEST,
  MAX_JSON_BYTES,
  outdatedFromRegistry,
  parseVersions,
  readJson,
  workspaceDirs,
  writeBumpedManifests,
  type Json
} from './node-project.js'
import { declaredManager, failureTail, resolveTool, runTool, type Tool } from './package-manager-tool.js'

const CHANGELOG_FILES = ['CHANGELOG.md', 'CHANGELOG', 'HISTORY.md', 'CHANGES.md', 'RELEASES.md']

/**
 * A JavaScript package manager with its own lockfile beside package.json (pnpm, Yarn classic and Berry):
 * versions from the registry through the manager itself, the bump written into every workspace
 * package that declares the dependency, the lockfile rewritten by the project's own manager with
 * lifecycle scripts off.
 */
export abstract class NodeLockManager implements PackageManager {
  abstract readonly name: 'pnpm' | 'yarn'
  abstract readonly lockfile: string
  readonly versions = SEMVER

  get bumpFiles(): readonly string[] {
    return [MANIFEST, this.lockfile]
  }

  /** The workspace package patterns (none: the root package alone). */
  protected abstract workspacePatterns(workspace: string): string[]
  /** The version the lockfile holds for `name` in the package at `dir`, as the workspace is now. */
  protected abstract lockedReader(workspace: string): (dir: string, name: string) => string | null
  /** The install that rewrites the lockfile, scripts off. */
  protected abstract installArgs(): string[]
  protected abstract versionsArgs(name: string): string[]
  /** The registry metadata of one version, as JSON with `repository` and `homepage`. */
  protected abstract metadataArgs(name: string, version: string): string[]
  protected abstract parseMetadata(stdout: string): Json
  /** How a `versionsArgs` answer is read into the versions that count (null: the name is unknown). */
  protected async versionsReader(
    _tool: Tool,
    _job: { workspace: string; env: NodeJS.ProcessEnv; signal?: AbortSignal }
  ): Promise<(stdout: string) => string[] | null> {
    return parseVersions
  }
  /** Why a project that looks like this manager's is one it does not handle (Yarn Berry). */
  protected abstract unsupported(workspace: string, manifest: Json): string | null
  abstract installedCopy(candidate: UpgradeCandidate): string | null

  detect(workspace: string): boolean {
    const manifest = readJson(workspace, MANIFEST)
    if (!manifest || this.declined(workspace) !== null) return false
    return this.hasLockfile(workspace) || declaredManager(manifest.packageManager)?.name === this.name
  }

  declined(workspace: string): string | null {
    const manifest = readJson(workspace, MANIFEST)
    if (!manifest) return null
    const declared = declaredManager(manifest.packageManager)
    if (declared && declared.name !== this.name) return null
    if (!declared && !this.hasLockfile(workspace)) return null
    return this.unsupported(workspace, manifest)
  }

  private hasLockfile(workspace: string): boolean {
    return readTreeEntry(workspace, this.lockfile, MAX_JSON_BYTES).kind === 'file'
  }

  lockfileHash(workspace: string): string {
    const entry = readTreeEntry(workspace, this.lockfile, MAX_JSON_BYTES)
    return entry.kind === 'file' ? `${this.lockfile}:${createHash('sha256').update(entry.data).digest('hex').slice(0, 32)}` : 'none'
  }

  /** The project's own manager at the version it declares; a config error when it cannot be had. */
  protected tool(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<Tool> {
    const declared = declaredManager(readJson(workspace, MANIFEST)?.packageManager)
    const version = declared?.name === this.name ? declared.version : null
    // One resolution per run: outdated, bump and release notes ask for the same tool.
    const key = JSON.stringify([workspace, version, env.PATH, env.COREPACK_HOME, env.HOME])
    const cached = this.resolved.get(key)
    if (cached) return cached
    const tool = resolveTool({ name: this.name, declared: version, env, signal })
    this.resolved.set(key, tool)
    tool.catch(() => this.resolved.delete(key))
    return tool
  }

  private readonly resolved = new Map<string, Promise<Tool>>()

  private dirs(workspace: string): string[] {
    return workspaceDirs(workspace, this.workspacePatterns(workspace))
  }

  async outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport> {
    const tool = await this.tool(workspace, env, signal)
    const decls = declarations(workspace, this.dirs(workspace))
    const read = await this.versionsReader(tool, { workspace, env, signal })
    let failure: string | null = null
    let answered = 0
    const report = await outdatedFromRegistry({
      decls,
      locked: this.lockedReader(workspace),
      versions: async (name) => {
        const r = await runTool({ tool, cwd: workspace, args: this.versionsArgs(name), env, signal })
        const versions = r.exitCode === 0 ? read(r.stdout) : null
        if (versions === null) failure = failureTail(r)
        else answered++
        return versions
      }
    })
    if (answered === 0 && failure !== null) throw new Error(`${this.name} could not read any version from the registry ${failure}`)
    return report
  }

  async bump({ workspace, candidate, env, signal }: CandidateInWorkspace): Promise<BumpResult> {
    const tool = await this.tool(workspace, env, signal)
    const decls = declarations(workspace, this.dirs(workspace)).get(candidate.name) ?? []
    const files = [...writeBumpedManifests({ workspace, decls, name: candidate.name, to: candidate.to }), this.lockfile]
    if (decls.length === 0) return { ok: false, message: `no package.json declares ${candidate.name}`, files }
    const r = await runTool({ tool, cwd: workspace, args: this.installArgs(), env, signal })
    if (r.exitCode !== 0) return { ok: false, message: `${this.name} ${this.installArgs().join(' ')} failed ${failureTail(r)}`, files }
    const locked = this.lockedReader(workspace)
    const stale = decls.filter((d) => locked(d.dir, candidate.name) !== candidate.to)
    if (stale.length > 0) {
      const where = stale.map((d) => `${d.dir || '.'} at ${locked(d.dir, candidate.name) ?? 'nothing'}`).join(', ')
      return { ok: false, message: `${this.name} left ${candidate.name} in ${this.lockfile} for ${where}, not ${candidate.to}`, files }
    }
    return { ok: true, files }
  }

  async releaseNotes({ workspace, candidate, env, signal }: CandidateInWorkspace): Promise<string[]> {
    const tool = await this.tool(workspace, env, signal)
    const r = await runTool({ tool, cwd: workspace, args: this.metadataArgs(candidate.name, candidate.to), env, signal })
    const meta = r.exitCode === 0 ? this.parseMetadata(r.stdout) : {}
    const lines = sourceLines(meta)
    const copy = this.installedCopy(candidate)
    const changelog = copy === null ? undefined : CHANGELOG_FILES.find((f) => readTreeEntry(workspace, `${copy}/${f}`, MAX_JSON_BYTES).kind === 'file')
    if (copy !== null && changelog) lines.push(`changelog of the installed version: ${copy}/${changelog}`)
    return lines
  }
}
