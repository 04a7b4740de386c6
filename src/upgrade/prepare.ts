import { createHash } from 'node:crypto'
import { ProtectedPaths } from '../gate/protection/protected-paths.js'
import { LOCAL_AUTHOR } from '../git/author.js'
import type { CommitAuthor } from '../settings.js'
import type { GitRepository } from '../git/repository.js'
import { commitPublishable, OWN_CHANGE, ownCommitSource } from '../git/publishable-tree.js'
import { ConfigError } from '../errors.js'
import { type GateSettings, type PublishSettings, type TaskSettings, type WorkspaceSettings } from '../settings.js'
import type { StopReason } from '../loop/stop-reasons.js'
import type { GateVerdict } from '../loop/engine-types.js'
import type { UpgradeAttempt } from '../state/schema.js'
import { parseIgnoreRule, type IgnoreRule } from './ignore.js'
import { UPGRADE_MANAGERS } from '../ecosystems/registry.js'
import { blockingAttempt, describeAttempt, upgradeCandidates, type BaseEvidence } from './select.js'
import type { OutdatedReport, PackageManager, UpgradeCandidate } from '../ecosystems/types.js'

/** Bumps the package manager may refuse in one run before loopgate gives up on the run. */
const MAX_BUMPS_PER_RUN = 5

/** The upgrade is bumped and committed; the gate judges the bumped tree next. */
export interface UpgradeReady {
  kind: 'ready'
  manager: PackageManager
  candidate: UpgradeCandidate
  /** The commit before the bump: the upgrade's work is measured from here. */
  baseCommit: string
  /** loopgate's own commit of the bump (`chore(deps): bump …`). */
  bumpCommit: string
  /** The files the bump commit changed (manifest, lockfile). */
  bumpFiles: string[]
  evidence: BaseEvidence
  releaseNotes: string[]
  notes: string[]
  /** Bumps the package manager refused on the way, remembered so they are not retried on this base. */
  attempts: UpgradeAttempt[]
}

interface UpgradeNothingToDo {
  kind: 'stop'
  /** `config-error`: the package manager could not list what is outdated (an unreachable registry, a manifest it cannot read). */
  stopReason: 'nothing-to-do' | 'config-error'
  notes: string[]
  attempts: UpgradeAttempt[]
}

interface PrepareOptions {
  /** The attempts the loop's state remembers. */
  attempts: readonly UpgradeAttempt[]
  /** The package manager's environment (see packageManagerEnv). */
  env: NodeJS.ProcessEnv
  runId: string
  signal?: AbortSignal
  now?: () => Date
  /** The workspace's repository, through loopgate's own git directory (the run holds it). */
  repository: GitRepository
}

export function bumpMessage(c: Pick<UpgradeCandidate, 'name' | 'from' | 'to'>): string {
  return `chore(deps): bump ${c.name} from ${c.from} to ${c.to}`
}

/** The work branch of one upgrade, so each upgrade gets a pull request of its own. */
export function upgradeBranch(loopId: string, c: Pick<UpgradeCandidate, 'name' | 'to'>): string {
  const slug = `${c.name.replace(/^@/, '')}-${c.to}`
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/\.lock$/, '-lock')
  return `loopgate/${loopId}-bump-${slug}`
}

/** A hash of the protected files at HEAD (tests and their runner config): changed tests are new evidence. */
async function protectedTestsHash(repository: GitRepository, patterns: readonly string[]): Promise<string> {
  const paths = new ProtectedPaths(patterns)
  const hash = createHash('sha256')
  for (const entry of (await repository.lsTreeRecords('HEAD', { recursive: true })).sort()) {
    const tab = entry.indexOf('\t')
    if (paths.kind(entry.slice(tab + 1)) === 'file') hash.update(`${entry}\n`)
  }
  return hash.digest('hex').slice(0, 32)
}

/** The bump files loopgate may stage: those that exist now or are tracked at HEAD. */
async function bumpPathspecs(repository: GitRepository, files: readonly string[]): Promise<string[]> {
  const tracked = (await repository.lsTree('HEAD', { paths: [...files] })).map((e) => e.path)
  const changed = await repository.statusPaths(files.map((f) => `:(literal)${f}`))
  return [...new Set([...tracked, ...changed])].filter((f) => files.includes(f)).map((f) => `:(literal)${f}`)
}

/** Puts the bump files back as HEAD has them after a refused bump. */
async function undoBump(repository: GitRepository, files: readonly string[]): Promise<void> {
  const specs = await bumpPathspecs(repository, files)
  if (specs.length === 0) return
  await repository.revertToHead(specs)
}

/** The bump to commit: the workspace's repository, the files the package manager may change, the candidate and the author. */
interface BumpCommit {
  repository: GitRepository
  files: readonly string[]
  candidate: UpgradeCandidate
  author?: CommitAuthor
}

