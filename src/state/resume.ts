import { wipBranchName } from '../git/branches.js'
import { credentialSecrets, fetchEnvFor, scrubCredentials, type FetchCredentials } from '../git/fetch-auth.js'
import type { GitRepository } from '../git/repository.js'
import { knownStopReason, needsEscalation } from '../loop/stop-reasons.js'
import type { LoopState } from './schema.js'

export interface ResumePlan {
  resumed: boolean
  /** The commit the work is measured against: the base, not the WIP head. */
  baseCommit: string
  notes: string[]
  initialEvidence?: string[]
  seedFingerprint?: string | null
}

const short = (c: string): string => c.slice(0, 12)

async function tryGit(repo: GitRepository, args: string[], okCodes: number[] = []): Promise<{ ok: boolean; stdout: string; exitCode: number; error?: string }> {
  try {
    const r = await repo.run(args, { okCodes })
    return { ok: true, stdout: r.stdout, exitCode: r.exitCode }
  } catch (err) {
    return { ok: false, stdout: '', exitCode: -1, error: (err as Error).message }
  }
}

async function commitExists(repo: GitRepository, ref: string): Promise<string | null> {
  return repo.tryRevParse(`${ref}^{commit}`).catch(() => null)
}

/**
 * Fetches the WIP branch from origin when the workspace has one, through the token (a private
 * repository cloned without a persisted credential); a missing branch is no error. In a shallow
 * clone only the WIP's own commits come (it descends from the base the clone holds).
 */
async function fetchWip(repo: GitRepository, branch: string, creds: FetchCredentials): Promise<{ head: string | null; note?: string }> {
  const remote = await tryGit(repo, ['remote', 'get-url', 'origin'], [2])
  if (!remote.ok || remote.exitCode !== 0) return { head: null }
  const ref = `refs/remotes/origin/${branch}`
  const env = await fetchEnvFor(repo, creds)
  const fetched = await repo.fetch('origin', [`+refs/heads/${branch}:${ref}`], { env, secrets: credentialSecrets(creds) }).then(
    () => ({ ok: true, error: undefined }),
    (err: Error) => ({ ok: false, error: err.message })
  )
  if (!fetched.ok) {
    const missing = /couldn't find remote ref|not our ref/i.test(fetched.error ?? '')
    return { head: null, note: missing ? undefined : `could not fetch ${branch} from origin: ${scrubCredentials(fetched.error ?? '', creds)}` }
  }
  return { head: await commitExists(repo, ref) }
}

/** The workspace's repository to resume in (its held one while loopgate holds it), the loop and its restored state, and the credentials of the fetch. */
interface ResumeRequest {
  repository: GitRepository
  loopId: string
  state: LoopState
  creds?: FetchCredentials
  /** False: start from the base even when there is work to resume (said so). */
  resume?: boolean
  words?: ResumeWords
}

/** How the resume is said to the person reading the log: the branch they can see, how to look at it, how to start fresh. */
export interface ResumeWords {
  /** The branch that holds the work where the user can see it (the CLI's `loopgate/<loop-id>`); the WIP branch by default. */
  branch?: string
  /** A command that shows the work, e.g. `git log main..loopgate/local`. */
  look?: string
  /** How to start from the base instead, e.g. `--fresh` or `resume: false`. */
  fresh: string
}

const ACTION_WORDS: ResumeWords = { fresh: 'set the input `resume: false`' }

/** The first thing a resumed run says: what stopped, where its work is, how to look at it, how not to resume. */
function resumingHeadline(stopReason: string, where: string, words: ResumeWords): string {
  const look = words.look ? ` (${words.look} shows it)` : ''
  return `Resuming unfinished work: the last run stopped with ${stopReason}, and this run starts from its work on ${where}${look}. To start from the base instead: ${words.fresh}.`
}

