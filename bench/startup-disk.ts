// Start-up against the disk's floor, on the machine's disk and on tmpfs in one run: process start to
// the first agent spawn with the CLI (10,000 files), each round paired with one plain `git clone` +
// checkout of the same repository on the same file system. `npm run bench:startup`.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median, printTable, removeDeferred, settle, syntheticRepo, type Figure } from './lib.js'
import { cliOnPath, fileSystemOf, firstSpawn, packageInto, plainCheckout } from './startup.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ROUNDS = Number(process.env.LOOPGATE_BENCH_ROUNDS ?? 3)
/** The machine's disk (this checkout's file system) and tmpfs. */
const PLACES = [process.env.LOOPGATE_BENCH_DISK ?? path.join(ROOT, '..'), '/dev/shm']

/** Paired rounds in `place`: the repository, the CLI's clone and the run's files all on its file system. */
function roundsIn(place: string, PATH: string): Figure[] {
  const saved = process.env.TMPDIR
  const temp = mkdtempSync(path.join(place, 'loopgate-bench-startup-'))
  process.env.TMPDIR = temp
  try {
    const repo = syntheticRepo(10_000)
    firstSpawn(repo, PATH)
    const plain: number[] = []
    const starts: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      settle()
      plain.push(plainCheckout(repo))
      settle()
      starts.push(firstSpawn(repo, PATH))
    }
    removeDeferred()
    const ratios = starts.map((t, i) => t / plain[i])
    const fs = fileSystemOf(temp)
    return [
      { name: `${fs} (${place}): plain git clone + checkout`, value: `${median(plain)} ms (${plain.join(', ')})` },
      { name: `${fs} (${place}): start → first agent spawn`, value: `${median(starts)} ms (${starts.join(', ')})` },
      {
        name: `${fs} (${place}): first agent spawn ÷ plain clone + checkout`,
        value: `${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
        target: '≤ 1.5',
        ok: median(ratios) <= 1.5
      }
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
      return roundsIn(place, PATH)
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
