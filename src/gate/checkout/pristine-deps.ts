import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { GitRepository } from '../../git/repository.js'
import type { AgentUser } from '../../isolation/agent-user.js'
import { isVirtualenv, redirectWorkspacePaths } from '../toolchain/workspace-paths.js'
import { cp } from './checkout-fs.js'
import { DEPENDENCY_CACHE_DIRS, ROOT_DEPENDENCY_DIRS } from '../../ecosystems/registry.js'
import { workspaceInstalls } from './workspace-installs.js'

/** Untracked dependency folders taken from a pristine copy, never from the agent's workspace. */
export const DEPENDENCY_DIRS = ROOT_DEPENDENCY_DIRS

/**
 * Folders inside a dependency folder that tools write while they run (vite bundles its config
 * into `.vite-temp`, vitest keeps results in `.vite`, babel and others use `.cache`). The pristine
 * copy leaves them out; each gate run gets them empty and writable, so nothing written in one run
 * — or by the agent — reaches the next.
 */
export const CACHE_DIRS: Record<string, string[]> = DEPENDENCY_CACHE_DIRS

/**
 * The workspace's untracked dependency folders copied to `pristine`, their entries that named the
 * workspace rewritten to name the checkout: the top ones and what the install left in each
 * workspace package (see workspace-installs.ts). Returns the folders copied and the entries rewritten.
 */
export async function copyPristineDeps(where: {
  workspace: string
  repository: GitRepository
  pristine: string
  checkout: string
}): Promise<{ deps: string[]; redirected: string[] }> {
  const deps: string[] = []
  const redirected: string[] = []
  mkdirSync(where.pristine, { recursive: true, mode: 0o700 })
  const inPackages = await workspaceInstalls(where.workspace, where.repository)
  for (const name of [...DEPENDENCY_DIRS, ...inPackages]) {
    const src = path.join(where.workspace, name)
    let st
    try {
      st = lstatSync(src)
    } catch {
      continue
    }
    if (!st.isDirectory()) continue
    if ((await where.repository.lsFiles(['--', `:(literal)${name}`])).length) continue
    const dest = path.join(where.pristine, name)
    rmSync(dest, { recursive: true, force: true })
    mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 })
    // Owned by root (no ownership preserved), nothing group/other-writable: the gate user can read
    // the hardlinked files but never write through them.
    cp(['-R', '--no-dereference', '--preserve=mode,timestamps,links', '--reflink=auto', src, dest])
    execFileSync('chmod', ['-R', 'go-w', dest])
    for (const cache of CACHE_DIRS[name] ?? []) rmSync(path.join(dest, cache), { recursive: true, force: true })
    redirected.push(...redirectWorkspacePaths({ copy: dest, name, workspace: where.workspace, checkout: where.checkout, virtualenv: isVirtualenv(dest) }))
    deps.push(name)
  }
  return { deps, redirected }
}

/** The dependency folders from the pristine copy: hardlinked read-only for a separate gate user, else a real copy. */
export function placeDeps(deps: string[], where: { pristine: string; dir: string; user: AgentUser | undefined; writable: boolean }): void {
  const { user, writable } = where
  for (const name of deps) {
    const src = path.join(where.pristine, name)
    const dest = path.join(where.dir, name)
    // A workspace package's folder the commit removed, or that it tracks itself, gets nothing.
    if (!existsSync(path.dirname(dest)) || lstatSync(dest, { throwIfNoEntry: false })) continue
    if (user && !writable) {
      cp(['-al', src, dest])
      chownSync(dest, 0, 0)
      chmodSync(dest, 0o755)
    } else {
      cp(['-a', '--reflink=auto', src, dest])
      if (user) execFileSync('chown', ['-hR', `${user.uid}:${user.gid}`, dest])
    }
  }
}

/** Each run's tool caches inside the dependency folders: empty, the gate user's. */
export function freshCaches(deps: string[], where: { dir: string; user: AgentUser | undefined; discard: (target: string) => void }): void {
  const { dir, user, discard } = where
  for (const name of deps) {
    for (const cache of CACHE_DIRS[name] ?? []) {
      const target = path.join(dir, name, cache)
      discard(target)
      mkdirSync(target, { mode: 0o700 })
      if (user) chownSync(target, user.uid, user.gid)
    }
  }
}

/**
 * After gate-setup's install on the reference's dependency files (see toolchain/setup-installs.ts):
 * each of `names` the install left in the checkout becomes its pristine copy, root's and read-only
 * like those taken from the workspace. Returns the folders kept.
 */
export function keepInstalled(where: { checkout: string; pristine: string }, names: readonly string[]): string[] {
  const kept: string[] = []
  for (const name of names) {
    const src = path.join(where.checkout, name)
    if (!lstatSync(src, { throwIfNoEntry: false })?.isDirectory()) continue
    const dest = path.join(where.pristine, name)
    rmSync(dest, { recursive: true, force: true })
    cp(['-R', '--no-dereference', '--preserve=mode,timestamps,links', '--reflink=auto', src, dest])
    execFileSync('chmod', ['-R', 'go-w', dest])
    for (const cache of CACHE_DIRS[name] ?? []) rmSync(path.join(dest, cache), { recursive: true, force: true })
    kept.push(name)
  }
  return kept
}
