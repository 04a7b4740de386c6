import type { GitResult, RunOptions } from './command-line.js'
import { GitRepository } from './repository.js'

export { GitError, gitEnv, LOOPGATE_GIT_CONFIG, type GitResult } from './command-line.js'

/**
 * Lookup for call sites not yet given a GitRepository: each finds its repository from `cwd`
 * through the held-repository registry. New code takes a GitRepository instead.
 */
export interface GitOptions extends RunOptions {
  cwd: string
}

/** Runs one git command in `cwd`, through the repository the lookup finds there. Throws GitError on an unexpected exit. */
export function git(args: string[], opts: GitOptions): Promise<GitResult> {
  const { cwd, ...rest } = opts
  return GitRepository.lookup(cwd).run(args, rest)
}
