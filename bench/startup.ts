// The build and the built product: `npm run package` wall time and bundle sizes (built into a
// temp folder, dist/ untouched), process start to the first agent spawn with the CLI on PATH on
// 10,000 files, and peak RSS with 1 GB of agent output and a 100 MB gate output.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median, printTable, removeDeferred, removeLater, settle, syntheticRepo, type Figure } from './lib.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = 5

function size(file: string): string {
  return `${(statSync(file).size / 1024).toFixed(0)} KB`
}

function dirSize(dir: string): number {
  let total = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) total += e.isDirectory() ? dirSize(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size
  return total
}

/** Builds the bundles as `npm run package` does, into `out`; wall ms. */
export function packageInto(out: string): number {
  const t = performance.now()
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'package.mjs'), out], { cwd: ROOT, stdio: 'pipe' })
  if (r.status !== 0) throw new Error(`package failed: ${r.stderr.toString().slice(0, 200)}`)
  return performance.now() - t
}

/** A PATH whose `loopgate` is the built CLI. */
export function cliOnPath(out: string): string {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-bin-'))
  symlinkSync(path.join(out, 'cli.js'), path.join(bin, 'loopgate'))
  return `${bin}:${process.env.PATH ?? ''}`
}

export function firstSpawn(repo: string, PATH: string): number {
  const temp = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-start-'))
  const stampDir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-stamp-'))
  chmodSync(stampDir, 0o1777)
  const stamp = path.join(stampDir, 'spawned')
  const t0 = Date.now()
  spawnSync(
    'loopgate',
    [
      'run',
      '--agent',
      'command',
      '--agent-command',
      `date +%s%3N > ${stamp}`,
      '--prompt',
      'noop',
      '--gate-command',
      // a gate whose baseline yields a count (TAP), so the run gets as far as the agent's spawn
      "printf '1..1\\nok 1 - noop\\n'",
      '--max-iterations',
      '1',
      '--temp-dir',
      temp
    ],
    {
      cwd: repo,
      env: { PATH, HOME: process.env.HOME ?? '/root' },
      stdio: 'ignore'
    }
  )
  const at = Number(readFileSync(stamp, 'utf8'))
  removeLater(temp)
  removeLater(stampDir)
  return at - t0
}

/**
 * The machine's share of a start: a plain clone and checkout of `repo`, as the CLI's scratch
 * workspace makes one (ms). On a virtual machine whose file creation cost swings (the same checkout
 * of 10,000 files took 0.3 s and 6 s minutes apart here), each round pairs the two.
 */
export function plainCheckout(repo: string): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-plain-'))
  const t = performance.now()
  spawnSync('git', ['clone', '-q', '--no-local', '--no-checkout', repo, path.join(dir, 'c')], { stdio: 'ignore' })
  spawnSync('git', ['-C', path.join(dir, 'c'), 'checkout', '-q', '-B', 'main'], { stdio: 'ignore' })
  const ms = performance.now() - t
  removeLater(dir)
  return Math.round(ms)
}

/** The file system type a folder is on (`ext4`, `tmpfs`, …): the floor differs by far between them. */
export function fileSystemOf(dir: string): string {
  const r = spawnSync('df', ['--output=fstype', dir], { encoding: 'utf8' })
  return r.status === 0 ? (r.stdout.trim().split('\n').pop() ?? 'unknown') : 'unknown'
}

/** Peak RSS (KB) of the built CLI through one iteration with heavy agent and gate output. */
function peakRss(out: string, PATH: string): { kb: number; stop: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-rss-'))
  const repo = path.join(dir, 'repo')
  mkdirSync(repo)
  spawnSync('git', ['init', '-q', repo])
  writeFileSync(path.join(repo, 'a.txt'), 'a\n')
  spawnSync('git', ['-C', repo, 'add', '-A'])
  spawnSync('git', ['-C', repo, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'a'])
  const report = path.join(dir, 'rss')
  const hook = path.join(dir, 'rss.mjs')
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs'\nprocess.on('exit', () => writeFileSync(${JSON.stringify(report)}, String(process.resourceUsage().maxRSS)))\n`
  )
  // 1 GB in 1 MB lines and 100 MB without a newline on stdout; the gate 100 MB of failing lines.
  const agent = `head -c 1073741824 /dev/zero | tr '\\\\0' x | fold -w 1048576; head -c 104857600 /dev/zero | tr '\\\\0' y; echo "// $LOOPGATE_ITERATION" >> a.txt`
  const gate = `yes '✕ a failing test with a long name' | head -c 104857600; exit 1`
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(hook).href,
      path.join(out, 'cli.js'),
      'run',
      '--agent',
      'command',
      '--agent-command',
      agent,
      '--prompt',
      'noop',
      '--gate-command',
      gate,
      '--max-iterations',
      '1',
      '--call-timeout-minutes',
      '5',
      '--temp-dir',
      dir
    ],
    {
      cwd: repo,
      env: { PATH, HOME: process.env.HOME ?? '/root' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024
    }
  )
  const stop = /stop-reason: (\S+)/.exec(r.stdout ?? '')?.[1] ?? `exit ${r.status}`
  const kb = Number(readFileSync(report, 'utf8'))
  rmSync(dir, { recursive: true, force: true })
  return { kb, stop }
}

export async function benchStartup(): Promise<Figure[]> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'loopgate-bench-dist-'))
  const packageMs = packageInto(out)
  const PATH = cliOnPath(out)
  const repo = syntheticRepo(10_000)
  firstSpawn(repo, PATH)
  const plain: number[] = []
  const times = Array.from({ length: RUNS }, () => {
    settle()
    plain.push(plainCheckout(repo))
    settle()
    return firstSpawn(repo, PATH)
  })
  removeLater(repo)
  const start = median(times)
  const ratios = times.map((t, i) => t / plain[i])
  const rss = peakRss(out, PATH)
  const figures: Figure[] = [
    { name: 'npm run package (wall)', value: `${(packageMs / 1000).toFixed(1)} s`, target: '≤ 60 s', ok: packageMs <= 60_000 },
    {
      name: 'bundles: action / CLI entry / all (with lazy chunks)',
      value: `${size(path.join(out, 'index.js'))} / ${size(path.join(out, 'cli', 'index.js'))} / ${(dirSize(out) / 1024 / 1024).toFixed(1)} MB`
    },
    {
      name: 'process start → first agent spawn (CLI on PATH, 10,000 files)',
      value: `${start} ms (${times.join(', ')})`,
      target: '≤ 1000 ms',
      ok: start <= 1000
    },
    {
      name: 'same rounds: plain git clone + checkout of that repository',
      value: `${median(plain)} ms (${plain.join(', ')})`
    },
    {
      name: `first agent spawn ÷ plain clone + checkout, per round (on ${fileSystemOf(os.tmpdir())})`,
      value: `${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
      target: '≤ 1.5',
      ok: median(ratios) <= 1.5
    },
    {
      name: 'peak RSS: 1 GB agent output, 100 MB gate output',
      value: `${(rss.kb / 1024).toFixed(0)} MB (${rss.stop})`,
      target: '< 256 MB',
      ok: rss.kb < 256 * 1024
    }
  ]
  rmSync(out, { recursive: true, force: true })
  rmSync(PATH.split(':')[0], { recursive: true, force: true })
  return figures
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await benchStartup())
  removeDeferred()
}
