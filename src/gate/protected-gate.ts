import { killUserProcesses } from '../isolation/agent-user.js'
import type { FailureItem, Gate, GateRerun, GateVerdict, RerunRequest } from '../loop/engine-types.js'
import { rerunFailing } from './flaky-rerun.js'
import { testSources } from './test-sources.js'
import { brokenBaseline, describeBroken, uncountedBaseline, type StepEnd } from './baseline/baseline-health.js'
import { CleanCheckout } from './checkout/checkout.js'
import type { Baseline, GateTimings, ProtectedGateOptions } from './protected-gate-options.js'
import type { PreparedCheckout } from './checkout/checkout-options.js'
import { RunCaches } from './run-caches.js'
import { describeUnreachable, unreachablePathDirs } from './protection/toolchain-reach.js'
import { baselineIds, failedVerdict } from './verdict.js'
import { EXIT_CODE_REPORT } from './protected-gate-options.js'
import { runSetup } from './setup-step.js'
import { gateExecutor } from './gate-executor.js'
import { setupSteps } from './toolchain/setup-installs.js'
import { GateLayers } from './gate-layers.js'
import { checkoutRefusal, setupFolders } from './gate-refusal.js'
import { runGateCommand, type CommandRun } from './gate-command.js'

export type { Baseline, GateTimings, ProtectedGateOptions } from './protected-gate-options.js'

/** One gate run: on the baseline's tree (its install is kept), only some tests, or only gate-setup's install. */
interface GateRunKind {
  baseline: boolean
  only?: readonly string[]
  installOnly?: boolean
}

/**
 * The protected gate: the iteration's commit in a clean checkout outside the workspace, protected
 * paths verified against the base snapshot, pristine dependencies, scrubbed environment, its own
 * timeout, and fail-closed test counts against the baseline run.
 */
export class ProtectedGate implements Gate {
  readonly checkout: CleanCheckout
  baseline: Baseline | null = null
  lastTimings: GateTimings = {}
  /** The package caches the last run was given, and those left out (with why). */
  get lastCaches(): { given: string[]; skipped: string[] } {
    return this.caches.last
  }
  /** Why gate-setup's install is not kept, once a run found it (see runSetup). */
  notKept: string | null = null
  private lastEnd: StepEnd | null = null
  /** The runner of loopgate's report channel in the last run, when it had one. */
  private lastChannel: string | null = null
  /** The runners loopgate knows that the last run's command started without its channel. */
  private lastNamed: string[] = []
  private readonly opts: ProtectedGateOptions
  /** `gate-report: exit-code`: no count, no report, the exit status alone. */
  private readonly exitCodeOnly: boolean
  private baseCommit: string | null = null
  private readonly brokenController = new AbortController()
  /** A baseline running alongside the first agent call (see startBaseline). */
  private pendingBaseline: Promise<Baseline | null> | null = null
  /** The clean checkout of the start commit, being made ahead of the first run that needs it. */
  private ahead: Promise<{ commit: string; prepared: PreparedCheckout } | null> | null = null
  /** gate-setup's install on the start commit, kept for the run when no baseline runs (see useBaseline). */
  private installing: Promise<void> | null = null
  /** The start commit whose install the first gate run waits for, when it may not run alongside a call. */
  private installBefore: string | null = null

  /** The PATH folders the gate user cannot enter: left off its PATH, named when the gate cannot start. */
  private readonly unreachable: string[]
  /** Each gate run's copy-on-write layer over the checkout. */
  private readonly layers: GateLayers
  /** The protected paths the last baseline run wrote (see write-judge.ts). */
  private lastWrote: string[] = []
  private readonly caches: RunCaches

  constructor(options: ProtectedGateOptions) {
    this.exitCodeOnly = options.report === EXIT_CODE_REPORT
    const opts = { ...options, report: this.exitCodeOnly ? undefined : options.report }
    this.opts = opts
    this.unreachable = opts.user ? unreachablePathDirs(opts.env.PATH, opts.user) : []
    this.layers = new GateLayers({ privateDir: opts.privateDir, snapshot: opts.snapshot, user: opts.user, report: opts.report })
    this.caches = new RunCaches({ caches: opts.packageCaches ?? [], privateDir: opts.privateDir, user: opts.user, layered: this.layers.available })
    this.checkout = new CleanCheckout({
      workspace: opts.workspace,
      repository: opts.repository,
      snapshot: opts.snapshot,
      privateDir: opts.privateDir,
      gateDir: opts.gateDir,
      user: opts.user,
      ownUser: opts.ownUser,
      writableDeps: Boolean(opts.setup),
      layeredDeps: this.layers.available,
      keepsInstall: Boolean(opts.setup) && setupSteps(opts.setup ?? '', () => '').install !== null,
      report: opts.report,
      first: opts.first,
      dependencies: opts.dependencies
    })
  }

