import path from 'node:path'
import { readTreeEntry, writeTreeFile } from '../fs/tree.js'
import { removeInBackground } from '../fs/remove-in-background.js'
import type { Tampering } from './baseline/compare.js'
import type { BaseSnapshot } from './baseline/snapshot.js'
import { overlayUnavailable, type ProcessStart } from './mount-namespace.js'
import { describeWrites, isFixture, judgeProtectedWrites, protectedWrites } from './write-judge.js'
import { WriteLayer } from './write-layer.js'
import { KeptProject } from './kept-project.js'
import { layersDirOf } from './checkout/first-checkout.js'
import { memoryLayerRoot } from './memory-layers.js'

/** What a gate run's layer showed once it ended. */
interface LayerOutcome {
  /** The attempt log's line on what the run wrote. */
  summary: string
  /** The protected paths the run wrote (kept from the baseline's run, see write-judge.ts). */
  wroteProtected: string[]
  /** A candidate's writes to protected paths that are no round trip of the baseline's. */
  tampering: Tampering[]
}

/** What a layer is given beyond the checkout (see WriteLayer). */
interface LayerExtras {
  writableDeps?: () => readonly string[]
  caches?: readonly { lower: string; target: string }[]
  over?: () => string | null
}

/**
 * The write layers of one gate: a fresh one for each gate run (see write-layer.ts), or, where this
 * machine cannot mount one, none, and a line that says what that costs.
 */
export class GateLayers {
  private count = 0
  private readonly unavailable: string | null
  /** gate-setup's kept install of the project itself, and what it wrote in the tree (see kept-project.ts). */
  readonly project: KeptProject

  constructor(private readonly opts: { privateDir: string; snapshot: BaseSnapshot; user?: { uid: number; gid: number }; report?: string }) {
    this.unavailable = overlayUnavailable(layersDirOf(opts))
    this.project = new KeptProject(path.join(opts.privateDir, 'kept-project'), (root) =>
      this.layerAt(root, this.keptOver.dir, { caches: this.keptOver.caches })
    )
  }

  /** The checkout and caches the kept project install's layer is made for (see executors). */
  private keptOver: { dir: string; caches?: readonly { lower: string; target: string }[] } = { dir: '' }

  /** The line for a run without a layer. */
  get fallback(): string | undefined {
    return this.unavailable
      ? `no write layer for the gate run (${this.unavailable}): the checkout stays read-only to it outside the runner's folders, so a suite that writes elsewhere (a build's version file, a cache in node_modules, a fixture it puts back) fails there`
      : undefined
  }

  /** Whether each gate run gets a layer. */
  get available(): boolean {
    return !this.unavailable
  }

  /**
   * A fresh layer over the checkout `dir`, or null where none can be mounted; `writableDeps` and
   * `caches` as in WriteLayer.
   */
  open(dir: string, more: LayerExtras = {}): WriteLayer | null {
    if (this.unavailable) return null
    this.keptOver = { dir, caches: more.caches }
    const root = memoryLayerRoot() ?? path.join(layersDirOf(this.opts), `run-${process.pid}-${this.count++}`)
    return this.layerAt(root, dir, { over: () => this.project.over, ...more })
  }

  private layerAt(root: string, dir: string, more: LayerExtras): WriteLayer {
    const snapshot = this.opts.snapshot
    const readOnly = (): string[] => [...snapshot.entries.keys()].filter((rel) => !isFixture(rel, snapshot))
    const writable = (): string[] => [...snapshot.entries.keys()].filter((rel) => isFixture(rel, snapshot))
    return new WriteLayer(root, dir, { user: this.opts.user, readOnly, writable, ...more })
  }

  /**
   * The executors of one gate run: `exec` runs a step in `layer` (on the checkout itself without
   * one), `install` the install gate-setup keeps, on the checkout itself (with the layer's package
   * caches), `keepProject` that install when it ends with the project's own (`folders` written in
   * place, the rest of the tree in a layer of its own, see kept-project.ts); `layerTampering`
   * judges what a step wrote so far.
   */
  executors<E>(
    layer: WriteLayer | null,
    run: { baselineWrote: readonly string[] | null; folders: readonly string[] },
    make: (start?: (script: string) => Promise<ProcessStart>) => E
  ): { exec: E; install?: E; keepProject?: E; layerTampering?: () => Tampering[] } {
    if (!layer) return { exec: make() }
    const { baselineWrote, folders } = run
    const install = layer.hasCaches ? make((script) => Promise.resolve(layer.startOutside(script))) : make()
    const keepProject = this.opts.user ? make((script) => this.project.start(script, folders)) : undefined
    return { exec: make((script) => layer.start(script)), install, keepProject, layerTampering: () => this.tampering(layer, baselineWrote) }
  }

  /** A candidate's writes to protected paths so far, as tampering; nothing on the baseline's own run. */
  tampering(layer: WriteLayer, baselineWrote: readonly string[] | null): Tampering[] {
    if (baselineWrote === null || !layer.used) return []
    return judgeProtectedWrites(layer.writes(), this.opts.snapshot, { wrote: new Set(baselineWrote), report: this.opts.report })
  }

  /**
   * Once the run's processes are gone: its writes judged (`baselineWrote` null on the baseline's
   * run), and the report it wrote at `report` put in the checkout, where loopgate reads it.
   */
  finish(layer: WriteLayer, run: { baselineWrote: readonly string[] | null; report?: string; dir: string }): LayerOutcome {
    const writes = layer.writes()
    const wroteProtected = protectedWrites(writes, this.opts.snapshot, this.opts.report)
    const tampering =
      run.baselineWrote === null ? [] : judgeProtectedWrites(writes, this.opts.snapshot, { wrote: new Set(run.baselineWrote), report: this.opts.report })
    if (run.report && writes.paths.has(run.report)) {
      const entry = readTreeEntry(writes.upper, run.report)
      if (entry.kind === 'file') writeTreeFile({ root: run.dir, rel: run.report, data: entry.data })
    }
    return { summary: describeWrites(writes, wroteProtected), wroteProtected, tampering }
  }

  /** The layer is thrown away (in the background): nothing of it reaches the next run. */
  discard(layer: WriteLayer): void {
    removeInBackground([path.dirname(layer.mount.upper)])
  }
}
