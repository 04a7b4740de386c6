import { randomUUID } from 'node:crypto'
import { runProcess } from '../src/process/run-process.js'
import type { Gate, GateVerdict } from '../src/loop/engine-types.js'
import { gateVerdict } from '../src/gate/verdict.js'

export interface ShellGateOptions {
  command: string
  cwd: string
  env: NodeJS.ProcessEnv
  timeoutMs: number
  signal?: AbortSignal
}

/** Runs a shell command and judges it with the product's gate verdict (no baseline, no report). */
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
  return gateVerdict({ run: r, output: `${r.stdout}\n${r.stderr}`, dir: opts.cwd, timeoutMs: opts.timeoutMs, durationMs: r.durationMs })
}

/** A test gate: `gate-command` in the workspace itself (the product runs the protected gate). */
export class WorkspaceGate implements Gate {
  constructor(private readonly opts: ShellGateOptions) {}

  run(): Promise<GateVerdict> {
    return runGateCommand(this.opts)
  }
}
