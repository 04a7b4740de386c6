import type { Ecosystem } from '../types.js'
import { PYPROJECT } from '../pyproject/document.js'
import { uvLockEntries } from './lockfile.js'
import { LOCKFILE, UvPackageManager } from './manager.js'

/** uv: a PEP 621 / PEP 735 pyproject.toml with uv.lock (or `[tool.uv]`), packages in a virtualenv. */
export const uv: Ecosystem = {
  id: 'uv',
  registries: ['pypi.org', 'files.pythonhosted.org'],
  detection: { manifests: [PYPROJECT], lockfiles: [LOCKFILE] },
  lockfiles: [LOCKFILE],
  manifests: [
    {
      file: PYPROJECT,
      kind: 'pyproject',
      allowedKeys: ['project.dependencies', 'project.optional-dependencies', 'dependency-groups', 'tool.uv.dev-dependencies']
    }
  ],
  lockEntries: (_file, text) => uvLockEntries(text),
  dependencyFolders: { root: ['.venv', 'venv'], anyDepth: ['site-packages', 'dist-packages', '__pypackages__'], archives: [], caches: {} },
  // uv's index configuration and credentials, and pip's for the version lookups of a project that names no index.
  registryEnv: (name) =>
    /^UV_(?:DEFAULT_INDEX|INDEX|INDEX_URL|EXTRA_INDEX_URL|FIND_LINKS|INDEX_\w+_(?:USERNAME|PASSWORD)|KEYRING_PROVIDER|NATIVE_TLS)$/.test(name) ||
    /^PIP_/.test(name),
  upgrade: new UvPackageManager()
}
