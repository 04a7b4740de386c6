import { randomUUID } from 'node:crypto'
import { runProcess } from '../src/process/run.js'
import type { Gate, GateVerdict } from '../src/loop/types.js'
import { verdictFingerprint } from '../src/gate/fingerprint.js'
import { failuresFromOutput } from '../src/gate/output.js'

export interface ShellGateOptions {
  command: string
  cwd: string
  env: NodeJS.ProcessEnv
  timeoutMs: number
  signal?: AbortSignal
}

/** Runs a shell command and turns its exit status and output into a verdict. */
export async function runGateCommand(opts: ShellGateOptions): Promise<GateVerdict> {
  const r = await runProcess({
    command: '/bin/bash',
    args: ['-c', opts.command],
    cwd: opts.cwd,
    env: opts.env,
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    callId: randomUUID(),
    maxOutputChars: 4_000_000
  })
  const output = `${r.stdout}\n${r.stderr}`
  const passed = r.exitCode === 0 && !r.timedOut && !r.aborted
  const failures = passed ? [] : failuresFromOutput(output)
  const reason = r.timedOut
    ? `timed out after ${Math.round(opts.timeoutMs / 1000)} s`
    : r.aborted
      ? 'cancelled'
      : r.exitCode === null
        ? `killed by ${r.signal}`
        : `exit ${r.exitCode}`
  const fingerprint = passed ? null : verdictFingerprint(failures, reason, output)
  return {
    passed,
    reason,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    failures,
    fingerprint,
    outputTail: output.slice(-20000),
    durationMs: r.durationMs
  }
}

/** A test gate: `gate-command` in the workspace itself (the product runs the protected gate). */
export class WorkspaceGate implements Gate {
  constructor(private readonly opts: ShellGateOptions) {}

  run(): Promise<GateVerdict> {
    return runGateCommand(this.opts)
  }
}