  async init(): Promise<void> {
    await this.checkout.init()
  }

  /**
   * Starts the clean checkout of `commit` (the start commit, with the base's protected paths) in
   * the background: the first checkout of a large tree is the slow one, so it is made while the
   * rest of the setup — or, with a cached baseline, the first agent call — goes on. Nothing runs in
   * it as the gate user before the baseline or the first gate run takes it over.
   */
  prepareAhead(commit: string): void {
    this.baseCommit = commit
    const prepared = this.checkout.prepare(commit, { applySnapshot: true, removeFirst: this.opts.report ? [this.opts.report] : [] })
    this.ahead = prepared.then(
      (p) => ({ commit, prepared: p }),
      () => null
    )
  }

  /** Waits for a checkout still being made ahead, a baseline or an install still running (before the run's users go). */
  async settle(): Promise<void> {
    await Promise.all([this.ahead, this.pendingBaseline, this.installing])
  }

  /** Resolves once the checkout's background clean has ended. */
  idle(): Promise<void> {
    return this.checkout.idle()
  }

  /** Once idle after the run's last gate run: ends what the checkout keeps running between runs. */
  close(): void {
    this.checkout.close()
  }

  /** Before the first call: the start commit with the base's protected paths; records the counts. */
  async runBaseline(commit: string): Promise<Baseline> {
    let verdict = await this.execute(commit, { baseline: true })
    const run = { end: this.lastEnd, verdict, output: verdict.outputTail }
    let broken =
      brokenBaseline(run, this.opts.timeoutMs) ??
      uncountedBaseline(run, { channel: this.lastChannel, bump: this.opts.bumpBaseline, named: this.lastNamed, exitCodeOnly: this.exitCodeOnly })
    // Only a gate that could not start may owe it to the folders left off its PATH.
    if (broken && /could not start/.test(broken.what) && this.unreachable.length && this.opts.user) {
      const why = describeUnreachable(this.unreachable, this.opts.user)
      verdict = { ...verdict, reason: `${verdict.reason}; ${why}` }
      broken = { ...broken, what: `${broken.what}; ${why}` }
    }
    const ids = verdict.passedIds ? baselineIds(verdict) : null
    this.baseline = {
      tests: verdict.testsRun ?? null,
      skipped: verdict.skipped ?? null,
      ids,
      verdict,
      broken,
      ...(this.lastWrote.length ? { wrote: this.lastWrote } : {})
    }
    return this.baseline
  }

  /**
   * A baseline known from an earlier run on the same inputs (see baselineKey): not run again. Its
   * gate-setup install still runs once on the start commit, kept as the baseline's would be: with
   * a gate user of its own (no process of the agent's reaches the checkout) while the first call
   * works, else on a checkout made again once that call has ended. The first gate run waits for it.
   */
  useBaseline(baseline: Baseline): void {
    this.baseline = baseline
    const setup = this.opts.setup
    // Optimistic about the files the steps name: runSetup reads them in the checkout.
    if (!this.baseCommit || !setup || setupSteps(setup, () => '').install === null) return
    if (this.opts.ownUser) this.installing = this.keepInstall(this.baseCommit)
    else this.installBefore = this.baseCommit
  }

  private async keepInstall(commit: string): Promise<void> {
    await this.execute(commit, { baseline: true, installOnly: true }).catch(() => undefined)
  }

  /**
   * The baseline in the background, while the first agent call works; the first gate run waits
   * for it (its counts are what the fail-closed checks compare against).
   */
  startBaseline(commit: string): Promise<Baseline> {
    const pending = this.runBaseline(commit)
    this.pendingBaseline = pending.catch(() => null)
    void this.pendingBaseline.then((b) => {
      if (!b || b.broken) this.brokenController.abort()
    })
    return pending
  }

  /** Aborts once a baseline run alongside the first call finds the gate cannot run: no call can help. */
  get gateBroken(): AbortSignal {
    return this.brokenController.signal
  }

