import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { git } from '../git/git.js'
import type { AgentUser } from '../isolation/agent-user.js'
import { changedPaths, chownFolders, chownParents, cp, depsSignature, treeChanges, treeFolders, withFolderChanges, type TreeChanges } from './checkout-fs.js'
import { fixModes, restoreDirt } from './checkout-restore.js'
import { findDirt, recordFolders, type FolderRecord } from './folder-record.js'
import { findTampering, revertTampering, type Tampering } from './compare.js'
import { readTreeEntry, removeTreeEntry } from '../fs/tree.js'
import type { BaseSnapshot } from './snapshot.js'
import {
  CHECKOUT_ARGS,
  checkOutInGate,
  checkoutDirOf,
  createGateRepo,
  gateIndexOf,
  gateRepoOf,
  readGateObjects,
  removeInBackground,
  type FirstCheckout
} from './first-checkout.js'
import { isVirtualenv, redirectWorkspacePaths } from './workspace-paths.js'
import { dependencyPathKind, type DependencyReference } from './dependency-reference.js'
import { protectedFilesUnder } from './setup-recheck.js'
import { runnerFoldersToMake } from './runner-folders.js'

/** Untracked dependency folders taken from a pristine copy, never from the agent's workspace. */
export const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv']

/**
 * Folders inside a dependency folder that tools write while they run (vite bundles its config
 * into `.vite-temp`, vitest keeps results in `.vite`, babel and others use `.cache`). The pristine
 * copy leaves them out; each gate run gets them empty and writable, so nothing written in one run
 * — or by the agent — reaches the next.
 */
export const CACHE_DIRS: Record<string, string[]> = { node_modules: ['.cache', '.vite', '.vite-temp'] }

export interface CheckoutOptions {
  workspace: string
  snapshot: BaseSnapshot
  /** Root-only directory: the private git dir and the pristine dependency copies. */
  privateDir: string
  /** Where the clean checkout is made (reachable by the gate user). */
  gateDir: string
  /** The gate runs as this user; the checkout is locked against it. */
  user?: AgentUser
  /**
   * `user` runs nothing but the gate and no other user can reach the checkout: once its processes
   * are gone, nothing changes the checkout until the next gate run. What a run changed is then
   * found from the folders (see folder-record.ts); otherwise the whole tree is cleaned and checked
   * out before every run.
   */
  ownUser?: boolean
  /** Whether gate-setup will rewrite the dependency folders (then they get a writable copy). */
  writableDeps: boolean
  /** A first checkout begun before the rest of the setup (see first-checkout.ts), adopted by the first prepare. */
  first?: FirstCheckout
  /** The dependencies the gate trusts: a commit that changes them beyond the policy is refused. */
  dependencies?: DependencyReference
}

export interface PreparedCheckout {
  dir: string
  home: string
  tmp: string
  /** Protected paths that differ from the base in the checkout (empty when verified). */
  mismatches: Tampering[]
  /** The commit changes dependency files from the reference (as `dependency-changes: registry` allows). */
  dependenciesChanged: boolean
  timings: Record<string, number>
}

/**
 * The gate's clean checkout: the iteration's commit read from a private git dir (the workspace's
 * objects as alternates, loopgate's own config — no filters, hooks or attributes file of the
 * agent's), the protected paths verified byte-for-byte against the base snapshot, the dependency
 * folders copied from the pristine copy.
 */
export class CleanCheckout {
  readonly repo: string
  readonly pristine: string
  /** Where the commit under test is checked out. */
  readonly dir: string
  readonly deps: string[] = []
  /** Entries of the dependency copies that named the workspace and now name the checkout. */
  readonly redirected: string[] = []
  private checkedOut = false
  /** The commit the checkout holds, for the incremental steps of the next one. */
  private lastCommit: string | null = null
  private depsInPlace = false
  private depsSignature: string | null = null
  private trashCount = 0
  private readonly trash: string[] = []
  /** What the last gate run added, being cleaned while the next agent call works (see scrub). */
  private scrubbing: Promise<void> | null = null

