import type { Ecosystem } from '../types.js'
import { requirementsEntries } from './lockfile.js'
import { PipPackageManager, REQUIREMENTS } from './manager.js'

/** pip: exact pins in requirements files (the pins are the lock), pyproject.toml, packages in a virtualenv. */
export const pip: Ecosystem = {
  id: 'pip',
  registries: ['pypi.org', 'files.pythonhosted.org'],
  detection: { manifests: [REQUIREMENTS], lockfiles: [REQUIREMENTS] },
  lockfiles: [],
  lockfilePattern: /^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$/,
  manifests: [
    {
      file: 'pyproject.toml',
      kind: 'pyproject',
      allowedKeys: [
        'project.dependencies',
        'project.optional-dependencies',
        'project.version',
        'project.requires-python',
        'dependency-groups',
        'build-system.requires',
        'tool.poetry.dependencies',
        'tool.poetry.dev-dependencies',
        'tool.poetry.group.*.dependencies',
        'tool.poetry.version',
        'tool.uv.dev-dependencies',
        'tool.uv.constraint-dependencies',
        'tool.uv.override-dependencies',
        'tool.uv.build-constraint-dependencies',
        'tool.pdm.dev-dependencies'
      ]
    }
  ],
  lockEntries: (_file, text) => requirementsEntries(text),
  dependencyFolders: {
    root: ['.venv', 'venv'],
    anyDepth: ['site-packages', 'dist-packages', '__pypackages__'],
    archives: [],
    caches: {}
  },
  // `PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`, `PIP_CONFIG_FILE`, …
  registryEnv: (name) => /^PIP_/.test(name),
  upgrade: new PipPackageManager()
}
