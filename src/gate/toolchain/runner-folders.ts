/**
 * The folders a gate run may write in its checkout: build output, reports and tool caches. They are
 * declared here, in one place; everything else in the checkout is the commit's and, with a separate
 * gate user, not writable by it. What a run writes in these folders is never a protected path's
 * stand-in: the post-setup check skips them, and the next checkout removes them.
 */

import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { ROOT_DEPENDENCY_DIRS } from '../../ecosystems/registry.js'

/** Folders at the checkout's root. */
const ROOT_RUNNER_FOLDERS: readonly string[] = [
  'dist',
  'build',
  'out',
  'coverage',
  '.nyc_output',
  'reports',
  'test-results',
  'junit',
  '.pytest_cache',
  '.hypothesis',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.nox',
  '.cache',
  '.turbo',
  '.next',
  '.parcel-cache',
  '.jest-cache',
  '.vitest',
  'tmp',
  '.tmp'
]

/** Folder names at any depth: Python's bytecode and an install's metadata. */
const ANY_DEPTH = /(?:^|\/)(?:__pycache__|[^/]+\.egg-info)(?:\/|$)/

/** Whether `rel` (a checkout path) is in a folder a runner writes; `report` is gate-report's folder, when set. */
export function inRunnerFolder(rel: string, report?: string): boolean {
  const top = rel.split('/')[0]
  if (ROOT_RUNNER_FOLDERS.includes(top) || ANY_DEPTH.test(rel)) return true
  const reportDir = report?.includes('/') ? report.slice(0, report.lastIndexOf('/')) : null
  return reportDir !== null && (rel === reportDir || rel.startsWith(`${reportDir}/`))
}

/** The runner folders made for each gate run (root-level ones and gate-report's folder); the scrub removes them after it. */
export function runnerFoldersToMake(report?: string): string[] {
  const reportDir = report?.includes('/') ? report.slice(0, report.lastIndexOf('/')) : null
  return [...ROOT_RUNNER_FOLDERS, ...(reportDir ? [reportDir] : [])]
}

/**
 * The root dependency folders gate-setup may install into when the tree has none (the root itself
 * is not the gate user's): `node_modules`, and each other one (`.venv`, `venv`, …) its command names.
 */
export function setupInstallFolders(setup: string | undefined): string[] {
  if (!setup) return []
  const named = (dir: string): boolean => new RegExp(`(?:^|[\\s/"'=])${dir.replace(/\./g, '\\.')}(?=$|[\\s/"';&|)])`).test(setup)
  return ROOT_DEPENDENCY_DIRS.filter((dir) => dir === 'node_modules' || named(dir))
}

/**
 * The `*.egg-info` folders a setuptools build of the project at `dir`'s root writes during
 * gate-setup (`pip install .`), named from `project.name` as setuptools names them: at the root,
 * and in `src/` when the project has one (its default layout then puts it there).
 */
export function eggInfoFolders(dir: string): string[] {
  let name: unknown
  try {
    name = (parseToml(readFileSync(path.join(dir, 'pyproject.toml'), 'utf8')) as { project?: { name?: unknown } }).project?.name
  } catch {
    return []
  }
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) return []
  const folder = `${name.replace(/[^A-Za-z0-9.]+/g, '_')}.egg-info`
  return existsSync(path.join(dir, 'src')) ? [folder, `src/${folder}`] : [folder]
}
