import type { Ecosystem } from '../types.js'
import { PYPROJECT } from './document.js'
import { PyprojectPackageManager } from './manager.js'

/** A PEP 621 / PEP 735 pyproject.toml installed with pip: no requirements file, no lockfile; packages in a virtualenv. */
export const pyproject: Ecosystem = {
  id: 'pyproject',
  registries: ['pypi.org', 'files.pythonhosted.org'],
  detection: { manifests: [PYPROJECT], lockfiles: [] },
  lockfiles: [],
  manifests: [{ file: PYPROJECT, kind: 'pyproject', allowedKeys: ['project.dependencies', 'project.optional-dependencies', 'dependency-groups'] }],
  lockEntries: () => null,
  dependencyFolders: { root: ['.venv', 'venv'], anyDepth: ['site-packages', 'dist-packages', '__pypackages__'], archives: [], caches: {} },
  // pip's own configuration: `PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`, `PIP_CONFIG_FILE`, …
  registryEnv: (name) => /^PIP_/.test(name),
  upgrade: new PyprojectPackageManager()
}
