import path from 'node:path'
import { buggyProject, makeRepo, sh, tempDir } from './repo.js'

/**
 * A bare remote at <server>/octo-org/octo-repo.git seeded with `files` on main: GITHUB_SERVER_URL is
 * file://<server>, so loopgate's pushes and fetches reach it as they would github.com.
 */
export function bareRemote(files: Record<string, string> = buggyProject()): { server: string; bare: string } {
  const server = tempDir('loopgate-remote-')
  const bare = path.join(server, 'octo-org', 'octo-repo.git')
  const seed = makeRepo(files)
  sh(server, ['init', '-q', '--bare', '-b', 'main', bare])
  sh(seed, ['push', '-q', bare, 'main'])
  return { server, bare }
}

/** The workspace as actions/checkout leaves it: a clone of `branch` with origin pointing at the remote. */
export function checkoutOf(bare: string, branch = 'main'): string {
  const parent = tempDir('loopgate-checkout-')
  sh(parent, ['clone', '-q', '-b', branch, bare, 'ws'])
  return path.join(parent, 'ws')
}

/** The commit a branch of the remote points at, or null when it has none. */
export function tipOf(bare: string, branch: string): string | null {
  try {
    return sh(bare, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]).trim()
  } catch {
    return null
  }
}
