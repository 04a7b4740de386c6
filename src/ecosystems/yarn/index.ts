import { npm } from '../npm/index.js'
import { MANIFEST } from '../node-project.js'
import type { Ecosystem } from '../types.js'
import { yarnLockEntries } from './lockfile.js'
import { PROJECT_CACHE_FOLDER } from './berry-manager.js'
import { LOCKFILE } from './manager.js'
import { YarnPackageManager } from './yarn-manager.js'

/** Yarn, classic and Berry (`nodeLinker: node-modules`): package.json with yarn.lock or `packageManager: yarn@…`, workspaces in package.json, packages in node_modules. */
export const yarn: Ecosystem = {
  id: 'yarn',
  registries: ['registry.yarnpkg.com', 'registry.npmjs.org', 'repo.yarnpkg.com'],
  detection: { manifests: [MANIFEST], lockfiles: [LOCKFILE], packageManager: 'yarn' },
  lockfiles: [LOCKFILE],
  manifests: npm.manifests,
  lockEntries: (_file, text, registryHosts) => yarnLockEntries(text, registryHosts),
  dependencyFolders: {
    root: ['node_modules'],
    anyDepth: ['node_modules'],
    archives: [PROJECT_CACHE_FOLDER],
    caches: { node_modules: ['.cache', '.vite', '.vite-temp'] }
  },
  // npm's configuration (Yarn classic reads `npm_config_*` and .npmrc), Yarn's own (`YARN_REGISTRY`, Berry's `YARN_NPM_*`, …), and corepack's cache of pinned versions.
  registryEnv: (name) =>
    /^(?:npm|yarn)_config_/i.test(name) || /^YARN_/.test(name) || name === 'NODE_AUTH_TOKEN' || /^COREPACK_(?:HOME|NPM_REGISTRY|NPM_TOKEN)$/.test(name),
  upgrade: new YarnPackageManager()
}
