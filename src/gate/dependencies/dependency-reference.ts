import { createHash } from 'node:crypto'
import { inRootDependencyFolder } from '../../ecosystems/registry.js'
import { readTreeEntry, removeTreeEntry, writeTreeFile } from '../../fs/tree.js'
import type { GitRepository } from '../../git/repository.js'
import type { Tampering } from '../baseline/compare.js'
import { bumpViolations } from './bump-guard.js'
import { lockfileRefusals, manifestRefusals, type DependencyPolicy } from './dependency-policy.js'
import { manifestDependencies } from './dependency-specs.js'
import { dependencyPathKind, type DependencyPathKind } from './dependency-path-kind.js'
import { manifestKind, restoreManifest, type ManifestKind } from './manifest-keys.js'
import { listTree, readBlobs } from '../baseline/snapshot.js'

/*
 * The gate never loads a dependency folder (see dependency-path-kind.ts) from the candidate: any
 * path in one that the reference does not hold as it is, is tampering. The root's untracked
 * `node_modules`, `.venv` and `venv` are the pristine copies' source, not the tree's.
 */

export { dependencyPathKind, type DependencyPathKind } from './dependency-path-kind.js'

const EMPTY: Record<ManifestKind, string> = { 'package-json': '{}', pyproject: '' }

/** git's blob id of `data`, to compare a file with the reference's object without reading it. */
const blobId = (data: Buffer): string => createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex')

/**
 * The dependencies the gate trusts: the manifests, lockfiles and committed dependency folders of
 * the reference commit (the base as the run starts from it, or loopgate's own bump commit), and
 * what the agent may change of them (see DependencyPolicy).
 */
export class DependencyReference {
  private readonly files: Map<string, Buffer>
  private readonly folders: Map<string, string>
  /** Each path's kind once worked out: the reference's tree and the work tree share most paths. */
  private readonly kinds: Map<string, DependencyPathKind | null>

  /** `files`: each manifest's and lockfile's bytes at the commit; `folders`: each committed dependency folder's tree id. */
  private constructor(
    readonly commit: string,
    readonly policy: DependencyPolicy,
    held: { files: Map<string, Buffer>; folders: Map<string, string>; kinds: Map<string, DependencyPathKind | null> }
  ) {
    this.files = held.files
    this.folders = held.folders
    this.kinds = held.kinds
  }

  static async take(repository: GitRepository, commit: string, policy: (names: string[]) => DependencyPolicy): Promise<DependencyReference> {
    const tree = await listTree(repository, commit)
    const folders = new Map<string, string>()
    const wanted: { path: string; oid: string }[] = []
    const kinds = new Map<string, DependencyPathKind | null>()
    for (const [file, { oid }] of tree) {
      const kind = dependencyPathKind(file)
      kinds.set(file, kind)
      if (kind === 'folder') folders.set(file, oid)
      else if (kind) wanted.push({ path: file, oid })
    }
    const blobs = await readBlobs(repository, [...new Set(wanted.map((w) => w.oid))])
    const files = new Map(wanted.map((w) => [w.path, blobs.get(w.oid) ?? Buffer.alloc(0)]))
    const names = new Set<string>()
    for (const [file, data] of files) {
      const kind = manifestKind(file)
      if (kind) for (const e of manifestDependencies(kind, data.toString('utf8')) ?? []) names.add(e.name)
    }
    return new DependencyReference(commit, policy([...names]), { files, folders, kinds })
  }

  /** Paths the reference holds that `check` always looks at (a deletion is a change). */
  get paths(): string[] {
    return [...this.files.keys(), ...this.folders.keys()]
  }

