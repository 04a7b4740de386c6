import path from 'node:path'
import { CHECKOUT_WORKERS, gitEnv, runGit, type GitResult, type RunOptions } from './command-line.js'
import { ObjectStream } from './object-stream.js'

/** The gate's private repository: a bare git directory (the workspace's objects as alternates), its checkout and that checkout's index. */
interface GatePlace {
  gitDir: string
  workTree: string
  indexFile: string
}

/** One record of `git diff-tree -r -t`: the two sides' modes and objects of one path. */
interface TreeDiffRecord {
  path: string
  oldMode: string
  newMode: string
  oldObject: string
  object: string
}

const zlist = (text: string): string[] => text.split('\0').filter(Boolean)

// Parallel workers: on a disk, each file's creation waits on the file system, and several in
// flight write a large tree several times faster (on tmpfs they only cost a little CPU).
const CHECKOUT = ['-c', 'core.bare=false', '-c', `checkout.workers=${CHECKOUT_WORKERS}`, 'checkout', '-f', '-q', '--detach']

/** Runs `spawn` (which starts its process before it returns: the child takes the umask then) under a umask with 022 set. */
function withoutGroupOrOtherWrite<T>(spawn: () => T): T {
  let previous: number
  try {
    previous = process.umask(0o022)
  } catch {
    return spawn() // a worker thread has no umask of its own to set
  }
  process.umask(previous | 0o022)
  try {
    return spawn()
  } finally {
    process.umask(previous)
  }
}

/**
 * loopgate's git on the gate's private repository, bound to its git directory, checkout and index:
 * `git --git-dir <repo>` run from the folder that holds it, and in the checkout with that work tree
 * and index. Nothing of the agent's (config, hooks, attributes) is read. Commands in the checkout
 * start under a umask that takes write from group and others: a file git writes there is never
 * one the gate user may rewrite in place.
 */
export class GateRepository {
  /** One `cat-file --batch` for the run's object reads (see readObjects). */
  private objects: ObjectStream | null = null

  constructor(readonly place: GatePlace) {}

  private inRepository(args: string[]): Promise<GitResult> {
    return runGit(['--git-dir', this.place.gitDir, ...args], { cwd: path.dirname(this.place.gitDir) }, { env: gitEnv() })
  }

  /** A command in the checkout; `paths` go on stdin NUL-separated, each taken literally. */
  private inCheckout(args: string[], opts: { okCodes?: number[]; paths?: string[] } = {}): Promise<GitResult> {
    const { gitDir, workTree, indexFile } = this.place
    const env = { ...gitEnv(), GIT_INDEX_FILE: indexFile, ...(opts.paths ? { GIT_LITERAL_PATHSPECS: '1' } : {}) }
    const run: RunOptions = { env, okCodes: opts.okCodes, input: opts.paths?.join('\0'), config: ['core.splitIndex=true'] }
    return withoutGroupOrOtherWrite(() => runGit(['--git-dir', gitDir, '--work-tree', workTree, ...args], { cwd: workTree }, run))
  }

  /** Paths that differ between two commits (a tree diff: its cost grows with the change, not the tree). */
  async diffTreeNames(from: string, to: string): Promise<string[]> {
    return zlist((await this.inRepository(['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to])).stdout)
  }

  /** The tree diff of two commits, trees included (`-t`). */
  async diffTree(from: string, to: string): Promise<TreeDiffRecord[]> {
    const fields = (await this.inRepository(['diff-tree', '-r', '-t', '-z', '--no-renames', from, to])).stdout.split('\0')
    const records: TreeDiffRecord[] = []
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const [oldMode, newMode, oldObject, object] = fields[i].slice(1).split(' ')
      records.push({ path: fields[i + 1], oldMode, newMode, oldObject, object })
    }
    return records
  }

  /** Every folder of `commit`'s tree. */
  async treeFolders(commit: string): Promise<string[]> {
    return zlist((await this.inRepository(['ls-tree', '-r', '-d', '-z', '--name-only', commit])).stdout)
  }

  /**
   * `git cat-file --batch`: each of `specs` (`<oid>` or `<commit>:<path>`) answered as raw bytes,
   * `missing` lines included, by one process kept for the run (the scrub after each gate run reads
   * while the next call works): closeObjects() ends it.
   */
  readObjects(specs: readonly string[]): Promise<Buffer> {
    this.objects ??= new ObjectStream(this.place.gitDir)
    return this.objects.read(specs)
  }

  closeObjects(): void {
    this.objects?.close()
    this.objects = null
  }

  /** The checkout and its index made `commit`'s (a detached HEAD, every tracked file whose stat changed written again). */
  async checkout(commit: string): Promise<void> {
    await this.inCheckout([...CHECKOUT, commit])
  }

  /** The records of `git ls-tree -r -z <treeish>`: every file, link and submodule under it. */
  async lsTreeRecursive(treeish: string): Promise<string[]> {
    return zlist((await this.inCheckout(['ls-tree', '-r', '-z', treeish])).stdout)
  }

  /** Writes `paths` from the index into the checkout (`quiet`: no warning for an unmerged path). */
  async checkoutIndex(paths: string[], opts: { quiet?: boolean } = {}): Promise<void> {
    await this.inCheckout(['-c', 'core.bare=false', 'checkout-index', '-f', '-u', ...(opts.quiet ? ['-q'] : []), '-z', '--stdin'], { paths })
  }

  /** The index takes in the stat data of `paths`. */
  async updateIndexStat(paths: string[]): Promise<void> {
    await this.inCheckout(['-c', 'core.bare=false', 'update-index', '-q', '-z', '--stdin'], { paths })
  }

  /** `git update-index --index-info`: each record `<mode> <object>\t<path>` (mode 0: removed). */
  async indexInfo(records: string[]): Promise<void> {
    await this.inCheckout(['update-index', '-z', '--index-info'], { paths: records })
  }

  /** The index takes in the stat data of every file whose content is unchanged (1 is an answer). */
  async refreshIndex(): Promise<void> {
    await this.inCheckout(['update-index', '-q', '--refresh'], { okCodes: [1] })
  }

  /** Removes whatever is not tracked, ignored files included, `keep` (root entries) left alone. */
  async clean(keep: string[]): Promise<void> {
    await this.inCheckout(['clean', '-ffdxq', '--', '.', ...keep.map((d) => `:(exclude,literal)${d}`)])
  }
}
