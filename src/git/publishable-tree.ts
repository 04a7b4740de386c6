import type { GitRepository } from './repository.js'
import { mayBePreRunAddition, unchangedPreRunAdditions, type PreRunFiles } from './pre-run-files.js'
import { nestedRepositories } from './status.js'

/**
 * The one tree loopgate may publish. Every commit — an iteration's, the features file's, the post
 * step's after a kill, the CLI's, and loopgate's own setup and bump commits (see commitPublishable)
 * — is made from the tree this module returns, so a rule added here holds for all of them:
 * - protected paths are the base's bytes (a protected file edited or deleted is put back, one added
 *   under a protected glob is removed), in the workspace and in the tree;
 * - no change under `.github/workflows/` (nor to `.github` or `.github/workflows` themselves) is ever
 *   in it, whatever `protected-paths` says: such changes stay in the workspace, out of the commit;
 * - nested repositories, loopgate's progress file, the features file (except in its own commit)
 *   and the files that were untracked or ignored before the first call (unless the agent changed
 *   them) stay out.
 */

/** A protected path the agent changed, put back to the base's bytes. */
interface RevertedPath {
  path: string
  /** modified, added, deleted, mode changed, replaced by a symlink, … */
  change: string
}

/** What the tree is held to: the base's protected paths, as the run snapshotted them before the first call. */
export interface PublishRules {
  /** Puts each protected path among `changed` (paths of the folder `dir`) back to the base's bytes; returns those it put back. */
  revertProtected(dir: string, changed: readonly string[]): RevertedPath[]
}

/** The workspace as loopgate's own git sees it (its git directory, its author), and loopgate's files in it. */
export interface TreeSource {
  dir: string
  /** loopgate's repository of the workspace, once its last commit's ref update is done. */
  repo: () => Promise<GitRepository>
  head: () => Promise<string>
  progressFile?: string
  featuresFile?: string
  preRun: () => Promise<PreRunFiles | null>
}

export interface TreeRequest {
  /** The paths a `git status` reported changed after the call (scanned here when not given). */
  changed?: readonly string[]
  /** Only this path goes in (the features file's own commit); else every change but the features file. */
  only?: string
}

export interface PublishableTree {
  tree: string
  parent: string
  /** `git diff --cached --numstat` of the tree against its parent. */
  numstat: string
  /** The protected paths put back to the base's bytes before staging. */
  reverted: RevertedPath[]
  /** What was kept out, in a line each. */
  notes: string[]
}

const WORKFLOWS = '.github/workflows'

function pathspecExcludes(paths: string[]): string[] {
  return paths.map((p) => `:(exclude,literal)${p}`)
}

/** A path whose change could add, change or remove a workflow: the folder, its parent as a whole, anything under it. */
export function touchesWorkflows(file: string): boolean {
  return file === '.github' || file === WORKFLOWS || file.startsWith(`${WORKFLOWS}/`)
}

/**
 * Stages `paths` by name (its cost grows with the change, not the tree); everything when a name
 * is not valid UTF-8 or git refuses one (a path now beyond a link). Nested repositories never.
 */
async function stage(source: TreeSource, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return []
  const nested = nestedRepositories(paths)
  const named = paths.filter((p) => !nested.includes(p))
  const repo = await source.repo()
  const everything = ['.', ...pathspecExcludes(nested)]
  if (named.some((p) => p.includes('\ufffd'))) {
    await repo.addAll(everything)
    return nested
  }
  if (named.length === 0) return nested
  const staged = await repo.updateIndex(['--add', '--remove'], named)
  if (staged.exitCode !== 0) await repo.addAll(everything)
  return nested
}

/** The index against HEAD, the tree it would commit, and HEAD itself (read side by side). */
async function readStaged(source: TreeSource): Promise<{ numstat: string; tree: string; parent: string }> {
  const repo = await source.repo()
  const [staged, tree, parent] = await Promise.all([repo.run(['diff', '--cached', '--numstat', '--no-renames']), repo.writeTree(), source.head()])
  return { numstat: staged.stdout, tree, parent }
}

function numstatFiles(numstat: string): string[] {
  return numstat
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t').slice(2).join('\t'))
}

