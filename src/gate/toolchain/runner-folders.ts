/**
 * The folders a gate run may write in its checkout: build output, reports and tool caches. They are
 * declared here, in one place; everything else in the checkout is the commit's and, with a separate
 * gate user, not writable by it. What a run writes in these folders is never a protected path's
 * stand-in: the post-setup check skips them, and the next checkout removes them.
 */

/** Folders at the checkout's root. */
export const ROOT_RUNNER_FOLDERS: readonly string[] = [
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
