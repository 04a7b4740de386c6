// The cost of the one publishable tree per commit on a 10,000-file repository with 200 protected
// tests: the whole commit of an iteration (GitWorkspace.commitIteration, with the paths the tamper
// check's status reported) and, within it, the protected-path comparison with the base that the
// tree repeats after the tamper check. `npx tsx bench/publishable-tree.ts`, or `npm run bench`.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { findTampering } from '../src/gate/baseline/compare.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { publishRulesOf } from '../src/gate/baseline/publish-rules.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { GitWorkspace } from '../src/git/workspace.js'
import { DEFAULT_PROTECTED_PATHS } from '../src/gate/protection/protection-defaults.js'
import { git, median, printTable, syntheticRepo, type Figure } from './lib.js'
import { GitRepository } from '../src/git/repository.js'

const FILES = 10_000
const TESTS = 200
const RUNS = 7

export async function benchPublishableTree(): Promise<Figure[]> {
  const ws = syntheticRepo(FILES - TESTS)
  mkdirSync(path.join(ws, 'tests'))
  for (let i = 0; i < TESTS; i++) writeFileSync(path.join(ws, 'tests', `t${i}.test.js`), `test('t${i}', () => expect(${i}).toBe(${i}))\n`)
  git(ws, ['add', '-A'])
  git(ws, ['commit', '-q', '-m', 'tests'])
  const snapshot = await BaseSnapshot.take(GitRepository.plain(ws), git(ws, ['rev-parse', 'HEAD']).trim(), {
    paths: new ProtectedPaths(DEFAULT_PROTECTED_PATHS)
  })
  const workspace = new GitWorkspace({ dir: ws, progressFile: '.loopgate/progress.md', rules: publishRulesOf(snapshot) })
  await workspace.prepare()
  const commits: number[] = []
  const checks: number[] = []
  for (let i = 0; i < RUNS; i++) {
    appendFileSync(path.join(ws, 'src', 'm1', 'f1.js'), `// ${i}\n`)
    const changed = await GitRepository.plain(ws).statusPorcelain()
    let t = performance.now()
    findTampering(ws, snapshot, changed)
    checks.push(performance.now() - t)
    t = performance.now()
    const change = await workspace.commitIteration('bench', i + 1, changed)
    await workspace.head()
    commits.push(performance.now() - t)
    if (!change.commit) throw new Error('nothing was committed')
  }
  rmSync(ws, { recursive: true, force: true })
  const commitMs = median(commits)
  const checkMs = median(checks)
  return [
    { name: 'publishable tree: repository', value: `${FILES} files, ${snapshot.size} protected` },
    { name: 'publishable tree: one iteration commit', value: `${commitMs.toFixed(1)} ms` },
    { name: 'publishable tree: of which the protected-path check', value: `${checkMs.toFixed(1)} ms (${((100 * checkMs) / commitMs).toFixed(0)}%)` }
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchPublishableTree())
}
