// Time from process start to the first agent spawn: the bundled action (dist/index.js) run as the
// runner runs it, with a command agent that records when it started.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { git, median, printTable, type Figure } from './lib.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = 7

function once(): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-start-'))
  const repo = path.join(dir, 'repo')
  git(dir, ['init', '-q', '-b', 'main', repo])
  writeFileSync(path.join(repo, 'a.txt'), 'a\n')
  git(repo, ['add', '-A'])
  git(repo, ['commit', '-q', '-m', 'a'])
  // The agent may run as loopgate's agent user: its stamp goes where anyone can write.
  const stampDir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-stamp-'))
  chmodSync(stampDir, 0o1777)
  const stamp = path.join(stampDir, 'spawned')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_WORKSPACE: repo,
    RUNNER_TEMP: dir,
    GITHUB_OUTPUT: path.join(dir, 'out'),
    GITHUB_STATE: path.join(dir, 'state'),
    GITHUB_STEP_SUMMARY: path.join(dir, 'summary'),
    INPUT_AGENT: 'command',
    'INPUT_AGENT-COMMAND': `node -e 'require("fs").writeFileSync(${JSON.stringify(stamp)}, String(Date.now()))'`,
    INPUT_PROMPT: 'noop',
    'INPUT_GATE-COMMAND': 'true',
    'INPUT_MAX-ITERATIONS': '1',
    'INPUT_DRY-RUN': 'true'
  }
  for (const f of ['out', 'state', 'summary']) writeFileSync(path.join(dir, f), '')
  // The agent's own node start-up is not loopgate's: measure it alone and subtract it.
  const t0 = Date.now()
  spawnSync(process.execPath, [path.join(ROOT, 'dist', 'index.js')], { cwd: repo, env })
  const agentStart = Number(readFileSync(stamp, 'utf8'))
  const t1 = Date.now()
  spawnSync('node', ['-e', `require("fs").writeFileSync(${JSON.stringify(stamp)}, String(Date.now()))`])
  const nodeAlone = Number(readFileSync(stamp, 'utf8')) - t1
  return agentStart - t0 - nodeAlone
}

export async function benchStartup(): Promise<Figure[]> {
  once()
  const times = Array.from({ length: RUNS }, once)
  return [{ name: 'process start → first agent spawn (dist/index.js)', value: `${median(times).toFixed(0)} ms` }]
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) printTable(await benchStartup())
