import { lstatSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Tampering } from './baseline/compare.js'
import type { BaseSnapshot } from './baseline/snapshot.js'
import type { LayerWrites } from './write-layer.js'
import { inRunnerFolder } from './toolchain/runner-folders.js'

/** The folders that hold tests and the data they read. */
const TEST_FOLDERS = new Set(['tests', 'test', '__tests__', 'spec', 'testdata', 'fixtures', '__fixtures__', '__snapshots__'])
/** Files a runner or the code under test loads as code. */
const CODE = /\.(?:[cm]?[jt]sx?|py[iwc]?|pth|go|rb|sh|bash|php|java|kt|rs|lua|pl|so|node)$/i
/** Configuration by name: dotfiles, `*.config.*`, `*rc*`, and the files runners and package managers read. */
const CONFIG =
  /^\.|(?:^|[.-])(?:config|rc)(?:[.-]|$)|^(?:package\.json|pyproject\.toml|setup\.cfg|tox\.ini|pytest\.ini|pytest\.toml|tsconfig.*\.json|jsconfig.*\.json|Makefile|Dockerfile)$/i

/**
 * A protected file a test may rewrite and put back during a run (a fixture): data in a test folder,
 * never code, a test file or configuration. Everything else protected is what the runner loads as
 * tests and their configuration: it stays read-only in the layer.
 */
export function isFixture(rel: string, snapshot: BaseSnapshot): boolean {
  if (snapshot.paths.kind(rel) !== 'file') return false
  const parts = rel.split('/')
  const name = parts[parts.length - 1]
  return parts.slice(0, -1).some((p) => TEST_FOLDERS.has(p)) && !CODE.test(name) && !CONFIG.test(name)
}

/**
 * The file vite bundles a protected config into and loads at once (`vitest.config.ts.timestamp-<ms>-<hex>.mjs`,
 * beside the base's own config): the runner's output, not a config of its own.
 */
function bundledConfig(rel: string, snapshot: BaseSnapshot): boolean {
  const m = /^(.*)\.timestamp-\d+-[0-9a-f]+\.mjs$/.exec(rel)
  return m !== null && snapshot.entries.has(m[1]) && !snapshot.entries.has(rel)
}

/** A path the base lacks, in a folder a runner writes (`__pycache__`, see runner-folders.ts) or vite's bundled config: never a protected file's stand-in. */
function runnerOutput(rel: string, snapshot: BaseSnapshot, report?: string): boolean {
  return !snapshot.entries.has(rel) && (inRunnerFolder(rel, report) || bundledConfig(rel, snapshot))
}

/** The protected paths a run wrote: written at their own path, or hidden by a folder it deleted, replaced or made anew. */
export function protectedWrites(writes: LayerWrites, snapshot: BaseSnapshot, report?: string): string[] {
  const found = new Set<string>()
  for (const [rel, kind] of writes.paths) if (kind !== 'dir' && snapshot.paths.kind(rel) !== null && !runnerOutput(rel, snapshot, report)) found.add(rel)
  const hiding = (rel: string): boolean => {
    const kind = writes.paths.get(rel)
    return kind !== undefined && (kind !== 'dir' || writes.remade.has(rel))
  }
  for (const base of snapshot.entries.keys()) {
    const parts = base.split('/')
    for (let i = 1; i < parts.length; i++) if (hiding(parts.slice(0, i).join('/'))) found.add(base)
  }
  return [...found].sort()
}

/**
 * The verdict on a candidate's writes to protected paths: a fixture the baseline's run wrote too
 * and that holds the base's content when the run ends is a round trip; any other write is tampering.
 */
export function judgeProtectedWrites(writes: LayerWrites, snapshot: BaseSnapshot, base: { wrote: ReadonlySet<string>; report?: string }): Tampering[] {
  const baselineWrote = base.wrote
  const found: Tampering[] = []
  for (const rel of protectedWrites(writes, snapshot, base.report)) {
    if (!isFixture(rel, snapshot)) {
      found.push({ path: rel, change: 'written by the gate run: the runner loads it as a test or its configuration' })
      continue
    }
    if (!baselineWrote.has(rel)) {
      found.push({ path: rel, change: 'written by the gate run, which the baseline run on the base never did' })
      continue
    }
    if (!holdsBase(writes.upper, rel, snapshot))
      found.push({ path: rel, change: "left changed by the gate run (a fixture must hold the base's content when the run ends)" })
  }
  return found
}

/** Whether the layer holds the base's content and mode at `rel` (a regular file, nothing on the way replaced). */
function holdsBase(upper: string, rel: string, snapshot: BaseSnapshot): boolean {
  const base = snapshot.entries.get(rel)
  if (!base || base.mode === '120000') return false
  try {
    const file = path.join(upper, rel)
    const st = lstatSync(file)
    if (!st.isFile()) return false
    return ((st.mode & 0o111) !== 0) === (base.mode === '100755') && readFileSync(file).equals(base.data)
  } catch {
    return false
  }
}

/** One line for the attempt log: how much the run wrote, where, and which protected paths. */
export function describeWrites(writes: LayerWrites, protectedPaths: readonly string[]): string {
  const byTop = new Map<string, number>()
  let deleted = 0
  for (const [rel, kind] of writes.paths) {
    if (kind === 'dir') continue
    if (kind === 'deleted') deleted++
    const top = rel.includes('/') ? `${rel.split('/')[0]}/` : rel
    byTop.set(top, (byTop.get(top) ?? 0) + 1)
  }
  const total = [...byTop.values()].reduce((a, b) => a + b, 0)
  if (total === 0) return 'the gate run wrote nothing in the checkout'
  const tops = [...byTop.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8)
  const where = tops.map(([top, n]) => `${top} (${n})`).join(', ')
  const prot = protectedPaths.length ? `; protected: ${protectedPaths.slice(0, 10).join(', ')}` : ''
  return `the gate run wrote ${total} path(s)${deleted ? `, ${deleted} deleted` : ''} in its layer, thrown away after it: ${where}${byTop.size > tops.length ? ', …' : ''}${prot}`
}