  /**
   * The refused dependency changes under `root`: `candidates` are paths that may differ from the
   * reference (a status or a tree diff); the reference's own dependency files are always checked.
   */
  check(root: string, candidates: Iterable<string>, opts: { skipRootFolders?: boolean } = {}): Tampering[] {
    const found = new Map<string, string[]>()
    const add = (file: string, change: string): void => void found.set(file, [...(found.get(file) ?? []), change])
    const read = new Map<string, string | null>()
    for (const file of new Set([...this.files.keys(), ...candidates])) {
      const kind = this.kindOf(file)
      if (!kind) continue
      if (kind === 'folder') {
        if (opts.skipRootFolders && inRootDependencyFolder(file) && !this.tracksUnder(file)) continue
        const change = this.folderChange(root, file)
        if (change) add(file, change)
        continue
      }
      const entry = readTreeEntry(root, file)
      const now = entry.kind === 'file' ? entry.data.toString('utf8') : entry.kind === 'missing' ? null : undefined
      const before = this.files.get(file)?.toString('utf8') ?? null
      if (now === undefined) {
        add(file, 'not a regular file: dependency files are compared as files')
        continue
      }
      read.set(file, now)
      const change = { before, after: now }
      const refusals = kind === 'lockfile' ? lockfileRefusals(file, change, this.policy) : manifestRefusals(kind, change, this.policy)
      if (refusals.length) add(file, refusals.slice(0, 5).join('; ') + (refusals.length > 5 ? `; and ${refusals.length - 5} more` : ''))
    }
    const bump = this.policy.bump
    if (bump) for (const v of bumpViolations(bump, { paths: read.keys(), read: (file) => this.readChecked(root, read, file) })) add(v.file, v.change)
    return [...found].map(([path, changes]) => ({ path, change: changes.join('; ') })).sort((a, b) => a.path.localeCompare(b.path))
  }

  private kindOf(file: string): DependencyPathKind | null {
    let kind = this.kinds.get(file)
    if (kind === undefined) {
      kind = dependencyPathKind(file)
      this.kinds.set(file, kind)
    }
    return kind
  }

  /** A dependency file's text as check read it, else from `root` (null: absent or not a file). */
  private readChecked(root: string, read: Map<string, string | null>, file: string): string | null {
    if (read.has(file)) return read.get(file) ?? null
    const entry = readTreeEntry(root, file)
    return entry.kind === 'file' ? entry.data.toString('utf8') : null
  }

  private tracksUnder(file: string): boolean {
    const top = file.slice(0, file.indexOf('/') + 1)
    for (const p of this.folders.keys()) if (p.startsWith(top)) return true
    return false
  }

  private folderChange(root: string, file: string): string | null {
    const oid = this.folders.get(file)
    const entry = readTreeEntry(root, file)
    const where = 'a dependency folder in the tree, which the gate never loads from the candidate'
    if (entry.kind === 'missing') return oid ? `deleted (${where})` : null
    if (entry.kind !== 'file') return `${oid ? 'replaced' : 'added'} (${where})`
    if (oid && blobId(entry.data) === oid) return null
    return `${oid ? 'modified' : 'added'} (${where})`
  }

  /** Puts the reference back for each finding: a lockfile or dependency-folder file as it was, a manifest's dependency keys. */
  async revert(root: string, found: Tampering[], repository: GitRepository): Promise<void> {
    const oids = found.map((t) => this.folders.get(t.path)).filter((o): o is string => Boolean(o))
    const blobs = await readBlobs(repository, [...new Set(oids)])
    for (const t of found) {
      const kind = this.kindOf(t.path)
      const before = this.files.get(t.path) ?? null
      if (kind === 'folder') {
        const oid = this.folders.get(t.path)
        if (oid) writeTreeFile({ root, rel: t.path, data: blobs.get(oid) ?? Buffer.alloc(0) })
        else removeTreeEntry(root, t.path)
      } else if (kind === 'lockfile' || !kind) {
        if (before) writeTreeFile({ root, rel: t.path, data: before })
        else removeTreeEntry(root, t.path)
      } else {
        const entry = readTreeEntry(root, t.path)
        const current = entry.kind === 'file' ? entry.data.toString('utf8') : null
        // The file as the agent left it, with the dependency keys of the reference.
        const restored = current === null ? null : restoreManifest(kind, before?.toString('utf8') ?? EMPTY[kind], current)
        if (restored !== null) writeTreeFile({ root, rel: t.path, data: restored })
        else if (before) writeTreeFile({ root, rel: t.path, data: before })
        else removeTreeEntry(root, t.path)
      }
    }
  }
}

/** One sentence for the agent and the log: what was refused and how to allow registry versions. */
export function describeDependencyRefusal(found: Tampering[]): string {
  return `dependency changes refused and reverted to the reference resolution: ${found
    .slice(0, 10)
    .map((t) => `${t.path} (${t.change})`)
    .join(', ')}${found.length > 10 ? ` and ${found.length - 10} more` : ''}`
}
