import { execFile } from 'node:child_process'
import { lstatSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { ROOT_DEPENDENCY_DIRS } from '../ecosystems/registry.js'
import { workspaceInstalls } from '../gate/checkout/workspace-installs.js'
import { isVirtualenv, redirectWorkspacePaths } from '../gate/toolchain/workspace-paths.js'
import { GitRepository } from '../git/repository.js'
import type { SessionEnd } from '../session/flow.js'
import type { UserRepository } from './work-copy.js'

const execFileAsync = promisify(execFile)

const isFolder = (dir: string): boolean => {
  try {
    return lstatSync(dir).isDirectory()
  } catch {
    return false
  }
}

/**
 * The project's installed, untracked dependency folders: `node_modules`, `.venv` and `venv` at the
 * top, and what the install left in each workspace package (its `node_modules`, the untracked
 * folder its entry points lead into: see workspace-installs.ts). Never a symlink (it could point
 * anywhere) and never a folder git tracks.
 */
async function installedFolders(repo: UserRepository): Promise<string[]> {
  const user = GitRepository.plain(repo.top)
  const found: string[] = []
  for (const rel of ROOT_DEPENDENCY_DIRS) {
    if (!isFolder(path.join(repo.top, rel))) continue
    if ((await user.lsFiles(['--', `:(literal)${rel}`])).length) continue
    found.push(rel)
  }
  return [...found, ...(await workspaceInstalls(repo.top, user))]
}

/**
 * Copies the project's installed dependency folders into the run's clone, as the action finds them
 * in its checkout: the agent works with a copy of its own (the clone is handed to it), and the gate
 * takes its read-only pristine copies from the clone. Paths that named the user's repository (a
 * virtualenv's scripts, an editable install, an absolute symlink) are made to name the clone, so
 * nothing in the copy leads back to the user's files. Returns the folders copied.
 */
export async function copyInstalledDeps(repo: UserRepository, clone: string): Promise<string[]> {
  const folders = await installedFolders(repo)
  await Promise.all(
    folders.map(async (rel) => {
      const dest = path.join(clone, rel)
      await execFileAsync('cp', ['-R', '--no-dereference', '--preserve=mode,timestamps,links', '--reflink=auto', '--', path.join(repo.top, rel), dest])
      redirectWorkspacePaths({ copy: dest, name: rel, workspace: repo.top, checkout: clone, virtualenv: isVirtualenv(dest) })
    })
  )
  return folders
}

/**
 * When a gate could not start and the project's dependencies were never installed (a Node
 * project with no `node_modules`, a Python one with no `.venv` or `venv`): the folder that was not
 * there and the one-line fix; null otherwise.
 */
export function notInstalledHint(repo: UserRepository, copied: readonly string[]): string | null {
  const has = (file: string): boolean => {
    try {
      return lstatSync(path.join(repo.top, file)).isFile()
    } catch {
      return false
    }
  }
  if (has('package.json') && !copied.includes('node_modules')) {
    return `${path.join(repo.top, 'node_modules')} was not there: the project's dependencies are not installed, so the gate's programs are missing. Install them first (npm ci, or your package manager's install), or give --gate-setup 'npm ci'.`
  }
  const python = ['pyproject.toml', 'requirements.txt', 'requirements-dev.txt'].find(has)
  if (python && !copied.includes('.venv') && !copied.includes('venv')) {
    return `${path.join(repo.top, '.venv')} was not there: the project's dependencies are not installed (it has a ${python}). Make one first (python3 -m venv .venv and install into it), or give --gate-setup with the install.`
  }
  return null
}

/** What a gate that could not find its program or the project's modules says (a shell, npm, node, Python). */
const MISSING_PROGRAM = /cannot start|: not found|command not found|No module named|Cannot find (?:module|package)|ERR_MODULE_NOT_FOUND|\bexit 127\b/

/** Whether the run ended because the gate could not find its program or the project's modules (not a gate that ran and could not be counted). */
export function programMissing(end: SessionEnd): boolean {
  const said = end.kind === 'stopped' ? [end.message] : end.report.notes
  return said.some((text) => MISSING_PROGRAM.test(text))
}
