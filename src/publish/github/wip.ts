import type { GitRepository } from '../../git/repository.js'
import { remoteFromEnv } from '../../git/clean-clone.js'
import { repoFromEnv } from '../../github/api-call.js'
import { createClient } from '../../github/client.js'
import { tokenAuthor } from '../../github/identity.js'
import { ApiCommits } from './api-commits.js'
import { pushWipFromWorkspace } from './pushes.js'

/**
 * Pushes the WIP branch to origin. Written here for the GitHub publisher; the post step
 * only calls it. It receives the workspace, the branch name and the commit to push.
 */
export type PushWip = (args: { repository: GitRepository; branch: string; head: string }) => Promise<void>

/** What the post step's push reads besides the token: a dry run, and whether commits are signed (`sign-commits`, no `commit-author`). */
interface PostPushOptions {
  dryRun: boolean
  signCommits: boolean
}

/** Commits created through the API when the token's identity is a bot's (GitHub signs those), as the publisher does. */
function apiCommitsFor(env: NodeJS.ProcessEnv, token: string): ApiCommits {
  const quiet = (): void => undefined
  const client = createClient(token, env, quiet)
  return new ApiCommits({ client, repo: repoFromEnv(env), signing: async () => (await tokenAuthor(client, quiet)).name.endsWith('[bot]') })
}

/**
 * The post step's WIP push (after a cancellation): from a clean clone, never dropping commits
 * someone else pushed to the WIP branch.
 * Undefined when nothing may be published: outside Actions, in a dry run, or without a token.
 */
export function postStepWipPusher(env: NodeJS.ProcessEnv, token: string, opts: PostPushOptions): PushWip | undefined {
  if (opts.dryRun || !token || env.GITHUB_ACTIONS !== 'true' || !env.GITHUB_REPOSITORY) return undefined
  const tempDir = env.RUNNER_TEMP || '/tmp'
  const remote = { ...remoteFromEnv(env, token), writer: opts.signCommits ? apiCommitsFor(env, token) : undefined }
  return ({ repository, branch, head }) => pushWipFromWorkspace({ tempDir, repository, head, remote, branch })
}
