import path from 'node:path'
import { restoreDirt } from './checkout-restore.js'
import { CheckoutIndex } from './checkout-index.js'
import type { CheckoutOptions } from './checkout-options.js'
import { foldersTrusted, type CheckoutState } from './checkout-state.js'
import { findDirt, recordFolders, type FolderRecord } from './folder-record.js'
import type { GateRepository } from '../../git/gate-repository.js'
import { checkoutDirOf, gateRepositoryOf, type FirstCheckout } from './first-checkout.js'
import { TreeReads } from './tree-reads.js'
import { Trash } from './trash.js'

/**
 * The clean checkout's state and what follows a gate run in it: the folders recorded before, what
 * the run changed put back after (see CleanCheckout for how a commit is brought in).
 */
export abstract class CheckoutCore {
  readonly repo: GateRepository
  readonly pristine: string
  /** Where the commit under test is checked out. */
  readonly dir: string
  deps: string[] = []
  /** Entries of the dependency copies that named the workspace and now name the checkout. */
  readonly redirected: string[] = []
  /** What the checkout is known to hold (see CheckoutState). */
  protected state: CheckoutState = { kind: 'none' }
  /** The commit the checkout holds, for the incremental steps of the next one. */
  protected lastCommit: string | null = null
  protected depsInPlace = false
  protected depsSignature: string | null = null
  protected readonly trash: Trash
  protected readonly index: CheckoutIndex
  private readonly trees: TreeReads
  /** What the last gate run added, being cleaned while the next agent call works (see scrub). */
  protected scrubbing: Promise<void> | null = null
  /** The first checkout begun early, until the first prepare adopts it. */
  protected first: FirstCheckout | null
  /** The tracked folders of the commit the checkout holds (what the record before a gate run covers). */
  protected folders: Set<string> | null = null
  /** Paths loopgate changed in the checkout after it was checked out (their folders are looked into after the run). */
  protected readonly touched: string[] = []
  /** Paths the last scrub checked out again (their modes are seen to by the next prepare). */
  protected restored: string[] = []
  /** How the last prepare brought the checkout to its commit (for the log and the tests). */
  lastWay: 'fresh' | 'by path' | 'whole tree' = 'fresh'
  /** Paths written since the folders on their way were last given to the gate user. */
  protected unowned: string[] = []
  /** The folders lockProtected made root's: closed to new entries before the gate command (see closeFolders). */
  protected lockedDirs: string[] = []
  /** The paths the commit checked out last differs in from the base (the candidates of recheck). */
  protected fromBase: string[] = []

  constructor(protected readonly opts: CheckoutOptions) {
    this.repo = gateRepositoryOf(opts)
    this.dir = checkoutDirOf(opts)
    this.pristine = path.join(opts.privateDir, 'deps')
    this.first = opts.first ?? null
    this.trash = new Trash(opts.privateDir)
    this.index = new CheckoutIndex(opts)
    this.trees = new TreeReads(this.repo)
  }

  /** loopgate changed `paths` after the checkout: they no longer match the index until they are put back. */
  protected touchedByLoopgate(paths: string[]): void {
    this.touched.push(...paths)
    if (this.state.kind === 'exact') this.state = { kind: 'touched' }
  }

  /** Code under test is about to run in the checkout: its folders are recorded first. */
  markRun(): void {
    let record: FolderRecord | null = null
    if (foldersTrusted(this.state) && this.folders) {
      try {
        record = recordFolders(this.dir, this.folders, this.fence())
      } catch {
        record = null
      }
    }
    this.state = { kind: 'ran', record }
  }

  /**
   * After a gate run whose own user has no process left: what it changed is put back now, in the
   * background, while the next agent call works; the next checkout waits for it and checks the
   * folders again. When the gate's user is not its own, nothing is known to have stopped writing,
   * so the next checkout cleans and checks out the whole tree.
   */
  scrub(): void {
    if (!this.opts.ownUser || this.state.kind === 'none' || this.scrubbing) {
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
        this.state = { kind: 'none' }
      })
  }

  /**
   * Only the folders the run changed are looked into (see folder-record.ts); without a record, or
   * on anything unexpected, the whole tree is cleaned and the next checkout is a whole-tree one.
   */
  private async restore(): Promise<void> {
    const record = this.state.kind === 'ran' ? this.state.record : null
    const touched = this.touched.splice(0)
    if (record && (await this.putBack(record, { touched, recordAgain: true }))) return
    await this.index.clean(this.deps)
    if (this.state.kind === 'ran') this.state = { kind: 'untrusted' }
  }

  /**
   * Puts back what changed in the folders since `record` (and in those of `touched`); with
   * `recordAgain`, records them as left (see settled). False when that could not be done: the
   * caller falls back to the whole tree.
   */
  protected async putBack(record: FolderRecord, opts: { touched?: string[]; recordAgain?: boolean } = {}): Promise<boolean> {
    const commit = this.lastCommit
    this.state = { kind: 'untrusted' }
    if (!commit || !this.folders) return false
    try {
      const dirt = findDirt(this.dir, record, opts.touched)
      if (dirt.entries.length || dirt.whole.length) {
        const context = {
          dir: this.dir,
          commit,
          keepAtRoot: this.deps,
          repository: this.index.git,
          objects: (specs: string[]) => this.trees.read(specs),
          discard: (target: string) => this.discard(target)
        }
        this.restored.push(...(await restoreDirt(context, dirt)))
        this.index.pastTheFiles()
      }
      this.state = { kind: 'exact', settled: opts.recordAgain ? recordFolders(this.dir, this.folders, this.fence()) : null }
      return true
    } catch {
      return false
    }
  }

  private fence(): string {
    return path.join(this.opts.gateDir, 'fence')
  }

  /** Resolves once no background clean is running. */
  async idle(): Promise<void> {
    this.emptyTrash()
    await this.scrubbing
  }

  /** After the run's last gate run: the object reader ends (a later read starts another). */
  close(): void {
    this.repo.closeObjects()
  }

  protected discard(target: string): void {
    this.trash.discard(target)
  }

  protected emptyTrash(): void {
    this.trash.empty()
  }
}
