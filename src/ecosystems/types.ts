/** The dependency sections a bump keeps a package in. */
export type DependencyType = 'dependencies' | 'devDependencies' | 'optionalDependencies'

export type BumpKind = 'major' | 'minor' | 'patch'

/** One dependency the package manager reports as outdated. */
export interface OutdatedDependency {
  name: string
  /** The version the lockfile (or the installed tree) holds. */
  current: string
  /** The newest version the manifest's range admits. */
  wanted: string
  /** The newest version published. */
  latest: string
  type: DependencyType
}

/** One upgrade loopgate may make: a package from one version to another. */
export interface UpgradeCandidate {
  name: string
  from: string
  to: string
  kind: BumpKind
  type: DependencyType
  /**
   * Where the bump leaves an installed copy of the new version in the workspace, for the agent to
   * read (`node_modules/<name>`); null when the bump only edits the manifest.
   */
  installedCopy?: string | null
}

/** What `outdated` found, and why some declared dependencies were left out (for the run's notes). */
export interface OutdatedReport {
  dependencies: OutdatedDependency[]
  notes: string[]
}

/** How an ecosystem orders its versions; `ignore` ranges are semver ranges in every ecosystem. */
export interface VersionScheme {
  valid(version: string): boolean
  /** Negative, zero or positive, as `a` is older than, equal to or newer than `b`. */
  compare(a: string, b: string): number
  kind(from: string, to: string): BumpKind
  /** Whether `version` is a pre-release: one is a candidate only for a dependency that is at one. */
  prerelease(version: string): boolean
  /** Whether `version` is in the semver `range` of an `ignore` entry. */
  satisfies(version: string, range: string): boolean
}

export type BumpResult = { ok: true } | { ok: false; message: string }

/**
 * What loopgate needs from an ecosystem's own tool (npm, pip): what is outdated, how its versions
 * order, the mechanical bump of manifest and lockfile, and where the new version's release notes live. Every command
 * runs before the agent does, so it reads only the user's files.
 */
export interface PackageManager {
  readonly name: string
  /** The files a bump changes, relative to the workspace (the manifest and the lockfile). */
  readonly bumpFiles: readonly string[]
  readonly versions: VersionScheme
  /** Whether the workspace is a project of this ecosystem. */
  detect(workspace: string): boolean
  /** A hash of the lockfile (`none` without one): a base whose lockfile changed is new evidence. */
  lockfileHash(workspace: string): string
  outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport>
  bump(workspace: string, candidate: UpgradeCandidate, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<BumpResult>
  /** Where the bump leaves an installed copy of the package in the workspace (null: nowhere). */
  installedCopy(candidate: UpgradeCandidate): string | null
  /** Where the changelog or release notes of the target version live, one line each (may be none). */
  releaseNotes(workspace: string, candidate: UpgradeCandidate, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string[]>
}
