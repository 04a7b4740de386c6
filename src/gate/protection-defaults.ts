/**
 * The protected-paths list loopgate starts from: test files at any depth, every configuration a
 * test runner or package manager reads, the CI definitions, and the task files and scripts the
 * gate command itself names. `protected-paths` adds to it; `!pattern` removes an entry.
 */

const TEST_FILES = [
  '**/*.test.*',
  '**/*.spec.*',
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
  ...TEST_FILES,
  ...PACKAGE_MANAGER_CONFIG,
  ...PYTHON_RUNNER_CONFIG,
  ...JS_RUNNER_CONFIG,
  ...CI_DEFINITIONS
]

/** Task runners a gate command may name, and the files each reads its tasks from. */
const TASK_FILES: Record<string, readonly string[]> = {
  make: ['**/Makefile', '**/makefile', '**/GNUmakefile', '**/*.mk'],
  just: ['**/justfile', '**/Justfile', '**/JUSTFILE', '**/.justfile'],
  task: ['**/Taskfile.yml', '**/Taskfile.yaml', '**/taskfile.yml', '**/taskfile.yaml', '**/Taskfile.dist.yml', '**/Taskfile.dist.yaml'],
  tox: ['**/tox.ini'],
  nox: ['**/noxfile.py'],
  rake: ['**/Rakefile', '**/rakelib/**'],
  invoke: ['**/tasks.py'],
  nx: ['**/nx.json', '**/project.json'],
  turbo: ['**/turbo.json'],
  deno: ['**/deno.json', '**/deno.jsonc']
}
const TOOL_ALIASES: Record<string, string> = { gmake: 'make', inv: 'invoke', 'go-task': 'task' }

/** Extensions of a word that names a file the command runs or reads. */
const FILE_WORD = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|ps1|mk|cfg|ini|toml|json|jsonc|ya?ml)$/i
const GLOB_CHARS = /[*?[\]{}()!+@\\]/g

/** Words of a shell command line, quotes dropped and operators split off; `cd DIR` tracked. */
function commandWords(command: string): { word: string; cwd: string }[] {
  const out: { word: string; cwd: string }[] = []
  let cwd = ''
  let cdNext = false
  for (const word of command.replace(/["'`]/g, ' ').split(/[\s;&|()<>]+/)) {
    if (!word) continue
    if (cdNext) {
      cdNext = false
      // An absolute or computed directory: paths stay relative to the workspace (over-protecting is harmless).
      const dir = word.startsWith('/') || word.includes('$') ? '' : normalise(`${cwd}${word}`)
      cwd = dir ? `${dir}/` : ''
      continue
    }
    if (word === 'cd' || word === 'pushd') {
      cdNext = true
      continue
    }
    out.push({ word, cwd })
  }
  return out
}

/** `a/./b/../c` → `a/c`; null when the path leaves the workspace. */
function normalise(rel: string): string | null {
  const parts: string[] = []
  for (const part of rel.split('/')) {
    if (!part || part === '.') continue
    if (part === '..') {
      if (parts.pop() === undefined) return null
      continue
    }
    parts.push(part)
  }
  return parts.join('/')
}

/** The relative file a word names (`./scripts/test.sh`, `--config=ci/jest.json`), else null. */
function scriptPath(word: string, cwd: string): string | null {
  const value = word.startsWith('-') ? (word.includes('=') ? word.slice(word.indexOf('=') + 1) : '') : word
  // Absolute, home-relative, computed, URLs, Go package patterns (`./...`): not a workspace file.
  if (!value || value.startsWith('/') || value.startsWith('~') || /[$=]|:\/\/|\.\.\./.test(value)) return null
  if (!value.includes('/') && !FILE_WORD.test(value)) return null
  if (value.endsWith('/')) return null
  return normalise(`${cwd}${value}`) || null
}

/** The task files and script paths `gate-command` and `gate-setup` name, as patterns. */
export function gateCommandPatterns(commands: readonly (string | undefined)[]): string[] {
  const found = new Set<string>()
  for (const command of commands) {
    if (!command) continue
    for (const { word, cwd } of commandWords(command)) {
      const name = word.split('/').pop() ?? ''
      const tool = TOOL_ALIASES[name] ?? name
      for (const pattern of TASK_FILES[tool] ?? []) found.add(pattern)
      const script = scriptPath(word, cwd)
      if (script) found.add(script.replace(GLOB_CHARS, (c) => `\\${c}`))
    }
  }
  return [...found]
}

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
