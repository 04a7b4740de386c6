import type { GitRepository } from '../../git/repository.js'
import type { ManifestKind } from '../dependencies/manifest-keys.js'
import { protectedPart } from '../dependencies/manifest-keys.js'
import { packageScriptPatterns } from '../protection/gate-command-files.js'
import { ProtectedPaths } from '../protection/protected-paths.js'
import { namesTestFamilies, testFamilyPatterns } from '../protection/test-families.js'

export interface SnapshotEntry {
  path: string
  kind: 'file' | ManifestKind
  /** 100644, 100755, 120000 (a symlink in the base itself) */
  mode: string
  oid: string
  data: Buffer
  /** For manifests: the protected projection of the base content. */
  projection?: string
}

/** Reads many blobs through one `git cat-file --batch`. */
export function readBlobs(repository: GitRepository, oids: string[]): Promise<Map<string, Buffer>> {
  return repository.catFileBatch(oids)
}

type TreeListing = Map<string, { mode: string; oid: string }>

/** Listings by commit id, per repository: an object id names one tree for good, and the setup reads the base's several times. */
const listings = new WeakMap<GitRepository, Map<string, Promise<TreeListing>>>()

/** Lists a commit's tree: path → mode and oid (recursive, NUL-separated so any name is safe). Callers share one listing: it is read-only. */
export async function listTree(repository: GitRepository, commit: string): Promise<ReadonlyMap<string, { mode: string; oid: string }>> {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return readTree(repository, commit)
  const known = listings.get(repository) ?? new Map<string, Promise<TreeListing>>()
  listings.set(repository, known)
  let listing = known.get(commit)
  if (!listing) {
    listing = readTree(repository, commit)
    known.set(commit, listing)
    listing.catch(() => known.delete(commit))
  }
  return listing
}

async function readTree(repository: GitRepository, commit: string): Promise<TreeListing> {
  const tree: TreeListing = new Map()
  for (const entry of await repository.lsTree(commit, { recursive: true }))
    if (entry.type === 'blob') tree.set(entry.path, { mode: entry.mode, oid: entry.oid })
  return tree
}

/**
 * Patterns the base's own files name: the files the package.json scripts a gate command runs run,
 * and the test families (`*.test-browser.*`) the runners' configurations name.
 */
async function namedPatterns(
  repository: GitRepository,
  tree: ReadonlyMap<string, { mode: string; oid: string }>,
  gateCommands: readonly (string | undefined)[]
): Promise<string[]> {
  const configs = [...tree].filter(([file, { mode }]) => mode !== '120000' && namesTestFamilies(file)).slice(0, 200)
  if (configs.length === 0) return []
  const blobs = await readBlobs(repository, [...new Set(configs.map(([, { oid }]) => oid))])
  const text = (oid: string): string | null => blobs.get(oid)?.toString('utf8') ?? null
  const out = configs.flatMap(([, { oid }]) => testFamilyPatterns(text(oid)?.slice(0, 256 * 1024) ?? ''))
  const manifest = tree.get('package.json')
  if (manifest && gateCommands.some(Boolean)) out.push(...packageScriptPatterns(gateCommands, text(manifest.oid)))
  return out
}

/** The content of every protected path at the base commit, taken before the first agent call. */
export class BaseSnapshot {
  private constructor(
    readonly commit: string,
    readonly paths: ProtectedPaths,
    readonly entries: Map<string, SnapshotEntry>
  ) {}

  /**
   * `protect.paths`: the protected paths; `protect.gateCommands`: the package.json scripts they run
   * are read from the base, and the files those scripts run are protected too.
   */
  static async take(
    repository: GitRepository,
    commit: string,
    protect: { paths: ProtectedPaths; gateCommands?: readonly (string | undefined)[] }
  ): Promise<BaseSnapshot> {
    const { paths: given, gateCommands = [] } = protect
    const tree = await listTree(repository, commit)
    const extra = await namedPatterns(repository, tree, gateCommands)
    const added = [...new Set(extra)].filter((p) => !given.patterns.includes(p))
    const paths = added.length ? new ProtectedPaths([...given.patterns, ...added]) : given
    const picked: { path: string; kind: 'file' | ManifestKind; mode: string; oid: string }[] = []
    for (const [file, { mode, oid }] of tree) {
      const kind = paths.kind(file)
      if (kind) picked.push({ path: file, kind, mode, oid })
    }
    const blobs = await readBlobs(repository, [...new Set(picked.map((p) => p.oid))])
    const entries = new Map<string, SnapshotEntry>()
    for (const p of picked) {
      const data = blobs.get(p.oid) ?? Buffer.alloc(0)
      entries.set(p.path, {
        ...p,
        data,
        projection: p.kind === 'file' ? undefined : protectedPart(p.kind, data.toString('utf8'))
      })
    }
    return new BaseSnapshot(commit, paths, entries)
  }

  get size(): number {
    return this.entries.size
  }
}
