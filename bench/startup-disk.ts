// Start-up against the disk's floor, on the machine's disk and on tmpfs in one run: process start to
// the first agent spawn of the CLI and of the action (10,000 files), each round paired with one plain
// `git clone` + checkout of the same repository on the same file system (the floor), medians over
// LOOPGATE_BENCH_ROUNDS rounds (3 unless set). `npm run bench:startup`.
//
// Each start is a first run of its loop: no earlier baseline in the loop's state, so the gate runs on
// the base before the first call (a later run of the same loop on the same tree runs it alongside).
// The CLI clones the repository and writes its tree; the action works in a checkout the workflow made
// (here a clone made before the round starts, as actions/checkout leaves one).
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median, printTable, removeDeferred, removeLater, settle, syntheticRepo, type Figure } from './lib.js'
import { cliOnPath, fileSystemOf, firstSpawn, packageInto, plainCheckout } from './startup.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ROUNDS = Number(process.env.LOOPGATE_BENCH_ROUNDS ?? 3)
/** The machine's disk (this checkout's file system) and tmpfs. */
const PLACES = [process.env.LOOPGATE_BENCH_DISK ?? path.join(ROOT, '..'), '/dev/shm']
const GATE = "printf '1..1\\nok 1 - noop\\n'"

/** A stamp file any user may write: the agent's command writes the time it started there. */
function stampFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-stamp-'))
  chmodSync(dir, 0o1777)
  removeLater(dir)
  return path.join(dir, 'spawned')
}

/** The CLI's first run of its loop: the loop's state (in the repository's git directory) removed first. */
function cliFirstRun(repo: string, PATH: string): number {
  rmSync(path.join(repo, '.git', 'loopgate'), { recursive: true, force: true })
  return firstSpawn(repo, PATH)
}

/** A checkout as a workflow's first step leaves one: a clone of `repo`, made before the timed start. */
function workflowCheckout(repo: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-ws-'))
  spawnSync('git', ['clone', '-q', '--no-local', repo, path.join(dir, 'ws')], { stdio: 'ignore' })
  removeLater(dir)
  return path.join(dir, 'ws')
}

/** The bundled action's main step in `ws`, as the runner starts it (inputs in INPUT_*, file commands): ms to the first agent spawn. */
function actionFirstSpawn(ws: string, out: string): number {
  const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-runner-'))
  removeLater(runnerTemp)
  const stamp = stampFile()
  const file = (name: string): string => {
    const f = path.join(runnerTemp, name)
    writeFileSync(f, name === 'event.json' ? '{}' : '')
    return f
  }
  const inputs: Record<string, string> = {
    agent: 'command',
    'agent-command': `date +%s%3N > ${stamp}`,
    prompt: 'noop',
    'gate-command': GATE,
    'max-iterations': '1',
    'dry-run': 'true'
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: ws,
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    GITHUB_EVENT_PATH: file('event.json'),
    GITHUB_OUTPUT: file('output'),
    GITHUB_STATE: file('state'),
    GITHUB_STEP_SUMMARY: file('summary'),
    GITHUB_REPOSITORY: 'octo-org/octo-repo',
    GITHUB_ACTOR: 'octo-maintainer',
    GITHUB_RUN_ID: String(1000 + Math.floor(Math.random() * 100000)),
    GITHUB_RUN_ATTEMPT: '1',
    RUNNER_TEMP: runnerTemp
  }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const t0 = Date.now()
  spawnSync(process.execPath, [path.join(out, 'index.js')], { cwd: ws, env, stdio: 'ignore', timeout: 300_000 })
  return Number(readFileSync(stamp, 'utf8')) - t0
}

/** "median ms (each round)". */
const times = (ms: number[]): string => `${median(ms)} ms (${ms.join(', ')})`

/** The median of the per-round ratios to the floor, with each round's. */
function ratioFigure(name: string, starts: number[], plain: number[]): Figure {
  const ratios = starts.map((t, i) => t / plain[i])
  return {
    name,
    value: `${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    target: '≤ 1.5',
    ok: median(ratios) <= 1.5
  }
}

/** Paired rounds in `place`: the repository, the clones and the runs' files all on its file system. */
function roundsIn(place: string, out: string, PATH: string): Figure[] {
  const saved = process.env.TMPDIR
  const temp = mkdtempSync(path.join(place, 'loopgate-bench-startup-'))
  process.env.TMPDIR = temp
  try {
    const repo = syntheticRepo(10_000)
    // One untimed run of each first: the bundles and git are in the page cache for every round.
    cliFirstRun(repo, PATH)
    actionFirstSpawn(workflowCheckout(repo), out)
    const plain: number[] = []
    const cli: number[] = []
    const action: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const ws = workflowCheckout(repo)
      settle()
      plain.push(plainCheckout(repo))
      settle()
      cli.push(cliFirstRun(repo, PATH))
      settle()
      action.push(actionFirstSpawn(ws, out))
    }
    removeDeferred()
    const where = `${fileSystemOf(temp)} (${place})`
    return [
      { name: `${where}: floor, plain git clone + checkout`, value: times(plain) },
      { name: `${where}: CLI, start → first agent spawn`, value: times(cli) },
      { name: `${where}: action, start → first agent spawn`, value: times(action) },
      ratioFigure(`${where}: CLI ÷ floor`, cli, plain),
      ratioFigure(`${where}: action ÷ floor`, action, plain)
    ]
  } finally {
    if (saved === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = saved
    rmSync(temp, { recursive: true, force: true })
  }
}

export async function benchStartupOnDisk(): Promise<Figure[]> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-dist-'))
  packageInto(out)
  const PATH = cliOnPath(out)
  try {
    return PLACES.flatMap((place) => {
      mkdirSync(place, { recursive: true })
      return roundsIn(place, out, PATH)
    })
  } finally {
    rmSync(out, { recursive: true, force: true })
    rmSync(PATH.split(':')[0], { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await benchStartupOnDisk())
  removeDeferred()
}
