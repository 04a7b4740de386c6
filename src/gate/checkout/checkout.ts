import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../isolation/agent-user.js'
import { changedPaths, depsSignature, treeChanges, treeFolders, withFolderChanges, type TreeChanges } from './checkout-fs.js'
import { dropEmptyFolders, giveToUser, openRunnerFolders } from './checkout-locks.js'
import { findTampering, revertTampering, type Tampering } from '../baseline/compare.js'
import { removeTreeEntry } from '../../fs/tree.js'
import { createGateRepo } from './first-checkout.js'
import { writeGateGitConfig } from '../toolchain/gate-home.js'
import { CACHE_DIRS, copyPristineDeps, freshCaches, keepInstalled, placeDeps } from './pristine-deps.js'
import { CheckoutCore } from './checkout-core.js'
import type { PreparedCheckout } from './checkout-options.js'
import { dependencyPathKind } from '../dependencies/dependency-reference.js'
import { protectedFilesUnder } from '../dependencies/setup-recheck.js'
import { touchesWorkflows } from '../../git/publishable-tree.js'
import { changesProject } from '../toolchain/setup-installs.js'

export { CACHE_DIRS, DEPENDENCY_DIRS } from './pristine-deps.js'
export type { CheckoutOptions, PreparedCheckout } from './checkout-options.js'

/**
 * The gate's clean checkout: the iteration's commit read from a private git dir (the workspace's
 * objects as alternates, loopgate's own config — no filters, hooks or attributes file of the
 * agent's), the protected paths verified byte-for-byte against the base snapshot, the dependency
 * folders copied from the pristine copy.
 */
export class CleanCheckout extends CheckoutCore {
  /** Before the first agent call: the private git dir and the pristine dependency copies. */
  async init(): Promise<void> {
    await (this.opts.first ? this.opts.first.repo : createGateRepo(this.opts))
    const copied = await copyPristineDeps({ workspace: this.opts.workspace, repository: this.opts.repository, pristine: this.pristine, checkout: this.dir })
    this.deps = copied.deps
    this.redirected.push(...copied.redirected)
  }

  /** Materialises `commit`; with `applySnapshot` (the baseline) protected paths are set to base. */
  async prepare(commit: string, opts: { applySnapshot?: boolean; removeFirst?: string[] } = {}): Promise<PreparedCheckout> {
    const timings: Record<string, number> = {}
    let t = Date.now()
    const lap = (name: string): void => {
      timings[name] = Date.now() - t
      t = Date.now()
    }
    const dir = this.dir
    const home = path.join(this.opts.gateDir, 'home')
    const tmp = path.join(this.opts.gateDir, 'tmp')
    const user = this.opts.user
    // Read-only hardlinked dependencies survive between runs: the gate user cannot write them.
    // Without a separate user the gate could write them: a real copy, kept only while every entry's
    // inode and ctime (which no process can set back) are what they were after the copy.
    // The tree diffs need only the commits: they run while the checkout is written.
    const last = this.lastCommit
    const fromBase = changedPaths(this.repo, this.opts.snapshot.commit, commit)
    const reference = this.opts.dependencies
    // The reference is most often the base itself: the same diff, read once.
    const fromReference = !reference
      ? Promise.resolve([])
      : reference.commit === this.opts.snapshot.commit
        ? fromBase
        : changedPaths(this.repo, reference.commit, commit)
    // Once gate-setup's install is kept (see keepInstalled), a commit on the reference's dependency
    // files gets it read-only, unless the rest of gate-setup installs into it, or the kept install
    // holds the project's own and the commit changes what that install reads.
    const projectChanged = (await fromReference).some(changesProject)
    const wantWritable =
      this.opts.writableDeps &&
      (!this.installed || this.keptForWriting || (this.projectKept && projectChanged) || (await fromReference).some((p) => dependencyPathKind(p) !== null))
    // In the run's layer the read-only links are written as the run's own: only an install that is kept writes the checkout itself.
    const depsInLayer = wantWritable && Boolean(this.opts.layeredDeps && user) && (this.installed || !this.opts.keepsInstall)
    const writable = wantWritable && !depsInLayer
    const keepDeps =
      !writable && !this.placedWritable && this.depsInPlace && (Boolean(user) || this.depsSignature === depsSignature(dir, this.deps, CACHE_DIRS))
    for (const d of [home, tmp]) this.discard(d)
    if (!keepDeps) for (const name of this.deps) this.discard(path.join(dir, name))
    const fromLast = last && user ? treeChanges(this.repo, last, commit) : Promise.resolve(null)
    const wantFresh = this.state.kind === 'none' || !existsSync(dir)
    // A fresh checkout's folders all go to the gate user: they are listed from the tree meanwhile.
    const folders = user && (wantFresh || this.first || !last) ? treeFolders(this.repo, commit) : null
    for (const listing of [fromBase, fromReference, fromLast, folders]) listing?.catch(() => undefined)
    const fresh = await this.checkOut(commit, { wantFresh, lap, changes: fromLast })
    this.lastCommit = commit
    const changes = fresh ? null : await fromLast
    const listed = user && fresh ? await (folders ?? treeFolders(this.repo, commit)) : null
    this.folders = listed ? new Set(listed) : changes && this.folders ? withFolderChanges(this.folders, changes) : null
    const restored = this.restored.splice(0)
    if (!fresh) this.unowned.push(...(changes?.paths ?? []), ...restored)
    if (changes && this.state.kind === 'exact')
      await this.index.fixWrittenModes([...changes.changes.filter((c) => c.mode !== '000000').map((c) => c.path), ...restored])
    this.fromBase = await fromBase
    const referenceChanges = await fromReference
    const mismatches = [...this.verify(this.fromBase, opts.applySnapshot === true), ...(reference?.check(dir, referenceChanges) ?? [])]
    const dependenciesChanged = referenceChanges.some((p) => dependencyPathKind(p) !== null)
    lap('verify')
    // The gate will not run on a checkout that differs from the base: nothing more to prepare.
    if (mismatches.length) return { dir, home, tmp, mismatches, dependenciesChanged, projectChanged, timings }
    for (const rel of opts.removeFirst ?? []) if (removeTreeEntry(dir, rel)) this.touchedByLoopgate([rel])
    for (const d of [home, tmp]) mkdirSync(d, { mode: 0o700 })
    writeGateGitConfig(home)
    // Also what an earlier prepare wrote but never gave over (it stopped on tampered files).
    if (user) await this.giveToUser({ user, own: [home, tmp], paths: listed ?? this.unowned.splice(0), fresh: listed !== null })
    lap('ownership')
    if (!keepDeps) this.placeDeps(user, writable)
    else this.placeMissingDeps(user)
    freshCaches(this.deps, { dir, user, discard: (target) => this.discard(target) })
    lap('dependencies')
    return { dir, home, tmp, mismatches, dependenciesChanged, projectChanged, depsInLayer, timings }
  }