/**
 * Commits the bump through the publishable tree: the files among `files` git reports changed (not
 * ignored ones), never a nested repository nor a workflow file whatever the package manager wrote
 * or named. Null when none of the bump files changed.
 */
export async function commitBump({ repository, files, candidate, author = LOCAL_AUTHOR }: BumpCommit): Promise<{ commit: string; files: string[] } | null> {
  const specs = await bumpPathspecs(repository, files)
  if (specs.length === 0) return null
  const changed = await repository.statusPaths(specs, { renames: false })
  if (changed.length === 0) return null
  const source = ownCommitSource(repository.withAuthor(author))
  const { commit, tree } = await commitPublishable(source, OWN_CHANGE, { changed, message: bumpMessage(candidate) })
  if (!commit) return null
  const staged = tree.numstat
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t').slice(2).join('\t'))
  return { commit, files: staged }
}

/** What a dependency upgrade reads: its task inputs, the workspace, the protected paths and the bump's author. */
export type UpgradeSettings = Pick<TaskSettings, 'task' | 'ignore' | 'allowMajor'> &
  WorkspaceSettings &
  Pick<GateSettings, 'protectedPaths'> &
  Pick<PublishSettings, 'commitAuthor'>

/** The upgrade manager of the workspace's ecosystem, the first whose detection answers. */
function detectManager(settings: UpgradeSettings): PackageManager {
  const manager = UPGRADE_MANAGERS.find((m) => m.detect(settings.workspace))
  if (manager) return manager
  const declined = UPGRADE_MANAGERS.map((m) => m.declined?.(settings.workspace) ?? null).find((why) => why !== null)
  if (declined) {
    throw new ConfigError('task', settings.task ?? '', `a project whose package manager loopgate can upgrade with (${declined}; it never falls back to npm)`)
  }
  throw new ConfigError(
    'task',
    settings.task ?? '',
    `a workspace holding a project loopgate can upgrade (${[...new Set(UPGRADE_MANAGERS.map((m) => m.name))].join(', ')}: no package.json that npm, pnpm or Yarn manages, no poetry.lock or uv.lock, nor a requirements.txt with an exact pin or a pyproject.toml with a versioned requirement, found)`
  )
}

/** One upgrade's search: what it starts from and where its notes and refused bumps go. */
interface Search {
  settings: UpgradeSettings
  opts: PrepareOptions
  manager: PackageManager
  baseCommit: string
  evidence: BaseEvidence
  notes: string[]
  attempts: UpgradeAttempt[]
}

function refusedBump(search: Search, c: UpgradeCandidate): UpgradeAttempt {
  const now = search.opts.now ?? (() => new Date())
  return {
    package: c.name,
    from: c.from,
    target: c.to,
    baseCommit: search.baseCommit,
    ...search.evidence,
    outcome: 'bump-failed',
    fingerprint: null,
    runId: search.opts.runId,
    at: now().toISOString()
  }
}

/** Bumps the first candidate the package manager accepts and commits it; null when none is left. */
async function bumpFirst(search: Search, candidates: readonly UpgradeCandidate[]): Promise<UpgradeReady | null> {
  const { settings, opts, manager, notes } = search
  const workspace = settings.workspace
  let bumps = 0
  for (const candidate of candidates) {
    const blocker = blockingAttempt({ attempts: opts.attempts, candidate, base: search.evidence, versions: manager.versions })
    if (blocker) {
      notes.push(`not upgraded: ${candidate.name} ${candidate.from} → ${candidate.to}: ${describeAttempt(blocker)}`)
      continue
    }
    if (bumps++ >= MAX_BUMPS_PER_RUN) break
    const bumped = await manager.bump({ workspace, candidate, env: opts.env, signal: opts.signal })
    const files = bumped.files ?? manager.bumpFiles
    const committed = bumped.ok ? await commitBump({ repository: opts.repository, files, candidate, author: settings.commitAuthor }) : null
    if (!committed) {
      const why = bumped.ok ? `${manager.name} changed none of ${files.join(', ')}` : bumped.message
      notes.push(`not upgraded: ${candidate.name} ${candidate.from} → ${candidate.to}: ${why}`)
      search.attempts.push(refusedBump(search, candidate))
      await undoBump(opts.repository, files)
      continue
    }
    notes.push(`${bumpMessage(candidate)} (${candidate.kind}): committed by loopgate as ${committed.commit.slice(0, 12)} before any agent call`)
    const releaseNotes = await manager.releaseNotes({ workspace, candidate, env: opts.env, signal: opts.signal }).catch(() => [])
    return {
      kind: 'ready',
      manager,
      candidate: { ...candidate, installedCopy: manager.installedCopy(candidate, workspace) },
      baseCommit: search.baseCommit,
      bumpCommit: committed.commit,
      bumpFiles: committed.files,
      evidence: search.evidence,
      releaseNotes,
      notes,
      attempts: search.attempts
    }
  }
  return null
}

