// A passing gate iteration against the bare test command on the same tree, on a Node project
// (`node --test`) and a Python one (`python3 -m pytest`): the gate's clean checkout, its write
// layer and its verdict, divided by the command alone. Where the trees live follows TMPDIR (the
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
import { git, median, printTable, type Figure } from './lib.js'

const RUNS = 5
const TESTS = 40

interface Project {
  name: string
  command: string
  files: (dir: string) => void
}

/** Each test does a little work (a hash loop), as a unit test does. */
const PROJECTS: Project[] = [
  {
    name: 'node --test',
    command: 'node --test test/',
    files: (dir) => {
      mkdirSync(path.join(dir, 'test'))
      writeFileSync(path.join(dir, 'src', 'lib.mjs'), 'export function work(n) { let h = 0; for (let i = 0; i < n; i++) h = (h * 31 + i) | 0; return h }\n')
      // Four files of ten tests: node --test starts a process per file.
      for (let f = 0; f < 4; f++) {
        const tests = Array.from({ length: TESTS / 4 }, (_, i) => `test('t${f}-${i}', () => assert.equal(typeof work(200000), 'number'))`)
        const head = "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { work } from '../src/lib.mjs'\n"
        writeFileSync(path.join(dir, 'test', `t${f}.test.mjs`), `${head}${tests.join('\n')}\n`)
      }
    }
  },
  {
    name: 'pytest',
    command: 'python3 -m pytest -q -p no:cacheprovider tests',
    files: (dir) => {
      mkdirSync(path.join(dir, 'tests'))
      writeFileSync(path.join(dir, 'src', 'lib.py'), 'def work(n):\n    h = 0\n    for i in range(n):\n        h = (h * 31 + i) % 1000003\n    return h\n')
      writeFileSync(path.join(dir, 'tests', 'conftest.py'), 'import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))\n')
      for (let i = 0; i < TESTS; i++)
        writeFileSync(path.join(dir, 'tests', `test_t${i}.py`), `from lib import work\n\ndef test_t${i}():\n    assert work(20000) >= 0\n`)
    }
  }
]

function makeWorkspace(p: Project): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-ratio-'))
  git(dir, ['init', '-q', '-b', 'main'])
  mkdirSync(path.join(dir, 'src'))
  p.files(dir)
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
    timeoutMs: 600_000,
    env,
    privateDir: path.join(temp, 'private'),
    gateDir: path.join(temp, 'gate'),
    user,
    ownUser: Boolean(user)
  })
  await gate.init()
  await gate.runBaseline(head)
  const gated: number[] = []
  const bare: number[] = []
  let wrote = ''
  for (let i = 0; i < RUNS; i++) {
    appendFileSync(path.join(ws, 'src', p.name === 'pytest' ? 'lib.py' : 'lib.mjs'), `${p.name === 'pytest' ? '#' : '//'} iteration ${i}\n`)
    git(ws, ['commit', '-qam', `iteration ${i}`])
    const commit = git(ws, ['rev-parse', 'HEAD']).trim()
    let t = performance.now()
    const verdict = await gate.run(commit)
    gated.push(performance.now() - t)
    if (!verdict.passed) throw new Error(`${p.name}: the gate failed: ${verdict.reason}`)
    wrote = verdict.wrote ?? ''
    t = performance.now()
    const r = spawnSync('/bin/bash', ['-c', p.command], { cwd: ws, env })
    bare.push(performance.now() - t)
    if (r.status !== 0) throw new Error(`${p.name}: the bare command failed`)
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
    { name: `gate ÷ bare: ${p.name}, layer`, value: wrote.slice(0, 100) || 'no layer' }
  ]
}

export async function benchGateRatio(): Promise<Figure[]> {
  // A user of its own when named (LOOPGATE_AGENT_USER): two benches at once would end each other's processes.
  const found = process.getuid?.() === 0 ? await ensureAgentUser(process.env.LOOPGATE_AGENT_USER) : { why: 'not root' }
  const gateFound = 'user' in found ? await ensureAgentUser(gateUserName(found.user.name)) : found
  const user = 'user' in gateFound ? gateFound.user : undefined
  const figures: Figure[] = []
  for (const p of PROJECTS) figures.push(...(await ratioFor(p, user)))
  return figures
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchGateRatio())
}
