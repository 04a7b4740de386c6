import path from 'node:path'
import { readPreRunFiles } from '../../git/pre-run-files.js'
import type { GitRepository } from '../../git/repository.js'
import type { CallGuard, GuardReport } from '../../loop/engine-types.js'
import { describeTampering, findTampering, revertTampering, type Tampering } from '../baseline/compare.js'
import { describeDependencyRefusal, type DependencyReference } from '../dependencies/dependency-reference.js'
import type { BaseSnapshot } from '../baseline/snapshot.js'

interface TamperGuardOptions {
  workspace: string
  /** The workspace's repository, through loopgate's own git directory (its index is loopgate's). */
  repository: GitRepository
  snapshot: BaseSnapshot
  /** The dependencies the gate trusts: refused changes to them are reverted like protected paths. */
  dependencies?: DependencyReference
}

/**
 * After every agent call: any change to a protected path against the base in the working tree —
 * modified, added, deleted, renamed, mode, symlink, special file — is reverted to the base content
 * and reported as tampering (two tampering iterations stop the run). The index and history are
 * loopgate's own (the agent works in a copy of the repository), so the working tree is the whole
 * of what the agent can hand in.
 */
export class TamperGuard implements CallGuard {
  /** The paths the last restore wrote (the agent user gets them back before the next call). */
  restored: string[] = []
  /** The paths `git status` reported changed after the last call, before the restore. */
  lastChanged: string[] | null = null
  /** Work on loopgate's index that must end before the guard uses it (see waitFor). */
  private pending: Promise<void> = Promise.resolve()

  constructor(private readonly opts: TamperGuardOptions) {}

  /** The guard's next look at the work tree waits for `work` (a refresh of loopgate's index). */
  waitFor(work: Promise<void>): void {
    this.pending = work
  }

  /** Resolves once no work the guard waits for is running. */
  idle(): Promise<void> {
    return this.pending
  }

  /**
   * The protected paths' current state vs base. The base's protected paths are always compared
   * byte for byte; other candidates (a protected path the base lacks) are every tracked and
   * untracked path (`full`, once at setup), or, once the index holds the base's protected paths
   * and nothing else protected, the paths `git status` reports changed.
   */
  async check(full = true, listed?: Promise<WorkTreeListing>): Promise<{ found: ReturnType<typeof findTampering>; changed?: string[]; tracked?: string[] }> {
    await this.pending
    if (!full) {
      const changed = await this.opts.repository.statusPorcelain()
      return { found: findTampering(this.opts.workspace, this.opts.snapshot, changed), changed }
    }
    const { tracked, untracked } = await (listed ?? workTreePaths(this.opts.repository))
    return { found: findTampering(this.opts.workspace, this.opts.snapshot, [...tracked, ...untracked]), tracked }
  }

  /** Puts the base content back where it differs; returns what was found. */
  async restore(
    full = true,
    listed?: Promise<WorkTreeListing>
  ): Promise<{ found: ReturnType<typeof findTampering>; dependencies: Tampering[]; changed?: string[] }> {
    const { tracked, ...result } = await this.check(full, listed)
    // Dependencies first, on the tree as the agent left it: a protected file that is also a dependency file (a requirements file the setup reads) is judged for what changed in it.
    // At setup the candidates are the paths git tracks: an untracked lockfile or dependency folder
    // there is the user's (made before the run, in no loopgate commit unless the agent changes it),
    // not a change to judge.
    const dependencies = await this.revertDependencies(full ? (tracked ?? []) : (result.changed ?? []))
    if (result.found.length) revertTampering(this.opts.workspace, this.opts.snapshot, result.found)
    const all = [...result.found, ...dependencies]
    this.restored = [...new Set(all.map((t) => t.path))]
    if (all.length) {
      const specs = this.restored.map((p) => `:(literal)${p}`)
      if (!(await this.opts.repository.tryAddAll(specs))) for (const spec of specs) await this.opts.repository.tryAddAll([spec])
    }
    return { ...result, dependencies }
  }

  /**
   * Refused dependency changes (see DependencyReference), put back to the reference. Files that were
   * untracked before the run are the user's and are never deleted here: if the agent changed one,
   * the commit carries it and the gate refuses that commit's dependency files.
   */
  private async revertDependencies(candidates: string[]): Promise<Tampering[]> {
    const reference = this.opts.dependencies
    if (!reference) return []
    const preRun = (await readPreRunFiles(this.opts.repository))?.files ?? {}
    const judged = candidates.filter((p) => !Object.hasOwn(preRun, p))
    const found = reference.check(this.opts.workspace, judged, { skipRootFolders: true })
    if (found.length) await reference.revert(this.opts.workspace, found, this.opts.repository)
    return found
  }

  async afterCall(): Promise<GuardReport> {
    // Setup's full restore left the index with exactly the base's protected paths. The status it
    // took is handed on: loopgate's commit stages those paths without a second scan.
    const { found, dependencies, changed } = await this.restore(false)
    this.lastChanged = changed ?? null
    if (found.length === 0 && dependencies.length === 0) return { rejected: [], tampered: false, changedPaths: changed }
    const base = this.opts.snapshot.commit.slice(0, 7)
    const rejected: string[] = []
    const notes: string[] = []
    if (found.length) {
      rejected.push(`rejected: protected files changed: ${describeTampering(found)}. They were restored from the base (${base}).`)
      notes.push(`protected paths restored from ${base}: ${found.map((t) => t.path).join(', ')}`.slice(0, 2000))
    }
    if (dependencies.length) {
      rejected.push(`rejected: ${describeDependencyRefusal(dependencies)}.`)
      notes.push(`dependency files reverted to ${this.opts.dependencies?.commit.slice(0, 7)}: ${dependencies.map((t) => t.path).join(', ')}`.slice(0, 2000))
    }
    return { rejected, tampered: true, notes, changedPaths: changed, protectedPaths: found.map((t) => t.path) }
  }
}

/** The work tree's paths: those git tracks, and the untracked ones not ignored. */
interface WorkTreeListing {
  tracked: string[]
  untracked: string[]
}

/**
 * Every tracked and untracked path of the work tree: the full check's candidates. A listing taken
 * earlier may stand in for the check's own while nothing has written the work tree since.
 */
export async function workTreePaths(repository: GitRepository): Promise<WorkTreeListing> {
  const [tracked, untracked] = await Promise.all([repository.lsFiles([]), repository.lsFiles(['--others', '--exclude-standard'])])
  return { tracked, untracked }
}

export function relativeTo(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/')
}
