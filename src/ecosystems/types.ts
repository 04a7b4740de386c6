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
   * read (`node_modules/<name>`, `packages/a/node_modules/<name>`); null when the bump only edits the manifest.
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

/** `files`: the files the bump wrote (every workspace package's manifest it changed), when not just `bumpFiles`. */
export type BumpResult = { ok: true; files?: readonly string[] } | { ok: false; message: string; files?: readonly string[] }

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
  /** Why a workspace that looks like this ecosystem's is another manager's (it is never taken over), if it is. */
  declined?(workspace: string): string | null
  /** A hash of the lockfile (`none` without one): a base whose lockfile changed is new evidence. */
  lockfileHash(workspace: string): string
  outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport>
  bump(job: CandidateInWorkspace): Promise<BumpResult>
  /** Where the bump left an installed copy of the package in `workspace` (null: nowhere). */
  installedCopy(candidate: UpgradeCandidate, workspace: string): string | null
  /** Where the changelog or release notes of the target version live, one line each (may be none). */
  releaseNotes(job: CandidateInWorkspace): Promise<string[]>
}

/** An upgrade candidate in its workspace, with the environment its package manager runs in. */
export interface CandidateInWorkspace {
  workspace: string
  candidate: UpgradeCandidate
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

/** The manifests the gate reads key by key. */
export type ManifestKind = 'package-json' | 'pyproject'

/** A manifest an ecosystem owns, and the dotted keys a bump or the agent may change (`*`: any one key). */
export interface ManifestFacts {
  file: string
  kind: ManifestKind
  allowedKeys: readonly string[]
}

/**
 * What a lockfile resolves, one entry per installed package: its name, a text that changes when
 * anything about the entry changes, and whether it comes from a package registry.
 */
export interface LockEntry {
  /** Where in the lockfile (`node_modules/chai`, a requirement's name). */
  key: string
  name: string
  text: string
  registry: boolean
  /** Why it is not from the registry (for the message). */
  why?: string
  /** The version the entry installs, where it is one package's entry. */
  version?: string
  /**
   * The entry mirrors a manifest (a workspace package's entry, an importer's own fields, a hash of
   * the manifest): the manifest's entries are judged on their own, and no bump holds it.
   */
  mirror?: boolean
}

/** Folders of installed packages: the gate never loads them from the candidate tree. */
interface DependencyFolders {
  /** Untracked folders at the workspace root the gate takes from a pristine copy (`node_modules`, `.venv`). */
  root: readonly string[]
  /** Folder names that hold installed packages at any depth (`node_modules`, `site-packages`). */
  anyDepth: readonly string[]
  /** Committed folders of package archives the package manager installs from, at any depth (`.yarn/cache`). */
  archives: readonly string[]
  /** Folders inside a root folder that tools write while they run: each gate run gets them empty. */
  caches: Readonly<Record<string, readonly string[]>>
}

/** One ecosystem, described in one place (its folder's `index.ts`). */
export interface Ecosystem {
  readonly id: string
  /** The public registries its package manager downloads from by default: the agent may reach them (see `allowed-hosts`). */
  readonly registries: readonly string[]
  /** The files the upgrade manager's detection looks at, and the `packageManager` name it answers to. */
  readonly detection: { manifests: readonly string[]; lockfiles: readonly string[]; packageManager?: string }
  /** Lockfile names, matched at any depth. */
  readonly lockfiles: readonly string[]
  /** Lockfile names by pattern (`requirements-dev.txt`). */
  readonly lockfilePattern?: RegExp
  readonly manifests: readonly ManifestFacts[]
  /** The entries of one of its lockfiles; null for one it does not read entry by entry. */
  lockEntries(file: string, text: string, registryHosts: readonly string[]): LockEntry[] | null
  readonly dependencyFolders: DependencyFolders
  /** Whether a runner variable is this ecosystem's registry configuration (passed to the bump, never to the agent). */
  registryEnv(name: string): boolean
  readonly upgrade: PackageManager
}
