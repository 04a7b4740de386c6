import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Runs git in a test repository (with a fixed identity, no global config). */
export function sh(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'test',
      GIT_COMMITTER_EMAIL: 'test@example.com'
    }
  })
}

export function tempDir(prefix = 'loopgate-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix))
}

/** A real git repository with the given files committed on `main`. */
export function makeRepo(files: Record<string, string>): string {
  const dir = tempDir('loopgate-repo-')
  sh(dir, ['init', '-q', '-b', 'main'])
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
  sh(dir, ['add', '-A'])
  sh(dir, ['commit', '-q', '-m', 'initial'])
  return dir
}

/** A tiny project whose gate (`node test/run.mjs`) passes when add() adds. */
export function buggyProject(): Record<string, string> {
  return {
    'src/math.mjs': 'export function add(a, b) {\n  return a - b\n}\n',
    'test/run.mjs': [
      "import { add } from '../src/math.mjs'",
      "if (add(2, 3) !== 5) { console.log('✕ math adds two numbers'); console.log('  expected 5, got ' + add(2, 3)); process.exit(1) }",
      "console.log('✓ math adds two numbers')",
      ''
    ].join('\n')
  }
}

/** True while the process runs (a zombie waiting for its reaper counts as ended). */
export function isRunning(pid: number | string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

/** A temp folder the agent can write too, whichever user it runs as (like /tmp itself). */
export function sharedTempDir(prefix = 'loopgate-shared-'): string {
  const dir = tempDir(prefix)
  chmodSync(dir, 0o1777)
  return dir
}
