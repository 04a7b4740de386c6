import type { Ecosystem } from '../types.js'
import { PYPROJECT } from '../pyproject/document.js'
import { poetryLockEntries } from './lockfile.js'
import { LOCKFILE, PoetryPackageManager } from './manager.js'

/** Poetry: `[tool.poetry]` in pyproject.toml with poetry.lock, packages in a virtualenv. */
export const poetry: Ecosystem = {
  id: 'poetry',
  registries: ['pypi.org', 'files.pythonhosted.org'],
  detection: { manifests: [PYPROJECT], lockfiles: [LOCKFILE] },
  lockfiles: [LOCKFILE],
  manifests: [
    {
      file: PYPROJECT,
      kind: 'pyproject',
      allowedKeys: ['tool.poetry.dependencies', 'tool.poetry.dev-dependencies', 'tool.poetry.group.*.dependencies', 'tool.poetry.version']
    }
  ],
  lockEntries: (_file, text) => poetryLockEntries(text),
  dependencyFolders: { root: ['.venv', 'venv'], anyDepth: ['site-packages', 'dist-packages', '__pypackages__'], archives: [], caches: {} },
  // Poetry's source credentials and certificates, and pip's configuration for a project without a source.
  registryEnv: (name) => /^POETRY_(?:HTTP_BASIC_|PYPI_TOKEN_|CERTIFICATES_|REPOSITORIES_)/.test(name) || /^PIP_/.test(name),
  upgrade: new PoetryPackageManager()
}
