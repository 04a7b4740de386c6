import { TEST_RUNNERS } from '../reports/runner-registry.js'
import { gateCommandPatterns } from './gate-command-files.js'

/**
 * The protected-paths list loopgate starts from: test files at any depth, every configuration a
 * test runner or package manager reads, the CI definitions, and the task files and scripts the
 * gate command itself names. `protected-paths` adds to it; `!pattern` removes an entry.
 */

const TEST_FILES = [
  '**/*.test.*',
  '**/*.spec.*',
  // vitest's type tests
  '**/*.test-d.*',
  '**/*.spec-d.*',
  '**/test_*.py',
  '**/*_test.py',
  '**/*_test.go',
  '**/__tests__/**',
  '**/tests/**',
  '**/test/**',
  '**/spec/**',
  '**/testdata/**',
  '**/__snapshots__/**',
  '**/*.snap',
  '**/__mocks__/**'
]

const PACKAGE_MANAGER_CONFIG = [
  '**/.npmrc',
  '**/.yarnrc*',
  '**/.yarn/releases/**',
  '**/.yarn/plugins/**',
  '**/.pnpmfile.cjs',
  '**/pnpm-workspace.yaml',
  '**/bunfig.toml',
  '**/uv.toml',
  '**/poetry.toml',
  '**/hatch.toml',
  '**/package.json',
  '**/pyproject.toml'
]

const PYTHON_RUNNER_CONFIG = [
  '**/pytest.ini',
  '**/.pytest.ini',
  '**/pytest.toml',
  '**/.pytest.toml',
  '**/tox.ini',
  '**/setup.cfg',
  '**/noxfile.py',
  '**/conftest.py',
  '**/sitecustomize.py',
  '**/usercustomize.py',
  '**/*.pth',
  '**/.coveragerc'
]

const JS_RUNNER_CONFIG = [
  '**/babel.config.*',
  '**/.babelrc*',
  '**/.swcrc',
  '**/swc.config.*',
  '**/jest.config*',
  '**/jest.setup*',
  '**/jest-setup.*',
  '**/setupTests.*',
  '**/vitest.config*',
  '**/vitest.workspace*',
  '**/vitest.setup*',
  '**/vite.config*',
  '**/.mocharc*',
  '**/karma.conf*',
  '**/karma.config*',
  '**/.c8rc*',
  '**/.nycrc*',
  '**/nyc.config.*',
  '**/playwright.config*',
  '**/playwright-ct.config*',
  '**/ava.config.*',
  '**/.taprc*',
  '**/cypress.config.*',
  '**/cypress.json',
  '**/jasmine.json',
  '**/tsconfig*.json',
  '**/jsconfig*.json'
]

const CI_DEFINITIONS = ['.github/workflows/**', '.github/actions/**']

export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  ...new Set([
    ...TEST_FILES,
    ...PACKAGE_MANAGER_CONFIG,
    ...PYTHON_RUNNER_CONFIG,
    ...JS_RUNNER_CONFIG,
    ...CI_DEFINITIONS,
    ...TEST_RUNNERS.flatMap((r) => r.configFiles)
  ])
]

/**
 * The resolved protected-paths list: the defaults, the gate command's own files, then the
 * input's entries. An entry `!pattern` equal to one already listed removes it; any other
 * `!pattern` stays, excluding the paths it matches.
 */
export function resolveProtectedPatterns(entries: readonly string[], commands: readonly (string | undefined)[]): string[] {
  const list = [...DEFAULT_PROTECTED_PATHS, ...gateCommandPatterns(commands)]
  for (const entry of entries) {
    if (entry.startsWith('!') && list.includes(entry.slice(1))) {
      const removed = entry.slice(1)
      for (let i = list.indexOf(removed); i !== -1; i = list.indexOf(removed)) list.splice(i, 1)
    } else list.push(entry)
  }
  return [...new Set(list)]
}
