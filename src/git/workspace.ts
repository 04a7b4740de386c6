import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { DiffStat, IterationChange, Workspace } from '../loop/types.js'
import { LOCAL_AUTHOR, type CommitAuthor } from './author.js'
import { git, gitEnv } from './git.js'
import { mayBePreRunAddition, readPreRunFiles, recordPreRunFiles, unchangedPreRunAdditions, type PreRunFiles } from './pre-run-files.js'
import { changedInWorkTree, nestedRepositories } from './status.js'

export const TRAILER_RUN = 'Loopgate-Run'
export const TRAILER_ITERATION = 'Loopgate-Iteration'

/**
 * Whether commit `sha`, as git reads it in `cwd`, carries loopgate's run trailer: the mark of a
 * commit loopgate made. Null when git cannot read the commit there.
 */
export async function carriesRunTrailer(cwd: string, sha: string): Promise<boolean | null> {
  const r = await git(['log', '-1', '--format=%B', '--end-of-options', sha], { cwd, okCodes: [128] }).catch(() => null)
  if (!r || r.exitCode !== 0) return null
  return new RegExp(`^${TRAILER_RUN}: `, 'm').test(r.stdout)
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

/**
 * The agent's workspace as loopgate's git sees it. The progress file is never committed; the
 * features file only by commitFeaturesFile, and it is left out of the progress comparison. Files
 * that were untracked before the first call are committed only once the agent changed them (see
 * pre-run-files.ts).
 */
export interface GitWorkspaceOptions {
  /** Author and committer of loopgate's commits. */
  author?: CommitAuthor
  /** More files kept out of commits (credentials files a provider step wrote into the workspace). */
  exclude?: string[]
}

export class GitWorkspace implements Workspace {
  private preRun: PreRunFiles | null | undefined
  private knownHead: string | undefined
  /**
   * The ref update of loopgate's last commit: it goes on while the gate checks that commit out
   * (the gate reads the commit, never the ref), and every later git step here waits for it, so a
   * ref update that failed fails the next one.
   */
  private refUpdate: Promise<unknown> = Promise.resolve()

  constructor(
    readonly dir: string,
    private readonly progressFile: string,
    private readonly featuresFile?: string,
    private readonly opts: GitWorkspaceOptions = {}
  ) {}

  private async run(args: string[], okCodes?: number[]) {
    await this.refUpdate
    return git(args, { cwd: this.dir, okCodes, env: gitEnv(this.opts.author ?? LOCAL_AUTHOR) })
  }

  /** Keeps the progress file (and the excluded files) out of `git status` and commits; records the pre-run untracked files. Before the first call. */
  async prepare(): Promise<void> {
    // HEAD is read here too: nothing commits between this and the first call.
    const [gitDir, head] = (await this.run(['rev-parse', '--absolute-git-dir', 'HEAD'])).stdout.trim().split('\n')
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
    this.preRun = await recordPreRunFiles(this.dir)
  }

  /**
   * HEAD, as loopgate's own last commit left it (read from git once, and after a commit git made).
   * A HEAD moved by anything else is caught where it matters: the next commit's ref update names
   * the parent it expects and fails.
   */
  async head(): Promise<string> {
    await this.refUpdate
    this.knownHead ??= (await this.run(['rev-parse', 'HEAD'])).stdout.trim()
    return this.knownHead
  }

  /**
   * Stages what changed: the paths one `git status` reports (the tamper check's, when it ran),
   * handed to git by name so it looks at nothing else (its cost grows with the change, not the
   * tree); everything when a name is not valid UTF-8 or git refuses one (a path now beyond a link).
   */
  private async stageChanges(reported?: readonly string[]): Promise<string[]> {
    const changed = reported ?? (await changedInWorkTree(this.dir))
    if (changed.length === 0) return []
    const nested = nestedRepositories(changed)
    const named = changed.filter((p) => !nested.includes(p))
    const everything = ['add', '-A', '--', '.', ...pathspecExcludes(nested)]
    if (named.some((p) => p.includes('\ufffd'))) {
      await this.run(everything)
      return nested
    }
    if (named.length === 0) return nested
    const staged = await git(['update-index', '--add', '--remove', '-z', '--stdin'], {
      cwd: this.dir,
      env: gitEnv(this.opts.author ?? LOCAL_AUTHOR),
      input: `${named.join('\0')}\0`,
      okCodes: [1, 128]
    })
    if (staged.exitCode !== 0) await this.run(everything)
    return nested
  }

  /** The pre-run record, read once: loopgate wrote it before the first call and nothing else does. */
  private async preRunFiles(): Promise<PreRunFiles | null> {
    if (this.preRun === undefined) this.preRun = await readPreRunFiles(this.dir)
    return this.preRun
  }

  /** What the index holds against HEAD, with the tree it would commit and HEAD itself (read side by side). */
  private async readStaged(): Promise<{ staged: string; tree: string; parent: string }> {
    const [staged, written, parent] = await Promise.all([this.run(['diff', '--cached', '--numstat', '--no-renames']), this.run(['write-tree']), this.head()])
    return { staged: staged.stdout, tree: written.stdout.trim(), parent }
  }

  /** A commit of `tree` on top of `parent`, without a second scan of the work tree; HEAD moves to it in the background (see refUpdate). */
  private async commitTree(tree: string, parent: string, message: string): Promise<string> {
    const commit = (
      await git(['commit-tree', tree, '-p', parent, '-F', '-'], { cwd: this.dir, input: message, env: gitEnv(this.opts.author ?? LOCAL_AUTHOR) })
    ).stdout.trim()
    this.refUpdate = this.run(['update-ref', '-m', `commit: ${message.split('\n')[0]}`, 'HEAD', commit, parent])
    this.refUpdate.catch(() => undefined)
    this.knownHead = commit
    return commit
  }

  /** Commits what the agent changed (see stageChanges). HEAD moves in the background: read it through head(). */
  async commitIteration(runId: string, iteration: number, changed?: readonly string[]): Promise<IterationChange> {
    const nested = await this.stageChanges(changed)
    const notes = nested.length ? [`nested repositories are not committed: ${nested.slice(0, 10).join(', ')}`] : []
    let index = await this.readStaged()
    const stagedFiles = parseNumstat(index.staged).files
    // The progress notes never go into loopgate's commits, even when the user tracks the file; the
    // features file only through commitFeaturesFile, so a flip the gate did not verify never does.
    const leftOut = [this.progressFile, this.featuresFile].filter((f): f is string => !!f && stagedFiles.includes(f))
    const preRun = await this.preRunFiles()
    if (preRun && stagedFiles.some((f) => mayBePreRunAddition(f, preRun))) {
      const raw = await this.run(['diff', '--cached', '--raw', '-z', '--no-abbrev', '--no-renames', '--diff-filter=A'])
      leftOut.push(...unchangedPreRunAdditions(raw.stdout, preRun).filter((f) => !leftOut.includes(f)))
    }
    if (leftOut.length > 0) {
      await git(['--literal-pathspecs', 'reset', '-q', '--pathspec-from-file=-', '--pathspec-file-nul'], { cwd: this.dir, input: `${leftOut.join('\0')}\0` })
      index = await this.readStaged()
    }
    const all = parseNumstat(index.staged)
    if (all.files.length === 0) return { commit: null, changedFiles: [], stat: { files: 0, insertions: 0, deletions: 0 }, notes }
    const message = `loopgate: iteration ${iteration}\n\n${TRAILER_RUN}: ${runId}\n${TRAILER_ITERATION}: ${iteration}\n`
    const commit = await this.commitTree(index.tree, index.parent, message)
    const counted = all.files.filter((f) => f !== this.featuresFile && f !== this.progressFile)
    const stat =
      counted.length === all.files.length
        ? all.stat
        : parseNumstat(
            index.staged
              .split('\n')
              .filter((l) => counted.includes(l.split('\t').slice(2).join('\t')))
              .join('\n')
          ).stat
    return { commit, changedFiles: counted, stat, notes }
  }

  async commitFeaturesFile(runId: string, iteration: number, judged: string): Promise<string | null> {
    if (!this.featuresFile) return null
    const spec = `:(literal)${this.featuresFile}`
    await this.run(['add', '--', spec])
    if ((await this.run(['diff', '--cached', '--quiet', 'HEAD', '--', spec], [1])).exitCode === 0) return null
    const message = `loopgate: record the feature flips the gate verified (iteration ${iteration})\n\nVerified on ${judged}; only ${this.featuresFile} changes.\n\n${TRAILER_RUN}: ${runId}\n${TRAILER_ITERATION}: ${iteration}\n`
    this.knownHead = undefined
    await this.run(['commit', '-q', '--no-verify', '-m', message, '--only', '--', spec])
    return this.head()
  }

  async hasChangesSince(commit: string): Promise<boolean> {
    const excludes = pathspecExcludes([this.progressFile, ...(this.featuresFile ? [this.featuresFile] : [])])
    const r = await this.run(['diff', '--quiet', commit, 'HEAD', '--', '.', ...excludes], [1])
    return r.exitCode === 1
  }
}