  /**
   * After gate-setup, before the gate command: the protected paths compared with the base again,
   * the files the setup added among the candidates (a dependency's install script that wrote a
   * runner configuration, say).
   */
  recheck(report?: string): Tampering[] {
    const added = protectedFilesUnder(this.dir, (p) => this.opts.snapshot.paths.kind(p) !== null, report)
    return findTampering(this.dir, this.opts.snapshot, [...this.fromBase, ...added])
  }

  /** Materialises `commit` in the checkout; true when it was made afresh. */
  private async checkOut(commit: string, how: { wantFresh: boolean; lap: (name: string) => void; changes: Promise<TreeChanges | null> }): Promise<boolean> {
    const { wantFresh, lap, changes } = how
    const scrubbing = this.scrubbing
    this.scrubbing = null
    await scrubbing
    if (this.first && (await this.adoptFirst(commit, lap))) {
      this.lastWay = 'fresh'
      return true
    }
    const fresh = wantFresh || this.state.kind === 'none'
    // After a background restore: whatever changed since is put back first (or the whole tree is).
    if (!fresh && this.state.kind === 'exact' && this.state.settled) await this.putBack(this.state.settled)
    const moves = !fresh && this.state.kind === 'exact' ? await changes.catch(() => null) : null
    if (moves) {
      lap('clean')
      await this.index.moveTo(commit, moves)
      this.lastWay = 'by path'
      lap('checkout')
      return false
    }
    if (fresh) {
      this.discard(this.dir)
      mkdirSync(this.dir, { mode: 0o755 })
      this.unowned = []
    } else {
      // Whole tree: whatever is not tracked is cleaned (dependency folders left out), and
      // `checkout -f` puts back every tracked file whose stat (ctime included) changed.
      await this.index.clean(this.deps)
    }
    lap('clean')
    await this.index.git.checkout(commit)
    this.checkedOutWhole(fresh)
    this.lastWay = fresh ? 'fresh' : 'whole tree'
    lap('checkout')
    return fresh
  }

  /**
   * After a checkout of the whole tree: a fresh one's folders show what a run changes when the gate
   * user is its own; a `checkout -f` over an old tree may rewrite files they would not show.
   */
  private checkedOutWhole(fresh: boolean): void {
    this.index.pastTheFiles()
    this.touched.length = 0
    this.state = fresh && this.opts.ownUser ? { kind: 'exact', settled: null } : { kind: 'untrusted' }
  }

  /**
   * Takes over the first checkout begun early: nothing has run in it, so it needs no clean; a
   * later start commit (the protected paths committed at setup) is checked out on top. False when
   * the early checkout failed: the checkout is then made afresh.
   */
  private async adoptFirst(commit: string, lap: (name: string) => void): Promise<boolean> {
    const first = this.first
    this.first = null
    if (!first || !(await first.done)) return false
    lap('clean')
    if (first.commit !== commit) await this.index.git.checkout(commit)
    this.checkedOutWhole(true)
    lap('checkout')
    return true
  }