/**
 * After an escalation or a cap, starts from the WIP branch with the last evidence, unless the base
 * moved in a way that conflicts with it (then fresh, and a note says why). Runs before any spend.
 * `creds` authenticate the fetch (the `github-token` input; see git/fetch-auth.ts).
 */
export async function prepareResume({
  repository: repo,
  loopId,
  state,
  creds = { env: {} },
  resume = true,
  words = ACTION_WORDS
}: ResumeRequest): Promise<ResumePlan> {
  const base = await repo.head()
  const fresh = (notes: string[]): ResumePlan => ({ resumed: false, baseCommit: base, notes })
  const last = state.runs[state.runs.length - 1]
  // A reason this version does not know (another version wrote it) never resumes: start fresh.
  const lastReason = last && knownStopReason(last.stopReason)
  if (!state.wip || !last || !lastReason || !needsEscalation(lastReason)) return fresh([])
  const branch = state.wip.branch || wipBranchName(loopId)
  const shown = words.branch ?? branch
  if (!resume)
    return fresh([`Starting from the base, as asked: the unfinished work of the last run (it stopped with ${last.stopReason}; on ${shown}) is not resumed.`])
  const notes: string[] = []

  const fetched = await fetchWip(repo, branch, creds)
  if (fetched.note) notes.push(fetched.note)
  const wipHead = fetched.head ?? (await commitExists(repo, state.wip.head))
  if (!wipHead) return fresh([...notes, `Not resumed: the WIP branch ${branch} (${short(state.wip.head)}) was not found; starting fresh.`])
  if (fetched.head && fetched.head !== state.wip.head)
    notes.push(`The WIP branch ${branch} moved since the last run (${short(state.wip.head)} → ${short(fetched.head)}); resuming from its head.`)

  const baseIsInWip = (await tryGit(repo, ['merge-base', '--is-ancestor', base, wipHead], [1])).exitCode === 0
  if (baseIsInWip) {
    const co = await tryGit(repo, ['checkout', '--quiet', '--detach', wipHead])
    if (!co.ok) return fresh([...notes, `Not resumed: could not check out ${branch}: ${co.error}; starting fresh.`])
  } else {
    const merged = await tryGit(repo, ['merge-tree', '--write-tree', '--name-only', '--no-messages', wipHead, base], [1])
    if (!merged.ok) return fresh([...notes, `Not resumed: could not compare ${branch} with the base: ${merged.error}; starting fresh.`])
    if (merged.exitCode === 1) {
      const files = merged.stdout.trim().split('\n').slice(1).filter(Boolean)
      return fresh([
        ...notes,
        `Not resumed: the base moved (${short(state.wip.base)} → ${short(base)}) and conflicts with the WIP branch ${branch}${files.length ? ` in ${files.slice(0, 10).join(', ')}` : ''}; starting fresh.`
      ])
    }
    const co = await tryGit(repo, ['checkout', '--quiet', '--detach', wipHead])
    const merge = co.ok ? await tryGit(repo, ['merge', '--quiet', '--no-edit', '--no-ff', '-m', 'loopgate: merge the moved base into the WIP', base]) : co
    if (!merge.ok) {
      await tryGit(repo, ['merge', '--abort'])
      await tryGit(repo, ['checkout', '--quiet', '--detach', base])
      return fresh([...notes, `Not resumed: could not merge the moved base into ${branch}: ${merge.error}; starting fresh.`])
    }
    notes.push(`The base moved (${short(state.wip.base)} → ${short(base)}) without conflicts; merged it into the WIP.`)
  }
  notes.unshift(resumingHeadline(last.stopReason, `${shown} (${short(wipHead)})`, words))
  return {
    resumed: true,
    baseCommit: base,
    notes,
    initialEvidence: [
      `this run resumes the work of an earlier run (${last.runId}) that stopped with ${last.stopReason}; its commits are already in the workspace`,
      ...(state.lastFailure?.evidence ?? [])
    ],
    seedFingerprint: state.lastFailure?.fingerprint ?? null
  }
}