/**
 * The start of a dependency-upgrade run, before any agent call: lists what is outdated with the
 * ecosystem's own tool, picks the next candidate the inputs and the remembered attempts allow,
 * and bumps manifest and lockfile with the package manager as loopgate's own commit. Runs as
 * loopgate, in the workspace, before the agent has run: it reads only the user's files.
 */
export async function prepareUpgrade(settings: UpgradeSettings, opts: PrepareOptions): Promise<UpgradeReady | UpgradeNothingToDo> {
  const workspace = settings.workspace
  const manager = detectManager(settings)
  const ignore = settings.ignore.map(parseIgnoreRule).filter((r): r is IgnoreRule => typeof r !== 'string')
  const baseCommit = await opts.repository.head()
  const evidence: BaseEvidence = {
    lockfileHash: manager.lockfileHash(workspace),
    testsHash: await protectedTestsHash(opts.repository, settings.protectedPaths)
  }

  const lookup = await lookUpOutdated(manager, { workspace, opts })
  if ('stop' in lookup) return lookup.stop
  const { dependencies: outdated, notes: lookupNotes } = lookup
  const { candidates, skipped } = upgradeCandidates(outdated, { ignore, allowMajor: settings.allowMajor, versions: manager.versions })
  const search: Search = { settings, opts, manager, baseCommit, evidence, notes: [...lookupNotes, ...skipped.map((s) => `not upgraded: ${s}`)], attempts: [] }
  const ready = await bumpFirst(search, candidates)
  if (ready) return ready
  const what = outdated.length === 0 ? 'no dependency is outdated' : 'no outdated dependency is left to try'
  return { kind: 'stop', stopReason: 'nothing-to-do', notes: [`dependency-upgrade: ${what}; nothing was spent.`, ...search.notes], attempts: search.attempts }
}

/**
 * What the package manager lists as outdated; a lookup that fails (an unreachable registry, a
 * manifest it cannot read) stops the run before anything is spent, naming the manager and what it said.
 */
async function lookUpOutdated(
  manager: PackageManager,
  { workspace, opts }: { workspace: string; opts: PrepareOptions }
): Promise<OutdatedReport | { stop: UpgradeNothingToDo }> {
  try {
    return await manager.outdated(workspace, opts.env, opts.signal)
  } catch (err) {
    // A ConfigError already names the input or tool to fix: it stops the run as config-error as it is.
    if (opts.signal?.aborted || err instanceof ConfigError) throw err
    const said = (err instanceof Error ? err.message : String(err)).trim()
    const note = `dependency-upgrade: ${manager.name} could not list the outdated dependencies: ${said}. Check that the registry is reachable from the runner and that its address and credentials reach the package manager (its configuration file, or the variables named in agent-env); nothing was spent.`
    return { stop: { kind: 'stop', stopReason: 'config-error', notes: [note], attempts: [...opts.attempts] } }
  }
}

/** Stop reasons that say nothing about the upgrade itself: it may be tried again on the same base. */
const NOT_JUDGED: ReadonlySet<StopReason> = new Set(['cancelled', 'period-ceiling', 'review-capacity', 'state-corrupt', 'config-error', 'gate-broken'])

/**
 * Whether a run judged its upgrade (else it may be tried again on the same base): by its stop
 * reason, or, cancelled, once an agent call ran and the gate failed after it — as far as it got,
 * that is evidence against the upgrade, as after a kill (see interrupted.ts).
 */
export function judgesTheUpgrade(stopReason: StopReason, end: { calls: number; lastGateFailed: boolean } = { calls: 0, lastGateFailed: false }): boolean {
  if (stopReason === 'cancelled') return end.calls > 0 && end.lastGateFailed
  return !NOT_JUDGED.has(stopReason)
}

/** A prepared upgrade, how its run ended, the run's id and the time to stamp the attempt with. */
interface UpgradeSettlement {
  ready: UpgradeReady
  end: { stopReason: StopReason; lastVerdict: GateVerdict | null; calls: number }
  runId: string
  now?: Date
}

/** The attempts this run adds to the loop's state, once its stop reason is known. */
export function settleUpgrade({ ready, end, runId, now = new Date() }: UpgradeSettlement): UpgradeAttempt[] {
  const { stopReason, lastVerdict } = end
  if (!judgesTheUpgrade(stopReason, { calls: end.calls, lastGateFailed: lastVerdict?.passed === false })) return ready.attempts
  const c = ready.candidate
  return [
    ...ready.attempts,
    {
      package: c.name,
      from: c.from,
      target: c.to,
      baseCommit: ready.baseCommit,
      ...ready.evidence,
      outcome: stopReason === 'verified' ? 'verified' : 'failed',
      fingerprint: lastVerdict && !lastVerdict.passed ? lastVerdict.fingerprint : null,
      runId,
      at: now.toISOString()
    }
  ]
}
