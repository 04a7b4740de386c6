import { credentialSecrets, fetchEnvFor } from '../git/fetch-auth.js'
import type { GitRepository } from '../git/repository.js'
import type { BotPull } from './bot-pull.js'

/** How deep a shallow checkout is fetched: enough for a bot's commits over their base. */
const SHALLOW_DEPTH = 200

/** The bot's pull request in the workspace: the commit its bump starts from and its head. */
export interface PullCommits {
  /** Where the pull request's branch left its base (the merge base): the bump starts here. */
  baseCommit: string
  /** The pull request's head: the bump as the bot made it. */
  headCommit: string
}

/** The pull request's branch is no longer at the head the check failed on: the newer head's checks decide. */
export class PullMovedOn extends Error {}

/** What the fetch authenticates with: the `github-token` input, else the persisted credential. */
interface HeadFetch {
  repository: GitRepository
  workspace: string
  token: string
  env: NodeJS.ProcessEnv
}

/**
 * Fetches the pull request's head and base branches from origin through the token, whatever the
 * workflow checked out (a workflow_run checks out the default branch), and checks the head out
 * detached: the run starts on the bot's commit. Throws when the head moved on or there is no
 * common history.
 */
export async function checkOutPullHead(fetch: HeadFetch, pull: BotPull): Promise<PullCommits> {
  const { repository } = fetch
  const creds = { token: fetch.token || undefined, env: fetch.env }
  const env = await fetchEnvFor(repository, creds)
  const depth = (await repository.isShallow()) ? SHALLOW_DEPTH : undefined
  const refs = [pull.headBranch, pull.baseBranch].map((b) => `+refs/heads/${b}:refs/remotes/origin/${b}`)
  await repository.fetch('origin', refs, { env, depth, secrets: credentialSecrets(creds) })
  const head = await repository.revParse(`refs/remotes/origin/${pull.headBranch}^{commit}`)
  if (head !== pull.headSha) {
    throw new PullMovedOn(
      `skipped: the branch ${pull.headBranch} of pull request #${pull.number} is at ${head.slice(0, 12)}, not ${pull.headSha.slice(0, 12)}: it moved on, and the newer commit's checks decide`
    )
  }
  const mergeBase = await repository.run(['merge-base', head, `refs/remotes/origin/${pull.baseBranch}`], { okCodes: [1] })
  const baseCommit = mergeBase.stdout.trim()
  if (!baseCommit) throw new Error(`pull request #${pull.number} shares no history with ${pull.baseBranch} within ${SHALLOW_DEPTH} commits`)
  await repository.run(['checkout', '--quiet', '--detach', head])
  return { baseCommit, headCommit: head }
}
