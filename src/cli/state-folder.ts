import path from 'node:path'
import type { UserRepository } from './work-copy.js'

/**
 * The loop state of CLI runs lives in the repository's own git directory: it belongs to that
 * repository (and goes with it), it is never in the working tree nor in any commit, and the agent,
 * which works in a clone, never sees it.
 */
export const STATE_FOLDER_WORDS = '<repository>/.git/loopgate/state/<loop-id>'

export function stateFolder(repo: UserRepository, loopId: string): string {
  return path.join(repo.commonDir, 'loopgate', 'state', loopId)
}
