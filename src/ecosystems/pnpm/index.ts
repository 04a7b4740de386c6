import { npm } from '../npm/index.js'
import type { Ecosystem } from '../types.js'
import { pnpmLockEntries } from './lockfile.js'
import { LOCKFILE, PnpmPackageManager } from './manager.js'
import { MANIFEST } from '../node-project.js'

/** pnpm: package.json with pnpm-lock.yaml or `packageManager: pnpm@…`, workspaces in pnpm-workspace.yaml, packages in node_modules. */
export const pnpm: Ecosystem = {
  id: 'pnpm',
  registries: ['registry.npmjs.org'],
  detection: { manifests: [MANIFEST], lockfiles: [LOCKFILE], packageManager: 'pnpm' },
  lockfiles: [LOCKFILE],
  // package.json's keys are npm's (`pnpm.overrides` among them); pnpm-workspace.yaml is the project's own.
  manifests: npm.manifests,
  lockEntries: (_file, text, registryHosts) => pnpmLockEntries(text, registryHosts),
  dependencyFolders: {
    // `.pnpm-store`: the store pnpm keeps at the root of a file system other than HOME's.
    root: ['node_modules', '.pnpm-store'],
    anyDepth: ['node_modules'],
    archives: [],
    caches: { node_modules: ['.cache', '.vite', '.vite-temp'] }
  },
  // npm's configuration (pnpm reads `npm_config_*` and .npmrc), pnpm's own, and corepack's cache of pinned versions.
  registryEnv: (name) => /^(?:npm|pnpm)_config_/i.test(name) || name === 'NODE_AUTH_TOKEN' || /^COREPACK_(?:HOME|NPM_REGISTRY|NPM_TOKEN)$/.test(name),
  upgrade: new PnpmPackageManager()
}
