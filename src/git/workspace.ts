import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { DiffStat, IterationChange, Workspace } from '../loop/engine-types.js'
import { LOCAL_AUTHOR } from './author.js'
import type { CommitAuthor } from '../settings.js'
import { GitRepository } from './repository.js'
import { readPreRunFiles, recordPreRunFiles, type PreRunFiles } from './pre-run-files.js'
import { publishableTree, type PublishableTree, type PublishRules, type TreeRequest, type TreeSource } from './publishable-tree.js'

export const TRAILER_RUN = 'Loopgate-Run'
const TRAILER_ITERATION = 'Loopgate-Iteration'

/**
 * Whether commit `sha`, as git reads it in `repo`, carries loopgate's run trailer: the mark of a
 * commit loopgate made. Null when git cannot read the commit there.
 */
export async function carriesRunTrailer(repo: GitRepository, sha: string): Promise<boolean | null> {
  const message = await repo.commitMessage(sha)
  return message === null ? null : new RegExp(`^${TRAILER_RUN}: `, 'm').test(message)
}

function pathspecExcludes(paths: string[]): string[] {
  return paths.map((p) => `:(exclude,literal)${p}`)
}

function parseNumstat(text: string): { files: string[]; stat: DiffStat } {
  const files: string[] = []
  let insertions = 0
  let deletions = 0
  for (const line of text.split('\n')) {
    if (!line) continue
    const [add, del, ...rest] = line.split('\t')
    files.push(rest.join('\t'))
    insertions += add === '-' ? 0 : Number(add)
    deletions += del === '-' ? 0 : Number(del)
  }
  return { files, stat: { files: files.length, insertions, deletions } }
}

interface GitWorkspaceOptions {
  /** Author and committer of loopgate's commits. */
  author?: CommitAuthor
  /** More files kept out of commits (credentials files a provider step wrote into the workspace). */
  exclude?: string[]
  /** The rules every commit is held to; or given later, through publishUnder. */
  rules?: PublishRules
  /** loopgate's repository of the workspace (its held git directory); else found from `dir` at each command. */
  repository?: GitRepository
}

/** The workspace's folder, the progress and features files loopgate keeps apart, and its options. */
interface GitWorkspaceSetup extends GitWorkspaceOptions {
  dir: string
  progressFile: string
  featuresFile?: string
}

/**
 * The agent's workspace as loopgate's git sees it. Every commit is made from the tree
 * publishableTree returns (protected paths at the base's bytes, no workflow change, no nested
 * repository, not the progress file; the features file only by commitFeaturesFile; files that were
 * untracked before the first call only once the agent changed them). The features file is left out
 * of the progress comparison.
 */

export class GitWorkspace implements Workspace {
  private preRun: PreRunFiles | null | undefined
  private knownHead: string | undefined
  /**
   * The ref update of loopgate's last commit: it goes on while the gate checks that commit out
   * (the gate reads the commit, never the ref), and every later git step here waits for it, so a
   * ref update that failed fails the next one.
   */
  private refUpdate: Promise<unknown> = Promise.resolve()
  private rules: PublishRules | undefined

  readonly dir: string
  private readonly progressFile: string
  private readonly featuresFile: string | undefined
  private readonly opts: GitWorkspaceOptions

  constructor({ dir, progressFile, featuresFile, ...opts }: GitWorkspaceSetup) {
    this.dir = dir
    this.progressFile = progressFile
    this.featuresFile = featuresFile
    this.opts = opts
    this.rules = opts.rules
  }

  /** The repository, bound to loopgate's git directory and author, once the last ref update is done. */
  private async repo(): Promise<GitRepository> {
    await this.refUpdate
    return this.repoNow()
  }

  private repoNow(): GitRepository {
    const author = this.opts.author ?? LOCAL_AUTHOR
    return this.opts.repository?.withAuthor(author) ?? GitRepository.lookup(this.dir, author)
  }

