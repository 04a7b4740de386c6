import type { Ecosystem } from '../types.js'
import { packageLockEntries } from './lockfile.js'
import { LOCKFILES, MANIFEST, NpmPackageManager } from './manager.js'

/** npm: package.json with package-lock.json or npm-shrinkwrap.json, packages in node_modules. */
export const npm: Ecosystem = {
  id: 'npm',
  registries: ['registry.npmjs.org'],
  detection: { manifests: [MANIFEST], lockfiles: LOCKFILES, packageManager: 'npm' },
  lockfiles: LOCKFILES,
  manifests: [
    {
      file: MANIFEST,
      kind: 'package-json',
      allowedKeys: [
        'dependencies',
        'devDependencies',
        'peerDependencies',
        'optionalDependencies',
        'bundleDependencies',
        'bundledDependencies',
        'peerDependenciesMeta',
        'overrides',
        'resolutions',
        'pnpm.overrides',
        'version',
        'engines',
        'packageManager'
      ]
    }
  ],
  lockEntries: (_file, text, registryHosts) => packageLockEntries(text, registryHosts),
  dependencyFolders: {
    root: ['node_modules'],
    anyDepth: ['node_modules'],
    archives: [],
    // vite bundles its config into `.vite-temp`, vitest keeps results in `.vite`, babel and others use `.cache`.
    caches: { node_modules: ['.cache', '.vite', '.vite-temp', '.tmp'] }
  },
  // npm's `npm_config_*`, `NPM_CONFIG_USERCONFIG`, and the `NODE_AUTH_TOKEN` that actions/setup-node's user config refers to.
  registryEnv: (name) => /^npm_config_/i.test(name) || name === 'NODE_AUTH_TOKEN',
  upgrade: new NpmPackageManager()
}
