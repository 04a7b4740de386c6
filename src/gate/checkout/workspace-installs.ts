import { lstatSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { GitRepository } from '../../git/repository.js'

const isFolder = (dir: string): boolean => lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === true

/** Every path string in a package.json's entry fields (main, module, types, exports, bin). */
function entryPaths(manifest: unknown): string[] {
  if (!manifest || typeof manifest !== 'object') return []
  const m = manifest as Record<string, unknown>
  const found: string[] = []
  const walk = (value: unknown): void => {
    if (typeof value === 'string') found.push(value)
    else if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  for (const field of ['main', 'module', 'types', 'typings', 'exports', 'bin']) walk(m[field])
  return found
}

/** The first folder of an entry path inside its package (`./dist/x.js` → `dist`), or null for a file at the package's top or a path leaving it. */
function entryFolder(entry: string): string | null {
  const parts = path.posix.normalize(entry.replace(/^\.\//, '')).split('/')
  if (parts.length < 2 || parts[0] === '..' || parts[0] === '' || parts[0] === '.' || parts[0] === 'node_modules') return null
  return parts[0]
}

/**
 * What a workspace's install left in its packages, beside the top dependency folders: each
 * workspace package's own `node_modules`, and the untracked folders its package.json's entry
 * points lead into (`dist/`, which an install script such as `preconstruct dev` writes so that the
 * packages linked in the top `node_modules` resolve to their sources). Without them a workspace's
 * packages cannot import each other. Never a tracked path or a symlink. Paths relative to `top`.
 */
export async function workspaceInstalls(top: string, repository: GitRepository): Promise<string[]> {
  const manifests = await repository.lsFiles(['--', ':(glob)**/package.json'])
  const found = new Set<string>()
  for (const manifest of manifests) {
    const dir = path.posix.dirname(manifest)
    if (dir === '.' || dir.split('/').includes('node_modules')) continue
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(path.join(top, manifest), 'utf8'))
    } catch {
      continue
    }
    const candidates = [
      'node_modules',
      ...entryPaths(parsed)
        .map(entryFolder)
        .filter((f): f is string => f !== null)
    ]
    for (const folder of candidates) {
      const rel = `${dir}/${folder}`
      if (!found.has(rel) && isFolder(path.join(top, rel))) found.add(rel)
    }
  }
  if (found.size === 0) return []
  // One listing for every folder found: a monorepo's packages are many.
  const tracked = await repository.lsFiles(['--', ...[...found].map((rel) => `:(literal)${rel}`)])
  const isTracked = (rel: string): boolean => tracked.some((file) => file === rel || file.startsWith(`${rel}/`))
  return [...found].filter((rel) => !isTracked(rel)).sort()
}
