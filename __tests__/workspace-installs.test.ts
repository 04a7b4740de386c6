/**
 * The folders a workspace's install left in its packages: each package's own node_modules and the
 * untracked folders its entry points lead into; never a folder git tracks, a path leaving the package,
 * or a package's top-level file.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { workspaceInstalls } from '../src/gate/checkout/workspace-installs.js'
import { GitRepository } from '../src/git/repository.js'
import { makeRepo } from './helpers/repo.js'

const manifest = (name: string, fields: Record<string, unknown>): string => JSON.stringify({ name, version: '1.0.0', ...fields })

test('untracked install folders of each package are listed; tracked ones and paths out of the package are not', async () => {
  const repo = makeRepo({
    'package.json': manifest('top', { private: true, workspaces: ['packages/*'], main: 'lib/top.js' }),
    '.gitignore': 'node_modules/\n',
    'packages/built/package.json': manifest('built', { main: './dist/index.js', exports: { '.': { types: './types/index.d.ts' } } }),
    'packages/vendored/package.json': manifest('vendored', { main: 'dist/x.js', bin: { tool: '../../escape/bin.js' } }),
    'packages/vendored/dist/x.js': 'module.exports = 1\n',
    'packages/flat/package.json': manifest('flat', { main: 'index.js' }),
    'packages/flat/index.js': 'module.exports = 2\n'
  })
  for (const dir of ['lib', 'escape', 'packages/built/dist', 'packages/built/types', 'packages/built/node_modules/x', 'packages/flat/node_modules'])
    mkdirSync(path.join(repo, dir), { recursive: true })
  writeFileSync(path.join(repo, 'packages/built/dist/index.js'), 'module.exports = 3\n')
  expect(await workspaceInstalls(repo, GitRepository.plain(repo))).toEqual([
    'packages/built/dist',
    'packages/built/node_modules',
    'packages/built/types',
    'packages/flat/node_modules'
  ])
})
