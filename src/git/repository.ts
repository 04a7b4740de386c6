import { LOCAL_AUTHOR } from './author.js'
import type { CommitAuthor } from '../settings.js'
import { commandLine, gitEnv, runGit, runGitBinary, type CommandLocation, type GitResult, type RunOptions } from './command-line.js'
import { heldRepositoryFor, type HeldRepository } from './custody-registry.js'

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

export interface FetchOptions {
  /** The environment carrying the fetch's credentials (see fetch-auth.ts). */
  env?: NodeJS.ProcessEnv
  depth?: number
  quiet?: boolean
  okCodes?: number[]
  secrets?: readonly string[]
}

export interface PushOptions {
  env?: NodeJS.ProcessEnv
  /** `--force-with-lease=<ref>:<sha>` (an empty sha: the ref must not exist), or 'force'. */
  lease?: { ref: string; expect: string | null } | 'force'
  secrets?: readonly string[]
}

const zlist = (text: string): string[] => text.split('\0').filter(Boolean)

/**
 * A git repository as loopgate's own git sees it, bound at construction to its folder and, when
 * loopgate holds it, to loopgate's git directory: no command run through it reads the `.git` the
 * agent can write, nor any global or system configuration (see command-line.ts).
 */
export class GitRepository {
  private constructor(
    readonly dir: string,
    readonly held: HeldRepository | undefined,
    readonly author: CommitAuthor
  ) {}

  /** A repository whose git directory is its own: a clean clone, a scratch repository, a repository not held. */
  static plain(dir: string, author: CommitAuthor = LOCAL_AUTHOR): GitRepository {
    return new GitRepository(dir, undefined, author)
  }

  /** The workspace loopgate holds, through loopgate's own git directory. */
  static held(repo: HeldRepository, author: CommitAuthor = LOCAL_AUTHOR, dir: string = repo.workspace): GitRepository {
    return new GitRepository(dir, repo, author)
  }

  /**
   * Lookup for call sites not yet given their repository: `dir` through loopgate's git directory
   * when it is inside a workspace loopgate holds (see custody-registry.ts), else as it is.
   */
  static lookup(dir: string, author: CommitAuthor = LOCAL_AUTHOR): GitRepository {
    return new GitRepository(dir, heldRepositoryFor(dir), author)
  }

  withAuthor(author: CommitAuthor): GitRepository {
    return new GitRepository(this.dir, this.held, author)
  }

  private get location(): CommandLocation {
    return { cwd: this.dir, held: this.held ? { gitDir: this.held.gitDir, workTree: this.held.workspace } : undefined }
  }

  /** The command line `args` becomes here (for a process loopgate drives itself). */
  commandLine(args: string[], config?: string[]): string[] {
    return commandLine(args, this.location, config)
  }