  /** Protected paths that differ from the base; with `apply` (the baseline) they are set to the base first. */
  private verify(candidates: string[], apply: boolean): Tampering[] {
    // Any protected path the commit holds that the base does not is in the diff from the base
    // (`candidates`); the base's own protected paths are always checked.
    // No loopgate commit changes a workflow (see publishable-tree.ts): one that differs from the
    // base is the start commit's, put back to the base here like the baseline's protected paths.
    const found = findTampering(this.dir, this.opts.snapshot, candidates)
    const revert = apply ? found : found.filter((m) => touchesWorkflows(m.path))
    if (revert.length === 0) return found
    revertTampering(this.dir, this.opts.snapshot, revert)
    this.touchedByLoopgate(revert.map((m) => m.path))
    return findTampering(this.dir, this.opts.snapshot, candidates)
  }

  /**
   * The checkout's folders, home and temp go to the gate user; protected files are locked against
   * it. `paths`: what changed since the last checkout (directories the gate user already had keep
   * it; only those on the way to a changed path can be new), or every folder of a fresh checkout.
   */
  private async giveToUser(to: { user: AgentUser; own: string[]; paths: string[]; fresh: boolean }): Promise<void> {
    const locked = giveToUser(this.dir, { ...to, deps: this.deps, report: this.opts.report }, this.opts.snapshot)
    this.lockedDirs = locked.dirs
    // The index takes in the new ctimes (nothing untrusted ran since the checkout), so the next
    // incremental checkout rewrites only what really changed.
    if (locked.changed) {
      await this.index.git.refreshIndex()
      this.index.pastTheFiles()
    }
  }

  private placeDeps(user: AgentUser | undefined, writable: boolean): void {
    placeDeps(this.deps, { pristine: this.pristine, dir: this.dir, user, writable })
    this.depsInPlace = true
    this.placedWritable = writable
    if (!user) this.depsSignature = depsSignature(this.dir, this.deps, CACHE_DIRS)
  }

  /** Before gate-setup (or the command): see openRunnerFolders in checkout-locks.ts; returns the folders made for the setup. */
  openFolders(setupFolders: string[]): string[] {
    const user = this.opts.user
    return user ? openRunnerFolders(this.dir, { lockedDirs: this.lockedDirs, user, report: this.opts.report, setupFolders }) : []
  }

  /** The `node_modules` of each workspace package (a tracked folder with a package.json), where a setup's install links its packages. */
  packageFolders(): string[] {
    const folders = this.folders ? [...this.folders] : []
    return folders.filter((f) => !f.split('/').includes('node_modules') && existsSync(path.join(this.dir, f, 'package.json'))).map((f) => `${f}/node_modules`)
  }

  /** A workspace package's folder put back whole took the copies placed in it: they are placed again. */
  private placeMissingDeps(user: AgentUser | undefined): void {
    const missing = this.deps.filter((name) => !existsSync(path.join(this.dir, name)))
    placeDeps(missing, { pristine: this.pristine, dir: this.dir, user, writable: false })
  }

  /** What an install that could not be kept left in the checkout's dependency folders, removed (see runSetup). */
  dropInstall(folders: readonly string[]): void {
    const touched = folders.filter((rel) => removeTreeEntry(this.dir, rel))
    if (touched.length) this.touchedByLoopgate(touched)
  }

  /** Whether gate-setup's install is kept as the pristine dependency copies. */
  installed = false
  private placedWritable = false

  private keptForWriting = false
  /** The kept install holds the project's own editable install (see setup-step.ts). */
  projectKept = false

  /** Whether a gate run on the reference's dependency files gets the kept install read-only (see placeKeptReadOnly). */
  get keptReadOnly(): boolean {
    return this.installed && !this.keptForWriting && Boolean(this.opts.user)
  }

  /**
   * After gate-setup's install on the reference's dependency files: see keepInstalled in
   * pristine-deps.ts. `forWriting`: the rest of gate-setup installs into them, so each later gate
   * run gets a writable copy instead of the read-only links.
   */
  keepInstalled(names: readonly string[], forWriting = false, project = false): string[] {
    const kept = keepInstalled({ checkout: this.dir, pristine: this.pristine }, names)
    this.deps = [...new Set([...this.deps, ...kept])]
    this.installed = true
    this.keptForWriting = forWriting
    this.projectKept = project
    return kept
  }

  /**
   * The folders just kept, in this checkout as every later gate run gets them: read-only links
   * to the kept install (with the gate's own user; without one, each run gets a writable copy).
   * What the rest of gate-setup then does on the baseline is what it will do on every candidate.
   * False when they stay as the install left them.
   */
  placeKeptReadOnly(names: readonly string[]): boolean {
    const user = this.opts.user
    if (!user || names.length === 0) return false
    for (const name of names) this.discard(path.join(this.dir, name))
    placeDeps([...names], { pristine: this.pristine, dir: this.dir, user, writable: false })
    freshCaches([...names], { dir: this.dir, user, discard: (target) => this.discard(target) })
    // The other folders stay the writable copies the baseline was given: the next prepare places them all again.
    return true
  }

  /** After gate-setup: see dropEmptyFolders in checkout-locks.ts. */
  dropEmpty(made: string[]): void {
    dropEmptyFolders(this.dir, made)
  }
}
