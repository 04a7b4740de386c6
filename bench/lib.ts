import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface Figure {
  name: string
  value: string
  target?: string
  ok?: boolean
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_CONFIG_PARAMETERS: "'gc.auto=0'"
}

const deferred: string[] = []

/**
 * Removes `dir` once every figure is taken. On a file system mounted with online discard (as
 * this machine's root is), deleting 10,000 files issues TRIMs at the next journal commit and
 * file creation waits behind them: a delete between two timed runs would be paid by the second.
 */
export function removeLater(dir: string): void {
  deferred.push(dir)
}

export function removeDeferred(): void {
  for (const dir of deferred.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/** Flushes pending writes before a timed run, so it does not pay for the setup's. */
export function settle(): void {
  spawnSync('sync', [], { stdio: 'ignore' })
}

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
}

/**
 * A synthetic repository with `count` tracked files in 100 folders, committed and packed, as a
 * fresh clone is. The commit is written straight into a pack (fast-import): no loose objects to
 * delete later, so no deletes whose discards would slow the timed runs that follow.
 */
export function syntheticRepo(count: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-'))
  git(dir, ['init', '-q', '-b', 'main'])
  const stream: string[] = ['commit refs/heads/main', 'committer bench <bench@example.com> 1700000000 +0000', 'data 9', 'synthetic']
  for (let i = 0; i < count; i++) {
    const folder = path.join(dir, 'src', `m${i % 100}`)
    if (i < 100) mkdirSync(folder, { recursive: true })
    const content = `export const v${i} = ${i}\n`
    writeFileSync(path.join(folder, `f${i}.js`), content)
    stream.push(`M 100644 inline src/m${i % 100}/f${i}.js`, `data ${Buffer.byteLength(content)}`, content.slice(0, -1))
  }
  // One test file, as every project a run can gate has: a protected set with no file is refused.
  const test = 'export {}\n'
  mkdirSync(path.join(dir, 'test'))
  writeFileSync(path.join(dir, 'test', 'noop.test.js'), test)
  stream.push('M 100644 inline test/noop.test.js', `data ${Buffer.byteLength(test)}`, test.slice(0, -1))
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env: gitEnv, input: `${stream.join('\n')}\n` })
  git(dir, ['reset', '-q'])
  return dir
}

export function printTable(figures: Figure[]): void {
  const w = Math.max(...figures.map((f) => f.name.length), 10)
  const v = Math.max(...figures.map((f) => f.value.length), 8)
  console.log(`${'figure'.padEnd(w)}  ${'value'.padEnd(v)}  target`)
  console.log(`${'-'.repeat(w)}  ${'-'.repeat(v)}  ------`)
  for (const f of figures) {
    const mark = f.ok === undefined ? '' : f.ok ? ' ✓' : ' ✗'
    console.log(`${f.name.padEnd(w)}  ${f.value.padEnd(v)}  ${f.target ?? ''}${mark}`)
  }
}
