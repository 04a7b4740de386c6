/**
 * A gate command whose package manager comes from corepack (`pnpm test` in a project that declares
 * `packageManager`), through the CLI (dist/cli.js) without a gate-setup: the gate is offline, so it
 * runs the copy corepack keeps on the runner, read-only, as the gate of a project with a gate-setup
 * already did.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, cpSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './helpers/action-runner.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const LONG = 240_000
/** The pnpm the machine has (the dev dependency): the one the runner's corepack cache gets. */
const PNPM_VERSION = '10.34.9'

let registry: LocalRegistry
/** The runner's PATH: corepack's shims and the system's tools, no pnpm of node_modules. */
let runnerPath: string
/** The runner's corepack cache, in a folder only root can enter (as under /root/.cache). */
let corepackHome: string

beforeAll(async () => {
  registry = await startRegistry()
  const pnpmCopy = path.join(tempDir('loopgate-pnpm-pkg-'), 'pnpm')
  cpSync(path.join(ROOT, 'node_modules/pnpm'), pnpmCopy, { recursive: true })
  execFileSync('npm', ['publish', '--ignore-scripts'], { cwd: pnpmCopy, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
  const shims = tempDir('loopgate-corepack-shims-')
  chmodSync(shims, 0o755)
  execFileSync('corepack', ['enable', '--install-directory', shims, 'pnpm'], { stdio: 'pipe' })
  runnerPath = [shims, ...(process.env.PATH ?? '/usr/bin:/bin').split(':').filter((d) => !d.includes('node_modules'))].join(':')
  corepackHome = tempDir('loopgate-corepack-')
  chmodSync(corepackHome, 0o700)
  const fill = {
    ...process.env,
    PATH: runnerPath,
    COREPACK_HOME: corepackHome,
    COREPACK_NPM_REGISTRY: registry.url.replace(/\/$/, ''),
    COREPACK_INTEGRITY_KEYS: '0',
    COREPACK_ENABLE_DOWNLOAD_PROMPT: '0'
  }
  execFileSync('corepack', [`pnpm@${PNPM_VERSION}`, '--version'], { cwd: '/', env: fill, stdio: 'pipe' })
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

const NODE_TEST =
  "const test = require('node:test')\nconst assert = require('node:assert')\nconst { add } = require('../add.js')\n\ntest('adds', () => {\n  assert.equal(add(2, 3), 5)\n})\n"

test(
  "`pnpm test` through corepack, without gate-setup: the gate runs the runner's corepack copy of pnpm offline, and the fix is verified",
  () => {
    const repo = makeRepo({
      'package.json':
        JSON.stringify(
          { name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node --test test/' }, packageManager: `pnpm@${PNPM_VERSION}` },
          null,
          2
        ) + '\n',
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n",
      'add.js': 'exports.add = (a, b) => a - b\n',
      'test/add.test.js': NODE_TEST
    })
    const args = ['run', '--agent', 'command', '--agent-command', "sed -i 's/a - b/a + b/' add.js", '--prompt', 'fix add', '--gate-command', 'pnpm test']
    const r = spawnSync(process.execPath, [CLI, ...args, '--max-iterations', '1', '--temp-dir', tempDir()], {
      cwd: repo,
      encoding: 'utf8',
      env: { PATH: runnerPath, HOME: process.env.HOME, LANG: 'C.UTF-8', COREPACK_HOME: corepackHome },
      timeout: LONG
    })
    const out = `${r.stdout}\n${r.stderr}`
    expect(/stop-reason: (\S+)/.exec(out)?.[1] ?? out.slice(-3000)).toBe('verified')
    expect(out).toContain("the gate reads the runner's package caches (corepack) read-only")
    expect(out).toMatch(/baseline 1 test\(s\)/)
  },
  LONG
)
