import type { GitResult } from './command-line.js'
import { RepositoryCore, zlist } from './repository-core.js'

/** One entry of `git ls-tree`. */
export interface TreeEntry {
  mode: string
  type: 'blob' | 'tree' | 'commit'
  oid: string
  path: string
}

/** One file of `git diff --numstat` (`null` counts: a binary file). */
export interface NumstatEntry {
  path: string
  insertions: number | null
  deletions: number | null
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/** One `<insertions>\t<deletions>\t<path>` record of `--numstat -z` (`-` counts: a binary file). */
function numstatEntry(rec: string): NumstatEntry {
  const [add, del, ...name] = rec.split('\t')
  const count = (n: string): number | null => (n === '-' ? null : Number(n))
  return { path: name.join('\t'), insertions: count(add), deletions: count(del) }
}

/** Where a listing of a tree looks: recursively, under `paths` only (each literal). */
export interface TreeListing {
  recursive?: boolean
  paths?: string[]
}

/** The index, tree and diff operations of a GitRepository (see repository.ts). */
export class RepositoryTrees extends RepositoryCore {
  /** Reads `tree` into the index (`indexFile`: another index than the repository's). */
  async readTree(tree: string, opts: { indexFile?: string } = {}): Promise<void> {
    await this.run(['read-tree', tree], { env: this.indexEnv(opts.indexFile) })
  }

  /** `git update-index <flags> -z --stdin` over `paths`; the exit code (1 and 128 are answers). */
  async updateIndex(flags: string[], paths: readonly string[], opts: { indexFile?: string } = {}): Promise<GitResult> {
    return this.run(['update-index', ...flags, '-z', '--stdin'], {
      input: paths.length ? `${paths.join('\0')}\0` : '',
      okCodes: [1, 128],
      env: this.indexEnv(opts.indexFile)
    })
  }

  /** The index takes in the stat data of files whose content is unchanged (best effort: 1 is an answer). */
  async refreshIndex(): Promise<void> {
    await this.run(['update-index', '-q', '--refresh'], { okCodes: [1] })
  }

  /** `git ls-files -z <flags>`: the names it lists. */
  async lsFiles(flags: string[], opts: { indexFile?: string } = {}): Promise<string[]> {
    return zlist(await this.out(['ls-files', '-z', ...flags], { env: this.indexEnv(opts.indexFile) }))
  }

  async writeTree(): Promise<string> {
    return (await this.out(['write-tree'])).trim()
  }

