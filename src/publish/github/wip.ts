import type { GitRepository } from '../../git/repository.js'
import { remoteFromEnv } from '../../git/clean-clone.js'
import { pushWipFromWorkspace } from './pushes.js'

/**
 * Pushes the WIP branch to origin. Written here for the GitHub publisher; the post step
 * only calls it. It receives the workspace, the branch name and the commit to push.
 */
export type PushWip = (args: { repository: GitRepository; branch: string; head: string }) => Promise<void>

/**
 * The post step's WIP push (after a cancellation): from a clean clone, never dropping commits
 * someone else pushed to the WIP branch.
 * Undefined when nothing may be published: outside Actions, in a dry run, or without a token.
 */
export function postStepWipPusher(env: NodeJS.ProcessEnv, token: string, dryRun: boolean): PushWip | undefined {
  if (dryRun || !token || env.GITHUB_ACTIONS !== 'true' || !env.GITHUB_REPOSITORY) return undefined
  const tempDir = env.RUNNER_TEMP || '/tmp'
  return ({ repository, branch, head }) => pushWipFromWorkspace({ tempDir, repository, head, remote: remoteFromEnv(env, token), branch })
}
