import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
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

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
}

/** A synthetic repository with `count` tracked files in 100 folders, committed. */
export function syntheticRepo(count: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-'))
  git(dir, ['init', '-q', '-b', 'main'])
  for (let i = 0; i < count; i++) {
    const folder = path.join(dir, 'src', `m${i % 100}`)
    if (i < 100) mkdirSync(folder, { recursive: true })
    writeFileSync(path.join(folder, `f${i}.js`), `export const v${i} = ${i}\n`)
  }
  git(dir, ['add', '-A'])
  git(dir, ['commit', '-q', '-m', 'synthetic'])
  // Packed, as a fresh clone is (and no background gc racing the benchmark).
  git(dir, ['-c', 'gc.auto=0', 'gc', '-q'])
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