  /** The first checkout begun early, until the first prepare adopts it. */
  private first: FirstCheckout | null
  /** The tracked folders of the commit the checkout holds (what the record before a gate run covers). */
  private folders: Set<string> | null = null
  /** The folders as they were right before gate code last ran. */
  private record: FolderRecord | null = null
  /**
   * The folders as the background restore left them: the next prepare checks them again, so what a
   * process of the gate user changed after the restore (a job it scheduled, say) is put back too.
   */
  private settled: FolderRecord | null = null
  /** The last objects read for a restore, by their specs (see readObjects). */
  private lastObjects: { specs: string; data: Promise<Buffer> } | null = null
  /**
   * The checkout holds exactly the commit its index records, and nothing untracked besides the
   * dependency copies: the next commit is checked out path by path.
   */
  private exact = false
  /**
   * Whether the checkout's folders can be trusted to show what changed. A whole-tree `checkout -f`
   * may rewrite files the run's folders would not show, so it ends this until a fresh checkout.
   */
  private foldersTrusted = false
  /** Paths loopgate changed in the checkout after it was checked out (their folders are looked into after the run). */
  private readonly touched: string[] = []
  /** Paths the last scrub checked out again (their modes are seen to by the next prepare). */
  private restored: string[] = []
  /** How the last prepare brought the checkout to its commit (for the log and the tests). */
  lastWay: 'fresh' | 'by path' | 'whole tree' = 'fresh'
  /** Paths written since the folders on their way were last given to the gate user. */
  private unowned: string[] = []
  /** The folders lock() made root's: closed to new entries before the gate command (see closeFolders). */
  private lockedDirs: string[] = []
  /** The paths the commit checked out last differs in from the base (the candidates of recheck). */
  private fromBase: string[] = []

  constructor(private readonly opts: CheckoutOptions) {
    this.repo = gateRepoOf(opts)
    this.dir = checkoutDirOf(opts)
    this.pristine = path.join(opts.privateDir, 'deps')
    this.first = opts.first ?? null
  }

  /** Before the first agent call: the private git dir and the pristine dependency copies. */
  async init(): Promise<void> {
    await (this.opts.first ? this.opts.first.repo : createGateRepo(this.opts))
    mkdirSync(this.pristine, { recursive: true, mode: 0o700 })
    for (const name of DEPENDENCY_DIRS) {
      const src = path.join(this.opts.workspace, name)
      let st
      try {
        st = lstatSync(src)
      } catch {
        continue
      }
      if (!st.isDirectory()) continue
      const tracked = await git(['ls-files', '-z', '--', `:(literal)${name}`], { cwd: this.opts.workspace })
      if (tracked.stdout) continue
      const dest = path.join(this.pristine, name)
      rmSync(dest, { recursive: true, force: true })
      // Owned by root (no ownership preserved), nothing group/other-writable: the gate user can read
      // the hardlinked files but never write through them.
      cp(['-R', '--no-dereference', '--preserve=mode,timestamps,links', '--reflink=auto', src, dest])
      execFileSync('chmod', ['-R', 'go-w', dest])
      for (const cache of CACHE_DIRS[name] ?? []) rmSync(path.join(dest, cache), { recursive: true, force: true })
      this.redirected.push(...redirectWorkspacePaths({ copy: dest, name, workspace: this.opts.workspace, checkout: this.dir, virtualenv: isVirtualenv(dest) }))
      this.deps.push(name)
    }
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
    const keepDeps = !this.opts.writableDeps && this.depsInPlace && (Boolean(user) || this.depsSignature === depsSignature(dir, this.deps, CACHE_DIRS))
    for (const d of [home, tmp]) this.discard(d)
    if (!keepDeps) for (const name of this.deps) this.discard(path.join(dir, name))
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
    const fromLast = last && user ? treeChanges(this.repo, last, commit) : Promise.resolve(null)
    const wantFresh = !this.checkedOut || !existsSync(dir)
    // A fresh checkout's folders all go to the gate user: they are listed from the tree meanwhile.
    const folders = user && (wantFresh || this.first || !last) ? treeFolders(this.repo, commit) : null
    for (const listing of [fromBase, fromReference, fromLast, folders]) listing?.catch(() => undefined)
    const fresh = await this.checkOut(commit, wantFresh, lap, fromLast)
    this.lastCommit = commit
    const changes = fresh ? null : await fromLast
    const listed = user && fresh ? await (folders ?? treeFolders(this.repo, commit)) : null
    this.folders = listed ? new Set(listed) : changes && this.folders ? withFolderChanges(this.folders, changes) : null
    const restored = this.restored.splice(0)
    if (!fresh) this.unowned.push(...(changes?.paths ?? []), ...restored)
    if (changes && this.exact) await this.fixWrittenModes([...changes.changes.filter((c) => c.mode !== '000000').map((c) => c.path), ...restored])
    this.fromBase = await fromBase
    const referenceChanges = await fromReference
    const mismatches = [...this.verify(this.fromBase, opts.applySnapshot === true), ...(reference?.check(dir, referenceChanges) ?? [])]
    const dependenciesChanged = referenceChanges.some((p) => dependencyPathKind(p) !== null)
    lap('verify')
    // The gate will not run on a checkout that differs from the base: nothing more to prepare.
    if (mismatches.length) return { dir, home, tmp, mismatches, dependenciesChanged, timings }
    for (const rel of opts.removeFirst ?? []) if (removeTreeEntry(dir, rel)) this.touchedByLoopgate([rel])
    for (const d of [home, tmp]) mkdirSync(d, { mode: 0o700 })
    // Also what an earlier prepare wrote but never gave over (it stopped on tampered files).
    if (user) await this.giveToUser(user, [home, tmp], listed ?? this.unowned.splice(0), listed !== null)
    lap('ownership')
    if (!keepDeps) this.placeDeps(user)
    this.freshCaches(dir, user)
    lap('dependencies')
    return { dir, home, tmp, mismatches, dependenciesChanged, timings }
  }

