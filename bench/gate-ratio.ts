// A passing gate iteration against the bare test command on the same tree, on a Node project
// (`node --test`; vitest after a kept `npm ci` with the runner's npm cache) and a Python one
// (pytest; in a virtualenv kept from pinned requirements with the project's editable install): the gate's clean checkout, its write layer and its verdict, divided by the command alone. Where the trees live follows TMPDIR (the
// real disk, or /dev/shm). `npx tsx bench/gate-ratio.ts`, or through `npm run bench`.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync, execFileSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ProtectedGate } from '../src/gate/protected-gate.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { DEFAULT_PROTECTED_PATHS } from '../src/gate/protection/protection-defaults.js'
import { ensureAgentUser, gateUserName, type AgentUser } from '../src/isolation/agent-user.js'
import { gateEnv } from '../src/agents/agent-env.js'
import { GitRepository } from '../src/git/repository.js'
import { runnerPackageCaches } from '../src/gate/toolchain/package-caches.js'
import { git, median, printTable, type Figure } from './lib.js'

const RUNS = 5
const TESTS = 40

interface Project {
  name: string
  command: string
  files: (dir: string) => void
  /** gate-setup, kept install first (see toolchain/setup-installs.ts); the runner's package caches are given to it. */
  setup?: string
  /** Installs in the workspace before the base commit (a lockfile to commit, the bare command's dependencies). */
  install?: (dir: string) => void
  /** A step of gate-setup timed with the bare command too (the project's install, which the gate keeps). */
  rest?: string
  /** The file each iteration appends a comment to. */
  touch: string
}

const sh = (dir: string, script: string): void => void execFileSync('/bin/bash', ['-c', script], { cwd: dir, stdio: 'pipe', timeout: 600_000 })

const nodeWork = 'export function work(n) { let h = 0; for (let i = 0; i < n; i++) h = (h * 31 + i) | 0; return h }\n'
const pyWork = 'def work(n):\n    h = 0\n    for i in range(n):\n        h = (h * 31 + i) % 1000003\n    return h\n'

/** Each test does a little work (a hash loop), as a unit test does. */
const PROJECTS: Project[] = [
  {
    name: 'node --test',
    command: 'node --test test/',
    files: (dir) => {
      mkdirSync(path.join(dir, 'test'))
      writeFileSync(path.join(dir, 'src', 'lib.mjs'), nodeWork)
      // Four files of ten tests: node --test starts a process per file.
      for (let f = 0; f < 4; f++) {
        const tests = Array.from({ length: TESTS / 4 }, (_, i) => `test('t${f}-${i}', () => assert.equal(typeof work(200000), 'number'))`)
        const head = "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { work } from '../src/lib.mjs'\n"
        writeFileSync(path.join(dir, 'test', `t${f}.test.mjs`), `${head}${tests.join('\n')}\n`)
      }
    },
    touch: 'src/lib.mjs'
  },
  {
    // As a Node project on a runner is tested: `npm ci` (kept once), the runner's npm cache given.
    name: 'vitest, npm ci',
    setup: 'npm ci --no-audit --no-fund',
    command: 'npx vitest run',
    files: (dir) => {
      mkdirSync(path.join(dir, 'test'))
      writeFileSync(path.join(dir, 'src', 'lib.mjs'), nodeWork)
      writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n')
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench', private: true, type: 'module' }))
      for (let f = 0; f < 4; f++) {
        const tests = Array.from({ length: TESTS / 4 }, (_, i) => `test('t${f}-${i}', () => expect(typeof work(200000)).toBe('number'))`)
        writeFileSync(
          path.join(dir, 'test', `t${f}.test.mjs`),
          `import { test, expect } from 'vitest'\nimport { work } from '../src/lib.mjs'\n${tests.join('\n')}\n`
        )
      }
    },
    install: (dir) => sh(dir, 'npm install --no-audit --no-fund --save-dev vitest@3.2.4'),
    touch: 'src/lib.mjs'
  },
  {
    name: 'pytest',
    command: '/usr/bin/python3 -m pytest -q -p no:cacheprovider tests',
    files: (dir) => {
      mkdirSync(path.join(dir, 'tests'))
      writeFileSync(path.join(dir, 'src', 'lib.py'), 'def work(n):\n    h = 0\n    for i in range(n):\n        h = (h * 31 + i) % 1000003\n    return h\n')
      writeFileSync(path.join(dir, 'tests', 'conftest.py'), 'import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))\n')
      for (let i = 0; i < TESTS; i++)
        writeFileSync(path.join(dir, 'tests', `test_t${i}.py`), `from lib import work\n\ndef test_t${i}():\n    assert work(20000) >= 0\n`)
    },
    touch: 'src/lib.py'
  },
  {
    // A virtualenv from pinned requirements and the project's editable install, kept once: `rest` is what a gate that reinstalled it for each candidate would add.
    name: 'pytest, venv',
    setup: '/usr/bin/python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt && .venv/bin/pip install -q --no-build-isolation --no-deps -e .',
    command: '.venv/bin/python -m pytest -q -p no:cacheprovider tests',
    files: (dir) => {
      mkdirSync(path.join(dir, 'tests'))
      mkdirSync(path.join(dir, 'src', 'benchlib'))
      writeFileSync(path.join(dir, 'src', 'benchlib', '__init__.py'), pyWork)
      writeFileSync(path.join(dir, '.gitignore'), '.venv/\n*.egg-info/\n__pycache__/\n')
      writeFileSync(path.join(dir, 'requirements.txt'), 'pytest==8.4.2\nsetuptools==84.0.0\n')
      writeFileSync(
        path.join(dir, 'pyproject.toml'),
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "benchlib"\nversion = "0.1"\n'
      )
      for (let i = 0; i < TESTS; i++)
        writeFileSync(path.join(dir, 'tests', `test_t${i}.py`), `from benchlib import work\n\ndef test_t${i}():\n    assert work(20000) >= 0\n`)
    },
    install: (dir) =>
      sh(dir, '/usr/bin/python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt && .venv/bin/pip install -q --no-build-isolation --no-deps -e .'),
    rest: '.venv/bin/pip install -q --no-build-isolation --no-deps -e .',
    touch: 'src/benchlib/__init__.py'
  }
]