/** Staged files that stay out: loopgate's own files, and pre-run files as they were before the first call. */
async function loopgateAndPreRunFiles(source: TreeSource, staged: string[], only?: string): Promise<string[]> {
  const own = [source.progressFile, only ? undefined : source.featuresFile].filter((f): f is string => !!f && staged.includes(f))
  const preRun = await source.preRun()
  if (!preRun || !staged.some((f) => mayBePreRunAddition(f, preRun))) return own
  const raw = await (await source.repo()).run(['diff', '--cached', '--raw', '-z', '--no-abbrev', '--no-renames', '--diff-filter=A'])
  return [...own, ...unchangedPreRunAdditions(raw.stdout, preRun).filter((f) => !own.includes(f))]
}

/** The workflow folder (or `.github` whole, when its own entry changed) when the index changes it. */
async function workflowChanges(source: TreeSource, candidates: readonly string[]): Promise<string[]> {
  if (!candidates.some((p) => p === '.github' || p.startsWith('.github/'))) return []
  const names = (await (await source.repo()).diffNames({}, [':(literal).github'])).filter(touchesWorkflows)
  if (names.length === 0) return []
  return names.includes('.github') ? ['.github'] : [WORKFLOWS]
}

async function resetToHead(source: TreeSource, paths: string[]): Promise<void> {
  await (await source.repo()).resetPaths(paths)
}

function describe(reverted: RevertedPath[], nested: string[], workflows: string[]): string[] {
  const notes: string[] = []
  if (reverted.length)
    notes.push(`protected paths put back to the base before the commit: ${reverted.map((t) => `${t.path} (${t.change})`).join(', ')}`.slice(0, 2000))
  if (nested.length) notes.push(`nested repositories are not committed: ${nested.slice(0, 10).join(', ')}`)
  if (workflows.length) notes.push(`workflow files are never committed by loopgate: the changes under ${workflows[0]} stay in the workspace only`)
  return notes
}

/**
 * The one function every commit of the agent's work goes through: applies the rules above to the
 * workspace and loopgate's index, and returns the tree to commit on HEAD.
 */
export async function publishableTree(source: TreeSource, rules: PublishRules, request: TreeRequest = {}): Promise<PublishableTree> {
  const changed = request.only ? [request.only] : (request.changed ?? (await (await source.repo()).statusPorcelain()))
  const reverted = rules.revertProtected(source.dir, changed)
  const candidates = [...new Set([...changed, ...reverted.map((t) => t.path)])]
  const nested = await stage(source, candidates)
  let index = await readStaged(source)
  const own = await loopgateAndPreRunFiles(source, numstatFiles(index.numstat), request.only)
  const workflows = await workflowChanges(source, candidates)
  if (own.length || workflows.length) {
    await resetToHead(source, [...own, ...workflows])
    index = await readStaged(source)
  }
  return { ...index, reverted, notes: describe(reverted, nested, workflows) }
}

/** loopgate's own change (the setup commit's restore, the bump): nothing in it is put back to the base. */
export const OWN_CHANGE: PublishRules = { revertProtected: () => [] }

/** The source of loopgate's own commit before the first call: no pre-run record applies yet. */
export function ownCommitSource(repo: GitRepository, progressFile?: string): TreeSource {
  return { dir: repo.dir, repo: async () => repo, head: () => repo.head(), progressFile, preRun: async () => null }
}

/** A commit of the publishable tree on HEAD, HEAD moved to it (expecting the parent it read); null when the tree changes nothing. */
export async function commitPublishable(
  source: TreeSource,
  rules: PublishRules,
  request: TreeRequest & { message: string }
): Promise<{ commit: string | null; tree: PublishableTree }> {
  const tree = await publishableTree(source, rules, request)
  if (!tree.numstat.trim()) return { commit: null, tree }
  const repo = await source.repo()
  const commit = await repo.commitTree(tree.tree, [tree.parent], request.message)
  await repo.updateRef('HEAD', commit, { expect: tree.parent, message: `commit: ${request.message.split('\n')[0]}` })
  return { commit, tree }
}
