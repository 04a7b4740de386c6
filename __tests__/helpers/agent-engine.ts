import { mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { agentRunner } from '../../src/agents/agent-runner.js'
import type { AgentAdapter } from '../../src/agents/agent-call.js'
import { WorkspaceGate } from '../../__fixtures__/workspace-gate.js'
import { GitWorkspace } from '../../src/git/workspace.js'
import { publishRulesAt } from './publish-rules.js'
import { AttemptLog } from '../../src/records/attempt-log.js'
import { runLoop } from '../../src/loop/engine.js'
import type { RunOutcome } from '../../src/loop/engine-types.js'
import { Ledger, type LedgerEntry } from '../../src/records/ledger.js'
import { ProgressFile } from '../../src/records/progress-file.js'
import { systemClock } from '../../src/loop/engine-types.js'
import type { AgentUser } from './agent-user.js'
import { tempDir } from './repo.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
/** The agent CLIs, linked by the jest global setup where the test users can run them. */
export const CLI_BIN_DIR = process.env.LOOPGATE_TEST_CLI_BIN ?? path.join(ROOT, 'node_modules', '.bin')
export const CLAUDE_BIN = path.join(CLI_BIN_DIR, 'claude')
export const CODEX_BIN = path.join(CLI_BIN_DIR, 'codex')

export interface EngineRunOptions {
  adapter: AgentAdapter
  repo: string
  env: NodeJS.ProcessEnv
  user: AgentUser
  task?: string
  maxIterations?: number
  maxTurns?: number
  callBudgetUsd?: number
  spendCeilingUsd?: number
  callTimeoutMs?: number
  agentFailureLimit?: number
  gateCommand?: string
  signal?: AbortSignal
}

export interface EngineRun {
  outcome: RunOutcome
  ledger: LedgerEntry[]
  charges: Extract<LedgerEntry, { type: 'charge' }>[]
  log: Record<string, unknown>[]
}

/** The full engine on a real repository: GitWorkspace, the workspace gate, ledger, log, progress. */
export async function runEngine(opts: EngineRunOptions): Promise<EngineRun> {
  const runDir = tempDir('loopgate-run-')
  const callsDir = path.join(runDir, 'calls')
  mkdirSync(callsDir, { recursive: true })
  const progressFile = '.loopgate/progress.md'
  const workspace = new GitWorkspace({ dir: opts.repo, progressFile, rules: await publishRulesAt(opts.repo) })
  await workspace.prepare()
  const ledger = new Ledger(path.join(runDir, 'ledger.jsonl'))
  const log = new AttemptLog(path.join(runDir, 'attempts.jsonl'))
  const callBudgetUsd = opts.callBudgetUsd ?? 1
  const outcome = await runLoop(
    {
      runId: 'test',
      task: opts.task ?? 'Fix add() in src/math.mjs so the tests pass.',
      maxIterations: opts.maxIterations ?? 1,
      callBudgetUsd,
      spendCeilingUsd: opts.spendCeilingUsd ?? callBudgetUsd * 10,
      callTimeoutMs: opts.callTimeoutMs ?? 60_000,
      timeLimitMs: 10 * 60_000,
      noProgressLimit: 3,
      sameFailureLimit: 2,
      agentFailureLimit: opts.agentFailureLimit ?? 1,
      progressFileName: progressFile
    },
    {
      clock: systemClock,
      agent: agentRunner({
        adapter: opts.adapter,
        cwd: opts.repo,
        maxTurns: opts.maxTurns ?? 10,
        callBudgetUsd,
        env: opts.env,
        callsDir,
        user: opts.user
      }),
      workspace,
      gate: new WorkspaceGate({
        command: opts.gateCommand ?? 'node test/run.mjs',
        cwd: opts.repo,
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        timeoutMs: 60_000
      }),
      guards: [],
      ledger,
      log,
      progress: new ProgressFile(opts.repo, progressFile),
      signal: opts.signal
    }
  )
  const entries = readFileSync(ledger.file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LedgerEntry)
  return {
    outcome,
    ledger: entries,
    charges: entries.filter((e): e is Extract<LedgerEntry, { type: 'charge' }> => e.type === 'charge'),
    log: readFileSync(log.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  }
}

/** The last `{"type":"result",…}` line of Claude Code's stream in an output tail. */
export function lastResultLine(outputTail: string): Record<string, unknown> | undefined {
  const lines = outputTail.split('\n').filter((l) => l.includes('"type":"result"'))
  for (const line of lines.reverse()) {
    try {
      return JSON.parse(line) as Record<string, unknown>
    } catch {
      // a truncated first line of the tail
    }
  }
  return undefined
}

/** Pids of live processes whose working directory is inside `dir` (what a call left behind). */
export function processesIn(dir: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`)
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(entry))
    } catch {
      // gone
    }
  }
  return found
}