  /** Keeps the progress file (and the excluded files) out of `git status` and commits; records the pre-run untracked files. Before the first call. */
  async prepare(): Promise<void> {
    // HEAD is read here too: nothing commits between this and the first call.
    const [gitDir, head] = (await (await this.repo()).run(['rev-parse', '--absolute-git-dir', 'HEAD'])).stdout.trim().split('\n')
    this.knownHead = head
    const excludeFile = path.join(gitDir, 'info', 'exclude')
    mkdirSync(path.dirname(excludeFile), { recursive: true })
    let current = existsSync(excludeFile) ? readFileSync(excludeFile, 'utf8') : ''
    for (const file of [this.progressFile, ...(this.opts.exclude ?? [])]) {
      const line = `/${file.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`)}`
      if (current.split('\n').includes(line)) continue
      const text = `${current && !current.endsWith('\n') ? '\n' : ''}${line}\n`
      appendFileSync(excludeFile, text)
      current += text
    }
    this.preRun = await recordPreRunFiles(await this.repo())
  }

  /**
   * HEAD, as loopgate's own last commit left it (read from git once, and after a commit git made).
   * A HEAD moved by anything else is caught where it matters: the next commit's ref update names
   * the parent it expects and fails.
   */
  async head(): Promise<string> {
    await this.refUpdate
    this.knownHead ??= await (await this.repo()).head()
    return this.knownHead
  }

  /** The pre-run record, read once: loopgate wrote it before the first call and nothing else does. */
  private async preRunFiles(): Promise<PreRunFiles | null> {
    if (this.preRun === undefined) this.preRun = await readPreRunFiles(this.repoNow())
    return this.preRun
  }

  /** A commit of `tree` on top of `parent`, without a second scan of the work tree; HEAD moves to it in the background (see refUpdate). */
  private async commitTree(tree: string, parent: string, message: string): Promise<string> {
    const repo = this.repoNow()
    const commit = await repo.commitTree(tree, [parent], message)
    this.refUpdate = this.refUpdate.then(() => repo.updateRef('HEAD', commit, { expect: parent, message: `commit: ${message.split('\n')[0]}` }))
    this.refUpdate.catch(() => undefined)
    this.knownHead = commit
    return commit
  }

  /** Every commit of the agent's work is held to `rules` (see publishable-tree.ts); none is made before they are given. */
  publishUnder(rules: PublishRules): void {
    this.rules = rules
  }

  /** loopgate's view of the workspace for publishableTree: its git directory, its author, its own files. */
  private treeSource(): TreeSource {
    return {
      dir: this.dir,
      repo: () => this.repo(),
      head: () => this.head(),
      progressFile: this.progressFile,
      featuresFile: this.featuresFile,
      preRun: () => this.preRunFiles()
    }
  }

  private publishable(request: TreeRequest): Promise<PublishableTree> {
    if (!this.rules) throw new Error("loopgate has no protected-path rules for this run's commits (the base snapshot): nothing is committed")
    return publishableTree(this.treeSource(), this.rules, request)
  }

  /** Commits the publishable tree of what the agent changed. HEAD moves in the background: read it through head(). */
  async commitIteration(runId: string, iteration: number, changed?: readonly string[]): Promise<IterationChange> {
    const index = await this.publishable({ changed })
    const all = parseNumstat(index.numstat)
    const restored = index.reverted.map((t) => t.path)
    if (all.files.length === 0) return { commit: null, changedFiles: [], stat: { files: 0, insertions: 0, deletions: 0 }, notes: index.notes, restored }
    const message = `loopgate: iteration ${iteration}\n\n${TRAILER_RUN}: ${runId}\n${TRAILER_ITERATION}: ${iteration}\n`
    const commit = await this.commitTree(index.tree, index.parent, message)
    const counted = all.files.filter((f) => f !== this.featuresFile && f !== this.progressFile)
    const stat =
      counted.length === all.files.length
        ? all.stat
        : parseNumstat(
            index.numstat
              .split('\n')
              .filter((l) => counted.includes(l.split('\t').slice(2).join('\t')))
              .join('\n')
          ).stat
    return { commit, changedFiles: counted, stat, notes: index.notes, restored }
  }

  async commitFeaturesFile(runId: string, iteration: number, judged: string): Promise<string | null> {
    if (!this.featuresFile) return null
    const index = await this.publishable({ only: this.featuresFile })
    if (parseNumstat(index.numstat).files.length === 0) return null
    const message = `loopgate: record the feature flips the gate verified (iteration ${iteration})\n\nVerified on ${judged}; only ${this.featuresFile} changes.\n\n${TRAILER_RUN}: ${runId}\n${TRAILER_ITERATION}: ${iteration}\n`
    return this.commitTree(index.tree, index.parent, message)
  }

  async hasChangesSince(commit: string): Promise<boolean> {
    const excludes = pathspecExcludes([this.progressFile, ...(this.featuresFile ? [this.featuresFile] : [])])
    return (await this.repo()).differs(commit, 'HEAD', ['.', ...excludes])
  }
}
