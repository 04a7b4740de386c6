import { npm } from '../npm/index.js'
import { MANIFEST } from '../node-project.js'
import type { Ecosystem } from '../types.js'
import { yarnLockEntries } from './lockfile.js'
import { LOCKFILE, YarnPackageManager } from './manager.js'

/** Yarn classic: package.json with yarn.lock v1 or `packageManager: yarn@1…`, workspaces in package.json, packages in node_modules. */
export const yarn: Ecosystem = {
  id: 'yarn',
  detection: { manifests: [MANIFEST], lockfiles: [LOCKFILE], packageManager: 'yarn' },
  lockfiles: [LOCKFILE],
  manifests: npm.manifests,
  lockEntries: (_file, text, registryHosts) => yarnLockEntries(text, registryHosts),
  dependencyFolders: {
    root: ['node_modules'],
    anyDepth: ['node_modules'],
    caches: { node_modules: ['.cache', '.vite', '.vite-temp'] }
  },
  // npm's configuration (Yarn classic reads `npm_config_*` and .npmrc) and Yarn's own (`YARN_REGISTRY`, …).
  registryEnv: (name) => /^(?:npm|yarn)_config_/i.test(name) || /^YARN_/.test(name) || name === 'NODE_AUTH_TOKEN',
  upgrade: new YarnPackageManager()
}
