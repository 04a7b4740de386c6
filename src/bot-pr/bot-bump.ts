import { isLockfile, manifestKind } from '../ecosystems/registry.js'
import type { GitRepository } from '../git/repository.js'
import type { BotPull } from './bot-pull.js'
import type { PullCommits } from './pull-head.js'
import { manifestBumps, mergedPackages, type BumpedPackage } from './manifest-bumps.js'

export type { BumpedPackage } from './manifest-bumps.js'

/** What the bot bumped, read from its pull request: the bump the agent's work must keep. */
export interface BotBump extends PullCommits {
  /** The manifests and lockfiles the bot's commits changed. */
  dependencyFiles: string[]
  /** Every file the bot's commits changed. */
  files: string[]
  /** The packages and versions, from the dependency files' diff (manifests, else lockfiles) and the title and body. */
  packages: BumpedPackage[]
  /** The pull request's title and body (the bot's text: release notes, changelogs, commits). */
  title: string
  body: string
}

/** Dependabot's "Bumps [name](…) from a to b" and "bump name from a to b" (title, body). */
const VERSION = String.raw`v?([\w+-]+(?:\.[\w+-]+)*)`
const FROM_TO = new RegExp(
  String.raw`\bbumps?\s+\[?([@\w./-]+?)\]?(?:\([^)]*\))?\s+from\s+` + '`?' + VERSION + '`?' + String.raw`\s+to\s+` + '`?' + VERSION,
  'gi'
)
/** Renovate's "update dependency name to v2" (title) and "| [name](…) | `a` -> `b` |" (body table). */
const UPDATE_TO = new RegExp(String.raw`\bupdate\s+(?:dependency|module|package)\s+([@\w./-]+)\s+to\s+` + VERSION, 'gi')
const TABLE_ROW = new RegExp(
  String.raw`^\|\s*\[([@\w./-]+)\]\([^)]*\)[^|]*\|[^|\n]*?` + '`' + VERSION + '`' + String.raw`\s*(?:->|→)\s*` + '`' + VERSION + '`',
  'gim'
)

/** The packages the bot's words name: Dependabot's and Renovate's titles, bodies and tables. */
export function packagesInText(title: string, body: string): BumpedPackage[] {
  const found: BumpedPackage[] = []
  for (const text of [title, body]) {
    for (const m of text.matchAll(FROM_TO)) found.push({ name: m[1], from: m[2], to: m[3] })
    for (const m of text.matchAll(UPDATE_TO)) found.push({ name: m[1], from: null, to: m[2] })
    for (const m of text.matchAll(TABLE_ROW)) found.push({ name: m[1], from: m[2], to: m[3] })
  }
  return found
}

/**
 * The bump as the bot made it: the files its commits changed from the merge base to the head, the
 * manifests' and lockfiles' among them, the packages whose versions moved (from their diff, and the
 * title and body for what it does not say), and the bot's own text.
 */
export async function readBotBump(repository: GitRepository, pull: BotPull, commits: PullCommits): Promise<BotBump> {
  const files = await repository.diffNames({ from: commits.baseCommit, to: commits.headCommit })
  const dependencyFiles = files.filter((f) => isLockfile(f) || manifestKind(f) !== null)
  const fromManifests = await manifestBumps(repository, commits, dependencyFiles)
  return {
    ...commits,
    files,
    dependencyFiles,
    packages: mergedPackages([fromManifests, packagesInText(pull.title, pull.body)]),
    title: pull.title,
    body: pull.body
  }
}
