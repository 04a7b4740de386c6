import path from 'node:path'
import type { Settings } from '../settings.js'
import { folderCache, folderCacheLister } from '../state/folder-cache.js'
import { openStateSession, type OpenResult } from '../state/session.js'
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

/**
 * The session's state port for the CLI: the action's state session over a folder instead of
 * actions/cache, the folder's entries standing in for the repository's cache list (the charges
 * and leases of every local run of the loop).
 */
export function localStateOpener(
  repo: UserRepository,
  opts: { env: NodeJS.ProcessEnv; tempDir: string; runId: string }
): (settings: Settings) => Promise<OpenResult> {
  return (settings) => {
    const folder = stateFolder(repo, settings.loopId)
    return openStateSession(settings, { ...opts, cache: folderCache(folder), listCaches: folderCacheLister(folder) })
  }
}
