import { inDependencyFolder } from '../../ecosystems/registry.js'
import { isLockfile } from './lockfile-entries.js'
import { manifestKind, type ManifestKind } from './manifest-keys.js'

/**
 * What a path is to the dependency policy: in a folder that holds installed packages, at any depth
 * (Node resolves `src/node_modules/x` before the root's copy, Python imports what a
 * `site-packages` on its path holds), a lockfile, a manifest; null for anything else.
 */
export type DependencyPathKind = 'folder' | 'lockfile' | ManifestKind

export function dependencyPathKind(file: string): DependencyPathKind | null {
  if (inDependencyFolder(file)) return 'folder'
  if (isLockfile(file)) return 'lockfile'
  return manifestKind(file)
}
