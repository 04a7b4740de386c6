import type { Settings } from '../settings.js'
import { folderCache, folderCacheLister } from '../state/folder-cache.js'
import { openStateSession, type OpenResult } from '../state/session.js'
import type { ResumeWords } from '../state/resume.js'
import { stateFolder } from './state-folder.js'
import type { UserRepository } from './work-copy.js'

/**
 * The session's state port for the CLI: the action's state session over a folder instead of
 * actions/cache, the folder's entries standing in for the repository's cache list (the charges
 * and leases of every local run of the loop).
 */
export function localStateOpener(
  repo: UserRepository,
  opts: { env: NodeJS.ProcessEnv; tempDir: string; runId: string; resumeWords?: ResumeWords }
): (settings: Settings) => Promise<OpenResult> {
  return (settings) => {
    const folder = stateFolder(repo, settings.loopId)
    return openStateSession(settings, { ...opts, cache: folderCache(folder), listCaches: folderCacheLister(folder) })
  }
}
