import path from 'node:path'
import { LOCAL_AUTHOR } from './author.js'
import type { CommitAuthor } from '../settings.js'
import type { GitResult, RunOptions } from './command-line.js'
import { heldRepositoryFor, type HeldRepository } from './custody-registry.js'
import { zlist } from './repository-core.js'
import { RepositoryTrees } from './repository-trees.js'

export type { NumstatEntry, TreeEntry, TreeListing } from './repository-trees.js'
export { CHECKOUT_WORKERS } from './command-line.js'

interface FetchOptions {
  /** The environment carrying the fetch's credentials (see fetch-auth.ts). */
  env?: NodeJS.ProcessEnv
  depth?: number
  quiet?: boolean
  okCodes?: number[]
  secrets?: readonly string[]
}

interface PushOptions {
  env?: NodeJS.ProcessEnv
  /** `--force-with-lease=<ref>:<sha>` (an empty sha: the ref must not exist), or 'force'. */
  lease?: { ref: string; expect: string | null } | 'force'
  secrets?: readonly string[]
}

/** A remote's credentials: the environment that carries them, the texts kept out of errors. */
interface RemoteAccess {
  env?: NodeJS.ProcessEnv
  secrets?: readonly string[]
}

/**
 * A git repository as loopgate's own git sees it, bound at construction to its folder and, when
 * loopgate holds it, to loopgate's git directory: no command run through it reads the `.git` the
 * agent can write, nor any global or system configuration (see command-line.ts).
 */
export class GitRepository extends RepositoryTrees {
  private constructor(dir: string, held: HeldRepository | undefined, author: CommitAuthor) {
    super(dir, held, author)
  }

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

  /** Where this repository's objects are: loopgate's own git directory's when it holds the repository. */
  async objectsDir(): Promise<string> {
    return path.join(this.held ? this.held.gitDir : await this.commonDir(), 'objects')
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

  /** `ref`'s object id abbreviated to at least `length` digits (longer when that is ambiguous). */
  async shortId(ref: string, length: number): Promise<string> {
    return (await this.out(['rev-parse', '--verify', `--short=${length}`, '--end-of-options', ref])).trim()
  }

  /** `git describe --tags --long` of `commit` among the tags matching `match`, or null when none is reachable. */
  async describeTag(commit: string, match: string): Promise<string | null> {
    const r = await this.run(['describe', '--tags', '--long', '--match', match, '--end-of-options', commit], { okCodes: [128] })
    return r.exitCode === 0 ? r.stdout.trim() : null
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

  /** The names of the configured remotes. */
  async remotes(): Promise<string[]> {
    return (await this.run(['remote'], { okCodes: [1] })).stdout.split('\n').filter(Boolean)
  }

  /** The branch `remote`'s HEAD names, or null when it names none or the remote cannot be read. */
  async remoteDefaultBranch(remote: string, access: RemoteAccess = {}): Promise<string | null> {
    const r = await this.run(['ls-remote', '--symref', '--', remote, 'HEAD'], { okCodes: [1, 2, 128], env: access.env, secrets: access.secrets })
    const m = /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(r.stdout)
    return m ? m[1] : null
  }

  /** The sha of `ref` on `remote`, or null. */
  async remoteRef(remote: string, ref: string, opts: RemoteAccess = {}): Promise<string | null> {
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