  async run(commit: string): Promise<GateVerdict> {
    const pending = this.pendingBaseline
    this.pendingBaseline = null
    if (pending) {
      const baseline = await pending
      if (!baseline) {
        const why = 'the baseline gate run on the start commit could not complete'
        return { ...failedVerdict(why, { failures: [], durationMs: 0 }), gateBroken: why }
      }
      if (baseline.broken) {
        const why = describeBroken(baseline.broken)
        return { ...baseline.verdict, passed: false, reason: why, gateBroken: why }
      }
    }
    const installing = this.installBefore ? this.keepInstall(this.installBefore) : this.installing
    this.installBefore = null
    this.installing = null
    await installing
    return this.execute(commit, { baseline: false })
  }

  /** The flaky rule's rerun of failing tests (see rerunFailing): on the same commit, then on the baseline's tree. */
  rerun(request: RerunRequest): Promise<GateRerun> {
    return rerunFailing(request, {
      command: this.opts.command,
      base: this.baseCommit,
      run: (commit, baseline, only) => this.execute(commit, { baseline, only })
    })
  }

  /** The files each failing test depends on at `commit` (see testSources). */
  testSources(commit: string, failures: readonly FailureItem[]): Promise<Map<string, string[]>> {
    return testSources(this.opts.repository, commit, failures)
  }

  private async execute(commit: string, kind: GateRunKind): Promise<GateVerdict> {
    const { baseline, only, installOnly } = kind
    const started = Date.now()
    this.lastEnd = null
    this.lastChannel = null
    const ahead = this.ahead ? await this.ahead : null
    this.ahead = null
    // An install after the first call never takes the checkout made before it.
    const adopt = ahead && baseline && ahead.commit === commit && !(installOnly && !this.opts.ownUser)
    const prepared = adopt
      ? ahead.prepared
      : await this.checkout.prepare(commit, { applySnapshot: baseline, removeFirst: this.opts.report ? [this.opts.report] : [] })
    this.lastTimings = { ...prepared.timings }
    const refused = checkoutRefusal(prepared.mismatches, started, this.opts)
    if (refused) return refused
    const user = this.opts.user
    const t = Date.now()
    const caches = this.caches.forRun(prepared.home)
    this.lastTimings.caches = Date.now() - t
    const layer = this.layers.open(prepared.dir, { caches, writableDeps: () => (prepared.depsInLayer ? this.checkout.deps : []) })
    const baselineWrote = baseline ? null : (this.baseline?.wrote ?? [])
    const on = { prepared, deadline: started + this.opts.timeoutMs, unreachable: this.unreachable }
    const folders = this.opts.setup ? setupSteps(this.opts.setup, () => '').folders : []
    const { exec, install, keepProject, layerTampering } = this.layers.executors(layer, { baselineWrote, folders }, (start) =>
      gateExecutor(this.opts, { ...on, start })
    )
    this.checkout.markRun()
    const made = this.checkout.openFolders(setupFolders(this.opts.setup, prepared.dir, this.checkout))
    let output = ''
    try {
      if (this.opts.setup) {
        const { setup, timeoutMs, report } = this.opts
        const step = await runSetup({
          exec,
          install,
          keepProject,
          keepProjectFiles: () => this.layers.project.keep(folders, (rel) => this.opts.snapshot.paths.kind(rel) !== null),
          layerTampering,
          prepared,
          started,
          baseline,
          installOnly,
          setup,
          timeoutMs,
          report,
          checkout: this.checkout
        })
        output = step.output
        if (step.notKept) this.notKept = step.notKept
        if (step.end) this.lastEnd = step.end
        if (step.verdict) return step.verdict
        if (installOnly) return failedVerdict('gate-setup install only', { failures: [], durationMs: Date.now() - started, output })
        this.checkout.dropEmpty(made)
      }
      return await this.runCommand({ exec, prepared, started, output, layer, baselineWrote, only }, kind)
    } finally {
      if (user) killUserProcesses(user)
      if (layer) this.layers.discard(layer)
      this.checkout.scrub()
    }
  }

  /** The gate command and its verdict (see runGateCommand); what the baseline's health reads of it is kept. */
  private async runCommand(run: CommandRun, kind: GateRunKind): Promise<GateVerdict> {
    const outcome = await runGateCommand({ opts: { ...this.opts, exitCodeOnly: this.exitCodeOnly }, layers: this.layers, baseline: this.baseline }, run)
    this.lastTimings.command = outcome.commandMs
    this.lastEnd = outcome.end
    this.lastChannel = outcome.channel
    this.lastNamed = outcome.named
    if (outcome.wroteProtected && kind.baseline && !kind.only) this.lastWrote = outcome.wroteProtected
    return outcome.verdict
  }
}