  private inCheckout(args: string[], okCodes?: number[], paths?: string[]) {
    return checkOutInGate(this.opts, args, { okCodes, paths })
  }

  /**
   * git reads an entry whose mtime is not older than the index file's as racily clean and compares
   * its content on every read: within the second of a fresh checkout that is every file, so each
   * index write in that second made the next checkout read the whole tree again. With a separate
   * gate user the tracked files are root's, read-only to it: only loopgate writes them in place,
   * and a replaced file has a new inode, which the stat check sees. No same-second rewrite can hide
   * behind an unchanged mtime, so the index's time is set past the files'.
   */
  private indexPastTheFiles(): void {
    if (!this.opts.user) return
    const past = Math.floor(Date.now() / 1000) + 1
    const index = gateIndexOf(this.opts)
    if (statSync(index).mtimeMs / 1000 < past) utimesSync(index, past, past)
  }

  /** loopgate changed `paths` after the checkout: they no longer match the index until they are put back. */
  private touchedByLoopgate(paths: string[]): void {
    this.touched.push(...paths)
    this.exact = false
  }

  /** See fixModes: the index takes in the new stat of the files whose mode was set. */
  private async fixWrittenModes(paths: string[]): Promise<void> {
    const fixed = fixModes(this.dir, paths)
    if (fixed.length) {
      await this.inCheckout(['-c', 'core.bare=false', 'update-index', '-q', '-z', '--stdin'], undefined, fixed)
      this.indexPastTheFiles()
    }
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

  /** Code under test is about to run in the checkout: its folders are recorded first. */
  markRun(): void {
    this.exact = false
    this.record = null
    this.settled = null
    if (!this.foldersTrusted || !this.folders) return
    try {
      this.record = recordFolders(this.dir, this.folders, this.fence())
    } catch {
      this.record = null
    }
  }

  /**
   * After a gate run whose own user has no process left: what it changed is put back now, in the
   * background, while the next agent call works; the next checkout waits for it and checks the
   * folders again. When the gate's user is not its own, nothing is known to have stopped writing,
   * so the next checkout cleans and checks out the whole tree.
   */
  scrub(): void {
    if (!this.opts.ownUser || !this.checkedOut || this.scrubbing) {
      this.emptyTrash()
      return
    }
    // Begun once the verdict is handed on, so the next call's spawn does not wait for the clean.
    this.scrubbing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        this.emptyTrash()
        return this.restore()
      })
      .catch(() => {
        this.checkedOut = false
      })
  }

  /**
   * Only the folders the run changed are looked into (see folder-record.ts); without a record, or
   * on anything unexpected, the whole tree is cleaned and the next checkout is a whole-tree one.
   */
  private async restore(): Promise<void> {
    const record = this.record
    const touched = this.touched.splice(0)
    this.record = null
    if (record && (await this.putBack(record, { touched, recordAgain: true }))) return
    await this.clean()
  }

  /**
   * Puts back what changed in the folders since `record` (and in those of `touched`); with
   * `recordAgain`, records them as left (see settled). False when that could not be done: the
   * caller falls back to the whole tree.
   */
  private async putBack(record: FolderRecord, opts: { touched?: string[]; recordAgain?: boolean } = {}): Promise<boolean> {
    const commit = this.lastCommit
    this.settled = null
    this.exact = false
    if (!commit || !this.folders) return false
    try {
      const dirt = findDirt(this.dir, record, opts.touched)
      if (dirt.entries.length || dirt.whole.length) {
        const context = {
          dir: this.dir,
          commit,
          keepAtRoot: this.deps,
          git: (args: string[], paths?: string[]) => this.inCheckout(args, undefined, paths),
          objects: (specs: string[]) => this.readObjects(specs),
          discard: (target: string) => this.discard(target)
        }
        this.restored.push(...(await restoreDirt(context, dirt)))
        this.indexPastTheFiles()
      }
      if (opts.recordAgain) this.settled = recordFolders(this.dir, this.folders, this.fence())
      this.exact = true
      return true
    } catch {
      return false
    }
  }

  /**
   * `<commit>:<folder>` names one tree for good when the commit is an object id: the scrub and the
   * next checkout's look at the same folders (the root, made dirty by the runner folders) read it once.
   */
  private readObjects(specs: string[]): Promise<Buffer> {
    const key = specs.join('\n')
    if (this.lastObjects?.specs === key) return this.lastObjects.data
    const data = readGateObjects(this.opts, specs)
    if (!specs.every((s) => /^[0-9a-f]{40,64}:/.test(s))) return data
    this.lastObjects = { specs: key, data }
    // An answer that names a missing object (or failed) is asked again next time.
    const forget = (): void => {
      if (this.lastObjects?.data === data) this.lastObjects = null
    }
    data.then((out) => (out.includes(' missing\n') ? forget() : undefined), forget)
    return data
  }

  private fence(): string {
    return path.join(this.opts.gateDir, 'fence')
  }

  /** Resolves once no background clean is running. */
  async idle(): Promise<void> {
    this.emptyTrash()
    await this.scrubbing
  }

  /** Removes whatever is not tracked, dependency folders left out. */
  private async clean(): Promise<void> {
    await this.inCheckout(['clean', '-ffdxq', '--', '.', ...this.deps.map((d) => `:(exclude,literal)${d}`)])
  }

  /** Materialises `commit` in the checkout; true when it was made afresh. */
  private async checkOut(commit: string, wantFresh: boolean, lap: (name: string) => void, changes: Promise<TreeChanges | null>): Promise<boolean> {
    const scrubbing = this.scrubbing
    this.scrubbing = null
    await scrubbing
    if (this.first && (await this.adoptFirst(commit, lap))) {
      this.lastWay = 'fresh'
      return true
    }
    const fresh = wantFresh || !this.checkedOut
    // After a background restore: whatever changed since is put back first.
    const settled = this.settled
    if (!fresh && this.exact && settled && !(await this.putBack(settled))) this.foldersTrusted = false
    this.settled = null
    const moves = !fresh && this.exact ? await changes.catch(() => null) : null
    if (moves) {
      lap('clean')
      await this.moveTo(commit, moves)
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
      await this.clean()
      this.foldersTrusted = false
    }
    lap('clean')
    await this.inCheckout([...CHECKOUT_ARGS, commit])
    this.indexPastTheFiles()
    this.touched.length = 0
    this.checkedOut = true
    if (fresh) this.foldersTrusted = Boolean(this.opts.ownUser)
    this.exact = this.foldersTrusted
    this.lastWay = fresh ? 'fresh' : 'whole tree'
    lap('checkout')
    return fresh
  }

  /**
   * From the commit the checkout holds exactly to `commit`, path by path: the index takes the new
   * entries (looked up by path, not matched against every entry), what `commit` no longer has is
   * removed with the folders left empty, and only the new and changed paths are written.
   */
  private async moveTo(commit: string, changes: TreeChanges): Promise<void> {
    const gone = changes.changes.filter((c) => c.mode === '000000')
    const written = changes.changes.filter((c) => c.mode !== '000000')
    const records = [...gone.map((c) => `0 ${c.oldObject}\t${c.path}`), ...written.map((c) => `${c.mode} ${c.object}\t${c.path}`)]
    if (records.length) await this.inCheckout(['update-index', '-z', '--index-info'], undefined, records)
    // The index just written is as new as the files of a checkout made this second: unless its time
    // is set past them, the next index write reads every one of them as racily clean.
    this.indexPastTheFiles()
    for (const c of gone) removeTreeEntry(this.dir, c.path)
    for (const folder of [...changes.removedFolders].sort((a, b) => b.split('/').length - a.split('/').length)) removeTreeEntry(this.dir, folder)
    if (written.length)
      await this.inCheckout(
        ['-c', 'core.bare=false', 'checkout-index', '-f', '-u', '-z', '--stdin'],
        undefined,
        written.map((c) => c.path)
      )
    writeFileSync(path.join(this.repo, 'HEAD'), `${commit}\n`)
    this.indexPastTheFiles()
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
    if (first.commit !== commit) await this.inCheckout([...CHECKOUT_ARGS, commit])
    this.indexPastTheFiles()
    this.touched.length = 0
    this.checkedOut = true
    this.foldersTrusted = Boolean(this.opts.ownUser)
    this.exact = this.foldersTrusted
    lap('checkout')
    return true
  }

  /** Protected paths that differ from the base; with `apply` (the baseline) they are set to the base first. */
  private verify(candidates: string[], apply: boolean): Tampering[] {
    // Any protected path the commit holds that the base does not is in the diff from the base
    // (`candidates`); the base's own protected paths are always checked.
    const mismatches = findTampering(this.dir, this.opts.snapshot, candidates)
    if (!apply || mismatches.length === 0) return mismatches
    revertTampering(this.dir, this.opts.snapshot, mismatches)
    this.touchedByLoopgate(mismatches.map((m) => m.path))
    return findTampering(this.dir, this.opts.snapshot, candidates)
  }

  /**
   * The checkout's folders, home and temp go to the gate user; protected files are locked against
   * it. `paths`: what changed since the last checkout (directories the gate user already had keep
   * it; only those on the way to a changed path can be new), or every folder of a fresh checkout.
   */
  private async giveToUser(user: AgentUser, own: string[], paths: string[], fresh: boolean): Promise<void> {
    if (fresh) chownFolders(this.dir, paths, user)
    else chownParents(this.dir, paths, user, this.deps)
    for (const d of own) chownSync(d, user.uid, user.gid)
    const relocked = this.lock(this.dir, user)
    // The index takes in the new ctimes (nothing untrusted ran since the checkout), so the next
    // incremental checkout rewrites only what really changed.
    if (relocked) {
      await this.inCheckout(['update-index', '-q', '--refresh'], [1])
      this.indexPastTheFiles()
    }
  }

  /** The dependency folders from the pristine copy: hardlinked read-only for a separate gate user, else a real copy. */
  private placeDeps(user: AgentUser | undefined): void {
    for (const name of this.deps) {
      const src = path.join(this.pristine, name)
      const dest = path.join(this.dir, name)
      if (user && !this.opts.writableDeps) {
        cp(['-al', src, dest])
        chownSync(dest, 0, 0)
        chmodSync(dest, 0o755)
      } else {
        cp(['-a', '--reflink=auto', src, dest])
        if (user) execFileSync('chown', ['-hR', `${user.uid}:${user.gid}`, dest])
      }
    }
    this.depsInPlace = true
    if (!user) this.depsSignature = depsSignature(this.dir, this.deps, CACHE_DIRS)
  }

  /** Each run's tool caches inside the dependency folders: empty, the gate user's. */
  private freshCaches(dir: string, user: AgentUser | undefined): void {
    for (const name of this.deps) {
      for (const cache of CACHE_DIRS[name] ?? []) {
        const target = path.join(dir, name, cache)
        this.discard(target)
        mkdirSync(target, { mode: 0o700 })
        if (user) chownSync(target, user.uid, user.gid)
      }
    }
  }

  /** Moves a path aside; it is deleted in the background with the rest (see emptyTrash). */
  private discard(target: string): void {
    try {
      lstatSync(target)
    } catch {
      return
    }
    const trash = path.join(this.opts.privateDir, `trash-${process.pid}-${this.trashCount++}`)
    try {
      renameSync(target, trash)
      this.trash.push(trash)
    } catch {
      rmSync(target, { recursive: true, force: true })
    }
  }

  /** Deletes what was moved aside, in one background process (a 200 MB tree takes seconds to remove). */
  private emptyTrash(): void {
    removeInBackground(this.trash.splice(0))
  }

  /**
   * Protected files root-owned and read-only, executable when the base has them so (100755);
   * their directories (and the checkout root) root-owned and sticky, so the gate user can add files
   * but not replace, rename or delete protected ones.
   */
  private lock(dir: string, _user: AgentUser): number {
    let changed = 0
    const dirs = new Set<string>([dir])
    for (const [rel, entry] of this.opts.snapshot.entries) {
      const file = path.join(dir, rel)
      if (readTreeEntry(dir, rel).kind !== 'file') continue
      const st = lstatSync(file)
      const mode = entry.mode === '100755' ? 0o555 : 0o444
      if (st.uid !== 0 || st.gid !== 0) chownSync(file, 0, 0)
      if ((st.mode & 0o7777) !== mode) chmodSync(file, mode)
      if (st.uid !== 0 || st.gid !== 0 || (st.mode & 0o7777) !== mode) changed++
      let parent = path.dirname(file)
      while (parent.startsWith(dir) && !dirs.has(parent)) {
        dirs.add(parent)
        parent = path.dirname(parent)
      }
    }
    for (const d of dirs) {
      const st = lstatSync(d)
      if (st.uid !== 0 || st.gid !== 0) chownSync(d, 0, 0)
      if ((st.mode & 0o7777) !== 0o1777) chmodSync(d, 0o1777)
    }
    this.lockedDirs = [...dirs]
    return changed
  }

  /**
   * Before the gate command: the folders that hold protected files, the checkout root among them,
   * take no new entry from the gate user (gate-setup could add files there; the command cannot);
   * the runner's own folders at the root (see runner-folders.ts) are there for it to write.
   */
  closeFolders(report?: string): void {
    const user = this.opts.user
    if (!user) return
    for (const d of this.lockedDirs) chmodSync(d, 0o755)
    for (const rel of runnerFoldersToMake(report)) {
      const target = path.join(this.dir, rel)
      if (readTreeEntry(this.dir, rel).kind !== 'missing') continue
      mkdirSync(target, { recursive: true, mode: 0o755 })
      chownSync(target, user.uid, user.gid)
    }
    // A report at the root: the runner writes it in place, in a file that is the gate user's.
    if (report && !report.includes('/') && readTreeEntry(this.dir, report).kind === 'missing') {
      writeFileSync(path.join(this.dir, report), '', { mode: 0o644, flag: 'wx' })
      chownSync(path.join(this.dir, report), user.uid, user.gid)
    }
  }
}
