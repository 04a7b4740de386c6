import { mkdirSync, writeFileSync } from 'node:fs'
import { readAgentFile } from '../../fs/tree.js'
import path from 'node:path'
import { exitDescription, runProcess } from '../../process/run-process.js'
import { callProcess, endedByLoopgate, processFacts } from '../streaming-agent.js'
import type { AgentAdapter, AgentCall } from '../agent-call.js'
import type { AgentResult } from '../../agent-result.js'
import { cannotRun } from './cannot-run.js'

/** A cost report is a few bytes; anything larger is no report. */
const MAX_COST_FILE_BYTES = 64 * 1024

/**
 * Reads `{"cost_usd": n}` from the cost file the agent wrote; anything else is no report. The file
 * is read as bounded data: a symlink, FIFO or device there is no report and never blocks.
 */
function readCostFile(file: string): number | undefined {
  const text = readAgentFile(file, MAX_COST_FILE_BYTES)
  if (text === null) return undefined
  try {
    const data = JSON.parse(text) as { cost_usd?: unknown }
    const cost = data.cost_usd
    return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : undefined
  } catch {
    return undefined
  }
}

/**
 * `agent: command`: the user's shell command, once per iteration, with the prompt on stdin and in
 * LOOPGATE_PROMPT_FILE. It may report its cost in LOOPGATE_COST_FILE. Non-zero exit is a failure.
 */
export class CommandAgent implements AgentAdapter {
  readonly name = 'command'

  constructor(private readonly command: string) {}

  async run(call: AgentCall): Promise<AgentResult> {
    // The call's folder is loopgate's; only `out/` is the agent's (see prepareCallDir).
    mkdirSync(path.join(call.callDir, 'out'), { recursive: true })
    const promptFile = path.join(call.callDir, 'prompt.md')
    const costFile = path.join(call.callDir, 'out', 'cost.json')
    writeFileSync(promptFile, call.prompt, { mode: 0o644 })
    const r = await runProcess({
      ...callProcess(call),
      command: '/bin/bash',
      args: ['-c', this.command],
      env: {
        ...call.env,
        LOOPGATE_PROMPT_FILE: promptFile,
        LOOPGATE_COST_FILE: costFile,
        LOOPGATE_ITERATION: String(call.iteration),
        LOOPGATE_MAX_TURNS: String(call.maxTurns),
        LOOPGATE_CALL_BUDGET_USD: String(call.callBudgetUsd)
      }
    })
    const cost = readCostFile(costFile)
    const base = {
      ...processFacts(r),
      costUsd: cost ?? call.callBudgetUsd,
      costSource: cost === undefined ? ('worst-case' as const) : ('reported' as const),
      turns: 1,
      permissionDenials: [],
      finalText: r.stdout.trim().split('\n').slice(-20).join('\n'),
      warnings: []
    }
    const ended = endedByLoopgate(call, r)
    if (ended) return { ...base, ...ended }
    if (r.notStarted) return { ...base, status: 'failed', reason: `the agent command could not be started: ${r.notStarted}` }
    const refused = cannotRun(this.command, r.exitCode, r.stderr)
    // Nothing ran: no model call was made, so nothing is charged, and the run stops before the next call.
    if (refused)
      return { ...base, notStarted: `exit ${r.exitCode}`, status: 'failed', reason: `the agent command could not be run: ${refused} (exit ${r.exitCode})` }
    if (r.exitCode !== 0) {
      return { ...base, status: 'failed', reason: exitDescription(r) }
    }
    return { ...base, status: 'claimed-done', reason: 'exit code 0' }
  }
}
