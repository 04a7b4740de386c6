// Gate overhead per iteration on a 10,000-file repository with a 200 MB node_modules: the tamper
// check, the clean checkout with the snapshot verification, and the dependency copy, against
// running the gate command in place. `npx tsx bench/gate-overhead.ts`, or through `npm run bench`.
import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ProtectedGate } from '../src/gate/protected-gate.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { TamperGuard } from '../src/gate/protection/tamper.js'
import { JudgeGuard } from '../src/gate/protection/judge-guard.js'
import { DEFAULT_PROTECTED_PATHS } from '../src/gate/protection/protection-defaults.js'
import { ensureAgentUser, gateUserName, type AgentUser } from '../src/isolation/agent-user.js'
import { gateEnv } from '../src/agents/agent-env.js'
import { git, median, printTable, syntheticRepo, type Figure } from './lib.js'
import { GitRepository } from '../src/git/repository.js'

const FILES = 10_000
const TESTS = 200
const NODE_MODULES_MB = 200
const RUNS = 3
const GATE_COMMAND = `node -e "const fs=require('fs');let n=0;for(const f of fs.readdirSync('tests'))n+=fs.readFileSync('tests/'+f).length;console.log('✓ read '+n)"`

function makeWorkspace(): string {
  const ws = syntheticRepo(FILES - TESTS - 2)
  mkdirSync(path.join(ws, 'tests'))
  for (let i = 0; i < TESTS; i++) writeFileSync(path.join(ws, 'tests', `t${i}.test.js`), `test('t${i}', () => expect(${i}).toBe(${i}))\n`)
  writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'bench', scripts: { test: 'jest' }, dependencies: { a: '1' } }, null, 2))
  writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n')
  git(ws, ['add', '-A'])
  git(ws, ['commit', '-q', '-m', 'tests'])
  // 200 MB in 20,000 files of 10 KB, 1,000 packages.
  const chunk = Buffer.alloc(10 * 1024, 'x')
  const files = (NODE_MODULES_MB * 1024) / 10
  for (let i = 0; i < files; i++) {
    const dir = path.join(ws, 'node_modules', `pkg${i % 1000}`, `d${i % 7}`)
    if (i < 7000) mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, `f${i}.js`), chunk)
  }
  return ws
}

function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now()
  return fn().then((v) => [performance.now() - t, v])
}

export async function benchGateOverhead(): Promise<Figure[]> {
  const ws = makeWorkspace()
  const temp = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-gate-'))
  const found =
    process.env.LOOPGATE_BENCH_ISOLATION === 'weak'
      ? { why: 'LOOPGATE_BENCH_ISOLATION=weak' }
      : process.getuid?.() === 0
        ? await ensureAgentUser()
        : { why: 'not root' }
  // The gate runs as a user of its own, as in a run.
  const gateFound = 'user' in found ? await ensureAgentUser(gateUserName(found.user.name)) : found
  const user: AgentUser | undefined = 'user' in gateFound ? gateFound.user : undefined
  if (user) chmodReachable(temp)
  const head = await GitRepository.plain(ws).head()
  const [snapshotMs, snapshot] = await timed(() => BaseSnapshot.take(GitRepository.plain(ws), head, { paths: new ProtectedPaths(DEFAULT_PROTECTED_PATHS) }))
  const guard = new TamperGuard({ workspace: ws, repository: GitRepository.plain(ws), snapshot })
  const judge = new JudgeGuard({ workspace: ws, repository: GitRepository.plain(ws), snapshot, changed: () => guard.lastChanged })
  const gate = new ProtectedGate({
    workspace: ws,
    repository: GitRepository.plain(ws),
    snapshot,
    command: GATE_COMMAND,
    timeoutMs: 600_000,
    env: gateEnv(process.env),
    privateDir: path.join(temp, 'private'),
    gateDir: path.join(temp, 'gate'),
    user,
    ownUser: Boolean(user)
  })
  const [pristineMs] = await timed(() => gate.init())
  await gate.runBaseline(head)

  const inPlace: number[] = []
  const tamper: number[] = []
  const judged: number[] = []
  const protectedRuns: number[] = []
  const steps: Record<string, number[]> = {}
  for (let i = 0; i < RUNS; i++) {
    // An iteration: the agent changed one source file and (cheating) one test.
    appendFileSync(path.join(ws, 'src', 'm1', 'f1.js'), `// ${i}\n`)
    appendFileSync(path.join(ws, 'tests', 't1.test.js'), `// cheat ${i}\n`)
    const [tamperMs, report] = await timed(() => guard.afterCall())
    if (!report.tampered) throw new Error('the tamper check missed the edited test')
    tamper.push(tamperMs)
    // What the judge would load: the source file the agent changed is read for the test framework's imports.
    const [judgeMs] = await timed(() => judge.afterCall())
    judged.push(judgeMs)
    git(ws, ['add', '-A'])
    git(ws, ['commit', '-q', '-m', `iteration ${i}`])
    const commit = git(ws, ['rev-parse', 'HEAD']).trim()
    const [gateMs, verdict] = await timed(() => gate.run(commit))
    if (!verdict.passed) throw new Error(`the gate failed: ${verdict.reason}`)
    protectedRuns.push(gateMs)
    for (const [k, v] of Object.entries(gate.lastTimings)) (steps[k] ??= []).push(v)
    const t = performance.now()
    const r = spawnSync('/bin/bash', ['-c', GATE_COMMAND], { cwd: ws, env: gateEnv(process.env) })
    inPlace.push(performance.now() - t)
    if (r.status !== 0) throw new Error('the in-place gate failed')
  }
  rmSync(ws, { recursive: true, force: true })
  rmSync(temp, { recursive: true, force: true })

  const inPlaceMs = median(inPlace)
  const protectedMs = median(protectedRuns) + median(tamper) + median(judged)
  const overheadMs = protectedMs - inPlaceMs
  const stepText = Object.entries(steps)
    .map(([k, v]) => `${k} ${Math.round(median(v))}`)
    .join(', ')
  return [
    { name: 'gate: repository', value: `${FILES} files, ${snapshot.size} protected, node_modules ${NODE_MODULES_MB} MB` },
    {
      name: 'gate: isolation',
      value: user ? `gate user ${user.name} (hardlinked read-only deps)` : `weak (${'why' in gateFound ? gateFound.why : ''}; full dependency copy)`
    },
    { name: 'gate: one-time snapshot + pristine copy', value: `${Math.round(snapshotMs)} ms + ${Math.round(pristineMs)} ms` },
    { name: 'gate: in place (command only)', value: `${Math.round(inPlaceMs)} ms` },
    { name: 'gate: protected (tamper and judge checks + clean gate)', value: `${Math.round(protectedMs)} ms` },
    { name: 'gate: steps (ms)', value: `tamper ${Math.round(median(tamper))}, judge ${Math.round(median(judged))}, ${stepText}` },
    {
      name: 'gate: overhead per iteration',
      value: `${Math.round(overheadMs)} ms (×${(protectedMs / inPlaceMs).toFixed(1)})`,
      target: '< 2000 ms',
      ok: overheadMs < 2000
    }
  ]
}

function chmodReachable(dir: string): void {
  execFileSync('chmod', ['o+x', dir])
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchGateOverhead())
}