  /** The environment of this repository's git processes, `extra` added. */
  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return { ...gitEnv(this.author), ...extra }
  }

  /** Any git command, for what has no named operation yet. */
  run(args: string[], opts: RunOptions = {}): Promise<GitResult> {
    return runGit(args, this.location, { ...opts, env: opts.env ?? gitEnv(this.author) })
  }

  private async out(args: string[], opts: RunOptions = {}): Promise<string> {
    return (await this.run(args, opts)).stdout
  }

  /** HEAD's commit. Throws when there is none. */
  async head(): Promise<string> {
    return this.revParse('HEAD')
  }

  /** HEAD's commit, or null in a repository without one (or no repository). */
  tryHead(): Promise<string | null> {
    return this.tryRevParse('HEAD^{commit}')
  }

  /** The object `ref` names. Throws when it names none. */
  async revParse(ref: string, opts: RunOptions = {}): Promise<string> {
    return (await this.out(['rev-parse', '--verify', '--end-of-options', ref], opts)).trim()
  }

  /** The object `ref` names, or null. */
  async tryRevParse(ref: string): Promise<string | null> {
    const r = await this.run(['rev-parse', '--verify', '--quiet', '--end-of-options', ref], { okCodes: [1, 128] })
    return r.exitCode === 0 ? r.stdout.trim() : null
  }

  /** The git directory commands here use, absolute. */
  async gitDir(): Promise<string> {
    return (await this.out(['rev-parse', '--absolute-git-dir'])).trim()
  }

  /** The common git directory (the main repository's for a linked worktree), absolute. */
  async commonDir(): Promise<string> {
    return (await this.out(['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim()
  }

  /** The top folder of the work tree containing `dir`, or null outside one. */
  async topLevel(): Promise<string | null> {
    const r = await this.run(['rev-parse', '--show-toplevel'], { okCodes: [128] }).catch(() => null)
    return r && r.exitCode === 0 ? r.stdout.trim() : null
  }

  /** The short name of HEAD's branch, or null on a detached HEAD. */
  async currentBranch(): Promise<string | null> {
    const r = await this.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1, 128] })
    return r.exitCode === 0 ? r.stdout.trim() : null
  }

  async isShallow(): Promise<boolean> {
    const r = await this.run(['rev-parse', '--is-shallow-repository'], { okCodes: [128] })
    return r.stdout.trim() === 'true'
  }

  /** The full message of commit `sha`, or null when git cannot read it here. */
  async commitMessage(sha: string): Promise<string | null> {
    const r = await this.run(['log', '-1', '--format=%B', '--end-of-options', sha], { okCodes: [128] }).catch(() => null)
    return r && r.exitCode === 0 ? r.stdout : null
  }

  async isAncestor(ancestor: string, commit: string): Promise<boolean> {
    return (await this.run(['merge-base', '--is-ancestor', ancestor, commit], { okCodes: [1, 128] })).exitCode === 0
  }

  /** How many commits `range` holds (`a..b`); `filters` are rev-list options (`--grep=…`). */
  async revListCount(range: string, filters: string[] = []): Promise<number> {
    return Number((await this.out(['rev-list', '--count', ...filters, range, '--'])).trim())
  }

  /** A commit of `tree` with `parents`, `message` given on stdin; its sha. */
  async commitTree(tree: string, parents: string[], message: string): Promise<string> {
    return (await this.out(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], { input: message })).trim()
  }

  /** Moves `ref` to `value`; with `expect`, only from that old value. */
  async updateRef(ref: string, value: string, opts: { expect?: string; message?: string } = {}): Promise<void> {
    const reason = opts.message === undefined ? [] : ['-m', opts.message]
    await this.run(['update-ref', ...reason, ref, value, ...(opts.expect ? [opts.expect] : [])])
  }

  /** Reads `tree` into the index (`indexFile`: another index than the repository's). */
  async readTree(tree: string, opts: { indexFile?: string } = {}): Promise<void> {
    await this.run(['read-tree', tree], { env: opts.indexFile ? this.env({ GIT_INDEX_FILE: opts.indexFile }) : undefined })
  }

  /** `git update-index <flags> -z --stdin` over `paths`; the exit code (1 and 128 are answers). */
  async updateIndex(flags: string[], paths: readonly string[], opts: { indexFile?: string } = {}): Promise<GitResult> {
    return this.run(['update-index', ...flags, '-z', '--stdin'], {
      input: paths.length ? `${paths.join('\0')}\0` : '',
      okCodes: [1, 128],
      env: opts.indexFile ? this.env({ GIT_INDEX_FILE: opts.indexFile }) : undefined
    })
  }

  /** `git ls-files -z <flags>`: the names it lists. */
  async lsFiles(flags: string[], opts: { indexFile?: string } = {}): Promise<string[]> {
    return zlist(await this.out(['ls-files', '-z', ...flags], { env: opts.indexFile ? this.env({ GIT_INDEX_FILE: opts.indexFile }) : undefined }))
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

  /** The paths that differ between `from` (default HEAD) and `to` (default: the index). */
  async diffNames(range: { from?: string; to?: string } = {}, pathspec: string[] = []): Promise<string[]> {
    const sides = range.to === undefined ? ['--cached', ...(range.from ? [range.from] : [])] : [range.from ?? 'HEAD', range.to]
    return zlist(await this.out(['diff', '--name-only', '-z', '--no-renames', ...sides, '--', ...pathspec]))
  }

  /** Stages everything under `pathspec`, deletions included. */
  async addAll(pathspec: string[]): Promise<void> {
    await this.run(['add', '-A', '--', ...pathspec])
  }

  /** Puts `paths` in the index back to HEAD's (names literal). */
  async resetPaths(paths: readonly string[]): Promise<void> {
    await this.run(['--literal-pathspecs', 'reset', '-q', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: `${paths.join('\0')}\0` })
  }

  /** Whether anything under `pathspec` differs between `from` and `to`. */
  async differs(from: string, to: string, pathspec: string[] = []): Promise<boolean> {
    return (await this.run(['diff', '--quiet', from, to, '--', ...pathspec], { okCodes: [1] })).exitCode === 1
  }

  /** Per-file line counts between `from` and `to`, names raw. */
  async diffNumstat(from: string, to: string): Promise<NumstatEntry[]> {
    const raw = await this.out(['diff', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', from, to, '--'])
    const entries: NumstatEntry[] = []
    for (const rec of zlist(raw)) {
      const [add, del, ...name] = rec.split('\t')
      const count = (n: string): number | null => (n === '-' ? null : Number(n))
      entries.push({ path: name.join('\t'), insertions: count(add), deletions: count(del) })
    }
    return entries
  }

  /** The entries of `tree` (recursively when asked), under `paths` when given. */
  async lsTree(tree: string, opts: { recursive?: boolean; paths?: string[] } = {}): Promise<TreeEntry[]> {
    const args = ['ls-tree', '-z', '--full-tree', ...(opts.recursive ? ['-r'] : []), tree, '--', ...(opts.paths ?? []).map((p) => `:(literal)${p}`)]
    return zlist(await this.out(args)).map((rec) => {
      const tab = rec.indexOf('\t')
      const [mode, type, oid] = rec.slice(0, tab).split(' ')
      return { mode, type: type as TreeEntry['type'], oid, path: rec.slice(tab + 1) }
    })
  }

  /** Many objects through one `git cat-file --batch`, by oid. Throws on a missing one. */
  async catFileBatch(oids: readonly string[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>()
    if (oids.length === 0) return out
    const buf = await runGitBinary({ args: ['cat-file', '--batch'], at: this.location, input: `${oids.join('\n')}\n`, env: gitEnv(this.author) })
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

  /** Fetches `refspecs` from `remote` (a name or URL). */
  fetch(remote: string, refspecs: string[], opts: FetchOptions = {}): Promise<GitResult> {
    const depth = opts.depth ? [`--depth=${opts.depth}`] : []
    const args = ['fetch', '--no-tags', ...(opts.quiet === false ? [] : ['--quiet']), ...depth, '--', remote, ...refspecs]
    return this.run(args, { env: opts.env, okCodes: opts.okCodes, secrets: opts.secrets })
  }

  /** Pushes `refspecs` to `remote` (porcelain output, no hooks). */
  push(remote: string, refspecs: string[], opts: PushOptions = {}): Promise<GitResult> {
    const lease = opts.lease === 'force' ? ['--force'] : opts.lease ? [`--force-with-lease=${opts.lease.ref}:${opts.lease.expect ?? ''}`] : []
    return this.run(['push', '--porcelain', '--no-verify', ...lease, '--', remote, ...refspecs], { env: opts.env, secrets: opts.secrets })
  }

  /** The sha of `ref` on `remote`, or null. */
  async remoteRef(remote: string, ref: string, opts: { env?: NodeJS.ProcessEnv; secrets?: readonly string[] } = {}): Promise<string | null> {
    const r = await this.run(['ls-remote', '--', remote, ref], opts)
    const line = r.stdout.split('\n').find((l) => l.endsWith(`\t${ref}`))
    return line ? line.split('\t')[0] : null
  }

  /** The settings of a config file read as data, no include followed (`null`: a key without a value). */
  async configList(file: string, opts: { regexp?: string; includes?: boolean } = {}): Promise<Array<{ key: string; value: string | null }>> {
    const query = opts.regexp === undefined ? ['--list'] : ['--get-regexp', opts.regexp]
    const includes = opts.includes ? ['--includes'] : []
    const r = await this.run(['config', '--file', file, ...includes, '--null', ...query], { okCodes: [1] })
    return zlist(r.stdout).map((rec) => {
      const nl = rec.indexOf('\n')
      return nl < 0 ? { key: rec, value: null } : { key: rec.slice(0, nl), value: rec.slice(nl + 1) }
    })
  }

  /** Removes every `name` from a config file (only those whose value is `value`, when given). */
  async unsetConfig(file: string, name: string, value?: string): Promise<void> {
    const match = value === undefined ? ['--unset-all', name] : ['--fixed-value', '--unset-all', name, value]
    await this.run(['config', '--file', file, ...match], { okCodes: [5] })
  }
}
