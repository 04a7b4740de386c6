import path from 'node:path'
import type { Settings } from '../inputs.js'
import { folderCache } from '../state/folder-cache.js'
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

/** The session's state port for the CLI: the action's state session over a folder instead of actions/cache. */
export function localStateOpener(
  repo: UserRepository,
  opts: { env: NodeJS.ProcessEnv; tempDir: string; runId: string }
): (settings: Settings) => Promise<OpenResult> {
  return (settings) => openStateSession(settings, { ...opts, cache: folderCache(stateFolder(repo, settings.loopId)), listCaches: undefined })
}