  /**
   * Every path that differs between the working tree, the index and HEAD, untracked files one by
   * one; a nested repository's folder with a trailing `/`.
   */
  async statusPorcelain(): Promise<string[]> {
    const r = await this.out(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=dirty'])
    return r.split('\0').flatMap((rec) => (rec.length > 3 ? [rec.slice(3)] : []))
  }

  /** The paths `git status` reports under `pathspec` (untracked files one by one; `renames: false`: no rename detection). */
  async statusPaths(pathspec: string[], opts: { renames?: boolean } = {}): Promise<string[]> {
    const renames = opts.renames === false ? ['--no-renames'] : []
    return zlist(await this.out(['status', '--porcelain', '-z', ...renames, '--untracked-files=all', '--', ...pathspec])).map((l) => l.slice(3))
  }

  /** The paths that differ between `from` (default HEAD) and `to` (default: the index). */
  async diffNames(range: { from?: string; to?: string } = {}, pathspec: string[] = []): Promise<string[]> {
    const sides = range.to === undefined ? ['--cached', ...(range.from ? [range.from] : [])] : [range.from ?? 'HEAD', range.to]
    return zlist(await this.out(['diff', '--name-only', '-z', '--no-renames', ...sides, '--', ...pathspec]))
  }

  /** Stages everything under `pathspec`, deletions included. */
  async addAll(pathspec: string[]): Promise<void> {
    await this.run(['add', '-A', '--', ...pathspec])
  }

  /** Stages everything under `pathspec`; false when git refuses the pathspec (exit 128) and stages nothing. */
  async tryAddAll(pathspec: string[]): Promise<boolean> {
    return (await this.run(['add', '-A', '--', ...pathspec], { okCodes: [128] })).exitCode === 0
  }

  /** Puts `paths` in the index back to HEAD's (names literal). */
  async resetPaths(paths: readonly string[]): Promise<void> {
    await this.run(['--literal-pathspecs', 'reset', '-q', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: `${paths.join('\0')}\0` })
  }

  /** Everything under `pathspec` back to HEAD's: the index, the tracked files, and no untracked file left. */
  async revertToHead(pathspec: string[]): Promise<void> {
    await this.run(['reset', '-q', 'HEAD', '--', ...pathspec], { okCodes: [1] })
    // One path HEAD does not have fails the whole checkout: the index, now HEAD's there, names those it has.
    const inHead = zlist((await this.run(['ls-files', '-z', '--', ...pathspec])).stdout)
    if (inHead.length) await this.run(['checkout', '-q', 'HEAD', '--', ...inHead.map((p) => `:(literal)${p}`)])
    await this.run(['clean', '-q', '-f', '--', ...pathspec])
  }

  /** Whether anything under `pathspec` differs between `from` and `to`. */
  async differs(from: string, to: string, pathspec: string[] = []): Promise<boolean> {
    return (await this.run(['diff', '--quiet', from, to, '--', ...pathspec], { okCodes: [1] })).exitCode === 1
  }

  /** Per-file line counts between `from` and `to` under `pathspec`, names raw. */
  async diffNumstat(from: string, to: string, pathspec: string[] = []): Promise<NumstatEntry[]> {
    const raw = await this.out(['diff', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', from, to, '--', ...pathspec])
    return zlist(raw).map(numstatEntry)
  }

  /**
   * The numstat of each pair of commits, in one process: `diff-tree --stdin` reads a commit and
   * the commit to compare it with on each line, and heads each answer with the first (`--always`
   * heads an empty one too).
   */
  async diffNumstats(pairs: readonly { from: string; to: string }[]): Promise<NumstatEntry[][]> {
    if (pairs.length === 0) return []
    if (pairs.some((p) => !OBJECT_ID.test(p.from) || !OBJECT_ID.test(p.to))) throw new Error('diffNumstats takes commit ids')
    const input = pairs.map((p) => `${p.to} ${p.from}\n`).join('')
    const raw = await this.out(['diff-tree', '--stdin', '-r', '--always', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv'], { input })
    const answers: NumstatEntry[][] = []
    for (const rec of zlist(raw)) {
      if (!rec.includes('\t')) answers.push([])
      else if (answers.length === 0) throw new Error('git diff-tree answered without a commit heading')
      else answers[answers.length - 1].push(numstatEntry(rec))
    }
    if (answers.length !== pairs.length) throw new Error(`git diff-tree answered ${answers.length} of ${pairs.length} pairs`)
    return answers
  }

  /** The records of `git ls-tree -z --full-tree` as git writes them (`<mode> <type> <oid>\t<path>`), for hashes over a listing. */
  async lsTreeRecords(tree: string, opts: TreeListing = {}): Promise<string[]> {
    const args = ['ls-tree', '-z', '--full-tree', ...(opts.recursive ? ['-r'] : []), tree, '--', ...(opts.paths ?? []).map((p) => `:(literal)${p}`)]
    return zlist(await this.out(args))
  }

  /** The entries of `tree` (recursively when asked), under `paths` when given. */
  async lsTree(tree: string, opts: TreeListing = {}): Promise<TreeEntry[]> {
    return (await this.lsTreeRecords(tree, opts)).map((rec) => {
      const tab = rec.indexOf('\t')
      const [mode, type, oid] = rec.slice(0, tab).split(' ')
      return { mode, type: type as TreeEntry['type'], oid, path: rec.slice(tab + 1) }
    })
  }

  /** Many objects through one `git cat-file --batch`, by oid. Throws on a missing one. */
  async catFileBatch(oids: readonly string[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>()
    if (oids.length === 0) return out
    const buf = await this.binary(['cat-file', '--batch'], `${oids.join('\n')}\n`)
    let pos = 0
    for (const oid of oids) {
      const nl = buf.indexOf(10, pos)
      const header = buf.subarray(pos, nl).toString('utf8').split(' ')
      if (header[1] === 'missing') throw new Error(`object ${oid} is missing`)
      const size = Number(header[2])
      out.set(oid, buf.subarray(nl + 1, nl + 1 + size))
      pos = nl + 1 + size + 1
    }
    return out
  }
}
