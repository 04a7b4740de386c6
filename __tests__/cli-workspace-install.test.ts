import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { runAttack } from './helpers/gate-fixture.js'
import { makeRepo } from './helpers/repo.js'
import { runWithCommandAgent } from './helpers/cli-run.js'

const LONG = 180_000

function write(file: string, text: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text, { mode })
}

/**
 * A workspaces monorepo as `yarn install` leaves it: the top `node_modules` links `@w/math` to
 * `packages/math`, whose package.json `main` is `dist/math.cjs.js`, a file the install script
 * wrote (untracked, ignored, as `preconstruct dev` does) that leads to the sources; `packages/app`
 * has a dependency of its own in its own `node_modules`. The test in `packages/app` imports both.
 */
const WORKSPACE_FILES: Record<string, string> = {
  '.gitignore': 'node_modules/\ndist/\n',
  'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'], scripts: { test: 'checker packages/app/test/run.mjs' } }),
  'packages/math/package.json': JSON.stringify({ name: '@w/math', version: '1.0.0', main: 'dist/math.cjs.js' }),
  'packages/math/src/math.cjs': 'exports.add = function add(a, b) {\n  return a - b\n}\n',
  'packages/app/package.json': JSON.stringify({ name: '@w/app', version: '1.0.0', dependencies: { '@w/math': '1.0.0', 'only-app': '1.0.0' } }),
  'packages/app/test/run.mjs': [
    "import { createRequire } from 'node:module'",
    'const require = createRequire(import.meta.url)',
    "const { add } = require('@w/math')",
    "const label = require('only-app')",
    "if (add(2, 3) !== 5) { console.log('✕ ' + label + ' adds two numbers'); console.log('  expected 5, got ' + add(2, 3)); process.exit(1) }",
    "console.log('✓ ' + label + ' adds two numbers')",
    ''
  ].join('\n')
}

/** What the install leaves in the workspace's packages: the link to `packages/math`, its `dist/`, `packages/app/node_modules`. */
function installPackages(repo: string): void {
  mkdirSync(path.join(repo, 'node_modules', '@w'), { recursive: true })
  symlinkSync('../../packages/math', path.join(repo, 'node_modules', '@w', 'math'))
  write(path.join(repo, 'packages', 'math', 'dist', 'math.cjs.js'), "module.exports = require('../src/math.cjs')\n")
  write(
    path.join(repo, 'packages', 'app', 'node_modules', 'only-app', 'package.json'),
    JSON.stringify({ name: 'only-app', version: '1.0.0', main: 'index.js' })
  )
  write(path.join(repo, 'packages', 'app', 'node_modules', 'only-app', 'index.js'), "module.exports = 'math'\n")
}

function installedWorkspace(): string {
  const repo = makeRepo(WORKSPACE_FILES)
  installPackages(repo)
  const checker = path.join(repo, 'node_modules', 'checker')
  write(path.join(checker, 'package.json'), JSON.stringify({ name: 'checker', version: '1.0.0', bin: { checker: 'bin/checker.js' } }))
  write(
    path.join(checker, 'bin', 'checker.js'),
    "#!/usr/bin/env node\nconst path = await import('node:path')\nawait import(path.resolve(process.argv[2]))\n",
    0o755
  )
  mkdirSync(path.join(repo, 'node_modules', '.bin'))
  symlinkSync('../checker/bin/checker.js', path.join(repo, 'node_modules', '.bin', 'checker'))
  return repo
}

const FIX = "sed -i 's/a - b/a + b/' packages/math/src/math.cjs"

describe('a workspaces monorepo as its install left it', () => {
  it(
    "the gate resolves the workspace's packages through what the install wrote in them, and verifies the fix",
    () => {
      const repo = installedWorkspace()
      const r = runWithCommandAgent(repo, FIX, 'npm test')
      expect(r.stderr).not.toContain('Cannot find module')
      expect(r.stdout).toContain('packages/math/dist')
      expect(r.stdout).toContain('packages/app/node_modules')
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.status).toBe(exitCodeFor('verified'))
    },
    LONG
  )

  it(
    'a cheat that rewrites the failing test is still refused',
    () => {
      const repo = installedWorkspace()
      const cheat = "sed -i 's/add(2, 3) !== 5/false/' packages/app/test/run.mjs"
      const r = runWithCommandAgent(repo, cheat, 'npm test')
      expect(r.stdout).not.toContain('stop-reason: verified')
      expect(r.status).not.toBe(exitCodeFor('verified'))
    },
    LONG
  )
})

describe('the action on a workspaces monorepo as its install left it', () => {
  it(
    'the gate takes what the install wrote in the packages from the checkout, and verifies the fix',
    async () => {
      const r = await runAttack({
        isolation: 'auto',
        workspace: makeRepo(WORKSPACE_FILES),
        prepare: installPackages,
        script: `${FIX}\n`,
        inputs: { 'gate-command': 'node packages/app/test/run.mjs' }
      })
      expect(r.log).not.toContain('Cannot find module')
      expect(r.report.stopReason).toBe('verified')
    },
    LONG
  )
})
