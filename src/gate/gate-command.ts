import path from 'node:path'
import { killUserProcesses } from '../isolation/agent-user.js'
import type { GateVerdict } from '../loop/engine-types.js'
import type { StepEnd } from './baseline/baseline-health.js'
import type { PreparedCheckout } from './checkout/checkout-options.js'
import type { gateExecutor } from './gate-executor.js'
import type { GateLayers } from './gate-layers.js'
import type { Baseline, ProtectedGateOptions } from './protected-gate-options.js'
import { openReportChannel, runnersNamed } from './reports/report-folder.js'
import { closedPythonEnv } from './toolchain/closed-python.js'
import { listTree } from './baseline/snapshot.js'
import { openLiveGateRun } from './live-gate.js'
import { gateVerdict, tamperedVerdict } from './verdict.js'
import type { WriteLayer } from './write-layer.js'

/** One run of the gate command in a prepared checkout (its layer, when it has one). */
export interface CommandRun {
  exec: ReturnType<typeof gateExecutor>
  prepared: PreparedCheckout
  started: number
  /** What gate-setup printed before the command. */
  output: string
  layer: WriteLayer | null
  /** The protected paths the baseline's run wrote (null on the baseline's own run). */
  baselineWrote: readonly string[] | null
  /** Only these tests (the flaky rule's rerun). */
  only?: readonly string[]
}

/** The command's verdict, and what the gate keeps of the run for the baseline's health. */
interface CommandOutcome {
  verdict: GateVerdict
  end: StepEnd
  channel: string | null
  /** The runners loopgate knows that the command started without its channel. */
  named: string[]
  commandMs: number
  /** The protected paths the run wrote, where it had a layer. */
  wroteProtected: string[] | null
}

/**
 * The gate command in the checkout (the package folder of a monorepo, when one is named), through
 * loopgate's report channel where the runner has one; then its verdict: its report, its counts
 * against `baseline`, and what it wrote in its layer.
 */
export async function runGateCommand(
  gate: { opts: ProtectedGateOptions & { exitCodeOnly: boolean }; layers: GateLayers; baseline: Baseline | null },
  run: CommandRun
): Promise<CommandOutcome> {
  const { opts, layers, baseline } = gate
  const { exec, prepared, started, layer } = run
  const { timeoutMs, report, user, command, gateDir, env } = opts
  const here = path.join(prepared.dir, opts.packageDir ?? '')
  const baseFiles = (await listTree(opts.repository, opts.snapshot.commit)).keys()
  const closed = closedPythonEnv({ gateDir, checkout: prepared.dir, env, baseFiles })
  const channel = report ? null : openReportChannel(command, { gateDir, checkout: here, user, only: run.only, env: { ...env, ...closed } })
  const live = openLiveGateRun(channel?.runner ?? null)
  try {
    // A runner loopgate can give its channel is counted even under `gate-report: exit-code`.
    const exitCodeOnly = opts.exitCodeOnly && !channel
    const named = report || channel || exitCodeOnly ? [] : runnersNamed(command, here)
    const t = Date.now()
    const extra = { ...closed, ...channel?.env }
    const r = await exec(channel?.command ?? command, extra, { cwd: here, onStdoutLine: live.onLine }).finally(live.close)
    const commandMs = Date.now() - t
    const end: StepEnd = { step: 'command', exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, aborted: r.aborted }
    const output = `${run.output ? `${run.output}\n` : ''}${r.stdout}\n${r.stderr}`
    // Nothing of the gate user's may write the report while it is read.
    if (user) killUserProcesses(user)
    const layered = layer ? layers.finish(layer, { baselineWrote: run.baselineWrote, report, dir: prepared.dir }) : null
    const kept = { end, channel: channel?.runner ?? null, named, commandMs, wroteProtected: layered?.wroteProtected ?? null }
    const wrote = layered?.summary ?? layers.fallback
    if (layered?.tampering.length) return { ...kept, verdict: { ...tamperedVerdict(layered.tampering, started, 'during the gate run, '), wrote } }
    const durationMs = Date.now() - started
    const narrowedBy = channel?.narrowedBy
    const counted = narrowedBy ? null : baseline
    const verdict = gateVerdict({
      run: r,
      output,
      dir: prepared.dir,
      timeoutMs,
      durationMs,
      report,
      channel: channel?.file,
      named,
      exitCodeOnly,
      baseline: counted
    })
    return { ...kept, verdict: { ...verdict, ...(narrowedBy ? { narrowedBy } : {}), ...(wrote ? { wrote } : {}) } }
  } finally {
    live.close()
    channel?.close()
  }
}