function makeWorkspace(p: Project): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-ratio-'))
  git(dir, ['init', '-q', '-b', 'main'])
  mkdirSync(path.join(dir, 'src'))
  p.files(dir)
  p.install?.(dir)
  git(dir, ['add', '-A'])
  git(dir, ['commit', '-q', '-m', 'base'])
  return dir
}

async function ratioFor(p: Project, user: AgentUser | undefined): Promise<Figure[]> {
  const ws = makeWorkspace(p)
  const temp = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-ratio-gate-'))
  if (user) execFileSync('chmod', ['o+x', temp])
  const head = await GitRepository.plain(ws).head()
  const snapshot = await BaseSnapshot.take(GitRepository.plain(ws), head, { paths: new ProtectedPaths(DEFAULT_PROTECTED_PATHS) })
  const env = gateEnv(process.env)
  const gate = new ProtectedGate({
    workspace: ws,
    repository: GitRepository.plain(ws),
    snapshot,
    command: p.command,
    setup: p.setup,
    packageCaches: p.setup ? runnerPackageCaches(process.env) : undefined,
    timeoutMs: 600_000,
    env,
    privateDir: path.join(temp, 'private'),
    gateDir: path.join(temp, 'gate'),
    user,
    ownUser: Boolean(user)
  })
  await gate.init()
  const base = await gate.runBaseline(head)
  if (base.broken) throw new Error(`${p.name}: the baseline is broken: ${base.broken.what}\n${base.verdict.outputTail ?? ''}`)
  const gated: number[] = []
  const bare: number[] = []
  const bareWithRest: number[] = []
  let wrote = ''
  const timings: Record<string, number | undefined>[] = []
  for (let i = 0; i < RUNS; i++) {
    appendFileSync(path.join(ws, p.touch), `${p.touch.endsWith('.py') ? '#' : '//'} iteration ${i}\n`)
    git(ws, ['commit', '-qam', `iteration ${i}`])
    const commit = git(ws, ['rev-parse', 'HEAD']).trim()
    let t = performance.now()
    const verdict = await gate.run(commit)
    gated.push(performance.now() - t)
    if (!verdict.passed) throw new Error(`${p.name}: the gate failed: ${verdict.reason}\n${verdict.outputTail ?? ''}`)
    wrote = verdict.wrote ?? ''
    timings.push(gate.lastTimings)
    t = performance.now()
    const r = spawnSync('/bin/bash', ['-c', p.command], { cwd: ws, env })
    bare.push(performance.now() - t)
    if (r.status !== 0) throw new Error(`${p.name}: the bare command failed`)
    if (p.rest) {
      t = performance.now()
      spawnSync('/bin/bash', ['-c', `${p.rest} && ${p.command}`], { cwd: ws, env })
      bareWithRest.push(performance.now() - t)
    }
  }
  await gate.settle()
  await gate.idle()
  gate.close()
  rmSync(ws, { recursive: true, force: true })
  rmSync(temp, { recursive: true, force: true })
  const g = median(gated)
  const b = median(bare)
  return [
    { name: `gate ÷ bare: ${p.name} (${TESTS} tests, ${os.tmpdir()})`, value: `${Math.round(g)} ms ÷ ${Math.round(b)} ms = ×${(g / b).toFixed(2)}` },
    ...(p.rest
      ? [{ name: `gate ÷ bare: ${p.name}, with \`${p.rest.split(' ').slice(0, 3).join(' ')} …\``, value: `×${(g / median(bareWithRest)).toFixed(2)}` }]
      : []),
    { name: `gate ÷ bare: ${p.name}, layer`, value: wrote.slice(0, 100) || 'no layer' },
    { name: `gate ÷ bare: ${p.name}, steps (median ms)`, value: stepMedians(timings) }
  ]
}

/** The median of each timed step over the runs, `name=ms` each. */
function stepMedians(timings: Record<string, number | undefined>[]): string {
  const names = [...new Set(timings.flatMap((t) => Object.keys(t)))]
  return names.map((n) => `${n}=${Math.round(median(timings.map((t) => t[n] ?? 0)))}`).join(' ')
}

export async function benchGateRatio(): Promise<Figure[]> {
  // A user of the bench's own: a test or loop on the same machine ends its default user's processes.
  const found = process.getuid?.() === 0 ? await ensureAgentUser('loopgate-bench-ratio') : { why: 'not root' }
  const gateFound = 'user' in found ? await ensureAgentUser(gateUserName(found.user.name)) : found
  const user = 'user' in gateFound ? gateFound.user : undefined
  const figures: Figure[] = []
  // BENCH_RATIO_ONLY=vitest (a part of the names) runs only the projects it names.
  const only = process.env.BENCH_RATIO_ONLY
  for (const p of PROJECTS) if (!only || p.name.includes(only)) figures.push(...(await ratioFor(p, user)))
  return figures
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchGateRatio())
}
