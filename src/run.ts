import { mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ClaudeAgent } from './agents/claude.js'
import { CodexAgent } from './agents/codex.js'
import { CommandAgent } from './agents/command.js'
import { ensureAgentCli } from './agents/install.js'
import { parsePriceTable } from './agents/pricing.js'
import { agentRunner } from './agents/index.js'
import type { AgentAdapter } from './agents/types.js'
import { setupProtection, type IsolationMode } from './gate/protection.js'
import { git } from './git/git.js'
import { GitWorkspace } from './git/workspace.js'
import type { Settings } from './inputs.js'
import { agentEnv, gateEnv } from './isolation/env.js'
import { AttemptLog } from './loop/attempt-log.js'
import { runLoop, type EngineDeps, type RunOutcome } from './loop/engine.js'
import { FeaturesGuard } from './loop/features.js'
import { Ledger } from './loop/ledger.js'
import { ProgressFile } from './loop/progress.js'
import { outcomeFor, type Outcome, type StopReason } from './loop/stop-reasons.js'
import { systemClock, type CallGuard, type Clock, type Workspace } from './loop/types.js'
import type { Publisher, PublishResult } from './publish/types.js'
import type { RunCarry } from './state/session.js'

export interface RunContext {
  /** The runner's environment (never passed whole to the agent or the gate). */
  env: NodeJS.ProcessEnv
  runId: string
  /** RUNNER_TEMP or the OS temp dir: outside the workspace. */
  tempDir: string
  publisher: Publisher
  signal: AbortSignal
  report: (line: string) => void
  onIteration?: EngineDeps['onIteration']
  clock?: Clock
  // --- protected gate + isolation (issue 3) ---
  /** `weak` forces the fallback without a separate agent user (also LOOPGATE_ISOLATION=weak). */
  isolation?: IsolationMode
  /** The dedicated agent user's name (default loopgate-agent). */
  agentUser?: string
  // --- end protected gate + isolation ---
  // --- state (issue 6): what earlier runs left: period spend, resume evidence, resume base ---
  carry?: RunCarry
  // --- end state ---
}

export interface RunReport {
  stopReason: StopReason
  outcome: Outcome
  run: RunOutcome | null
  runDir: string
  logFile: string
  ledgerFile: string
  progressFile: string
  published: PublishResult
  notes: string[]
}

export function runDirFor(tempDir: string, loopId: string, runId: string): string {
  return path.join(tempDir, 'loopgate', `${loopId}-${runId}`)
}

// --- agents (issue 4) ---
/** The adapter for the configured agent; `binary` is the CLI's path (see prepareAdapter). */
export function createAdapter(settings: Settings, binary?: string): AgentAdapter {
  switch (settings.agent) {
    case 'command':
      return new CommandAgent(settings.agentCommand ?? '')
    case 'claude':
      return new ClaudeAgent({ binary, args: settings.agentArgs })
    case 'codex': {
      const prices = settings.priceTable ? parsePriceTable(settings.priceTable) : undefined
      if (typeof prices === 'string') throw new Error(`price-table: ${prices}`)
      return new CodexAgent({ binary, args: settings.agentArgs, prices })
    }
  }
}

/** Installs the agent CLI when it is not on PATH (timed and reported), then creates the adapter. */
export async function prepareAdapter(settings: Settings, ctx: Pick<RunContext, 'env' | 'report'>): Promise<AgentAdapter> {
  if (settings.agent === 'command') return createAdapter(settings)
  const cli = await ensureAgentCli(settings.agent, { version: settings.agentVersion, path: ctx.env.PATH, env: ctx.env, report: ctx.report })
  return createAdapter(settings, cli.binary)
}
// --- end agents ---

function apiKeyFor(settings: Settings): { name: string; value: string } | undefined {
  if (settings.agent === 'claude' && settings.anthropicApiKey) return { name: 'ANTHROPIC_API_KEY', value: settings.anthropicApiKey }
  if (settings.agent === 'codex' && settings.openaiApiKey) return { name: 'OPENAI_API_KEY', value: settings.openaiApiKey }
  return undefined
}

async function assertGitRepository(dir: string): Promise<void> {
  await git(['rev-parse', '--verify', 'HEAD'], { cwd: dir })
}

/** One whole run: workspace → loop → publish. Settings are already validated. */
export async function executeRun(settings: Settings, ctx: RunContext): Promise<RunReport> {
  const runDir = runDirFor(ctx.tempDir, settings.loopId, ctx.runId)
  mkdirSync(runDir, { recursive: true, mode: 0o700 })
  const logFile = path.join(runDir, 'attempts.jsonl')
  const ledgerFile = path.join(runDir, 'ledger.jsonl')
  const progressPath = path.join(settings.workspace, settings.progressFile)
  const notes: string[] = []

  await assertGitRepository(settings.workspace)

  // --- pre-loop check (issue 5): events and review capacity, before any spend ---
  const stop = await ctx.publisher.preflight?.(settings)
  if (stop) {
    new AttemptLog(logFile).write({ type: 'stop', stopReason: stop.stopReason, message: stop.notes.join(' '), spentUsd: 0 })
    new ProgressFile(progressPath).appendStop(stop.stopReason)
    for (const note of stop.notes) ctx.report(note)
    return {
      stopReason: stop.stopReason,
      outcome: outcomeFor(stop.stopReason),
      run: null,
      runDir,
      logFile,
      ledgerFile,
      progressFile: progressPath,
      published: { files: [], notes: [] },
      notes: [...notes, ...stop.notes]
    }
  }
  // --- end pre-loop check ---

  const callsDir = path.join(ctx.tempDir, 'loopgate-calls', `${settings.loopId}-${ctx.runId}`)
  mkdirSync(callsDir, { recursive: true })
  // --- protected gate + isolation (issue 3) ---
  const protection = await setupProtection({
    settings,
    env: ctx.env,
    gateEnv: gateEnv(ctx.env, settings.agentEnv),
    tempDir: ctx.tempDir,
    runDir,
    callsDir,
    runId: ctx.runId,
    signal: ctx.signal,
    isolation: ctx.isolation,
    agentUserName: ctx.agentUser
  })
  notes.push(...protection.notes)
  const gate = protection.gate
  const gitWorkspace = new GitWorkspace(settings.workspace, settings.progressFile, settings.featuresFile, protection.hardening.config)
  // --- end protected gate + isolation ---
  await gitWorkspace.prepare()
  // --- state (issue 6): a resumed run's work is measured against the base, not the WIP head ---
  const carry = ctx.carry ?? {}
  const workspace: Workspace = carry.baseCommit ? measuredFrom(gitWorkspace, carry.baseCommit, await gitWorkspace.head()) : gitWorkspace
  // --- end state ---

  const guards: CallGuard[] = [...protection.guards]
  if (settings.featuresFile) {
    guards.push(new FeaturesGuard(settings.workspace, settings.featuresFile))
  }
  // --- protected gate + isolation (issue 3) ---
  const agent = protection.wrapAgent(
    agentRunner({
      adapter: await prepareAdapter(settings, ctx),
      cwd: settings.workspace,
      maxTurns: settings.maxTurns,
      callBudgetUsd: settings.callBudgetUsd,
      env: agentEnv(ctx.env, { agent: settings.agent, extra: settings.agentEnv, apiKey: apiKeyFor(settings), set: protection.agentEnvSet }),
      callsDir,
      user: protection.user
    })
  )
  // --- end protected gate + isolation ---
  const log = new AttemptLog(logFile)
  const ledger = new Ledger(ledgerFile)
  const progress = new ProgressFile(progressPath)

  // --- protected gate + isolation (issue 3): the workspace goes back to its owner whatever happens ---
  let run: RunOutcome
  try {
    run = await runLoop(
      {
        runId: ctx.runId,
        task: settings.prompt,
        maxIterations: settings.maxIterations,
        callBudgetUsd: settings.callBudgetUsd,
        spendCeilingUsd: settings.spendCeilingUsd,
        callTimeoutMs: settings.callTimeoutMs,
        timeLimitMs: settings.timeLimitMs,
        noProgressLimit: settings.noProgressLimit,
        sameFailureLimit: settings.sameFailureLimit,
        progressFileName: settings.progressFile,
        // --- state (issue 6) ---
        period: carry.period,
        initialEvidence: carry.initialEvidence,
        seedFingerprint: carry.seedFingerprint
        // --- end state ---
      },
      {
        clock: ctx.clock ?? systemClock,
        agent,
        workspace,
        gate,
        guards,
        ledger,
        log,
        progress,
        signal: ctx.signal,
        report: ctx.report,
        onIteration: ctx.onIteration
      }
    )
  } finally {
    await protection.finish()
  }
  // --- end protected gate + isolation ---

  const published = await ctx.publisher.publish({
    settings,
    outcome: run,
    runDir,
    logFile,
    progressText: progress.read()
  })
  notes.push(...published.notes)
  return {
    stopReason: run.stopReason,
    outcome: outcomeFor(run.stopReason, settings.onEscalate !== 'none'),
    run,
    runDir,
    logFile,
    ledgerFile,
    progressFile: progressPath,
    published,
    notes
  }
}

// --- state (issue 6) ---
/** A workspace whose "changed since the start" compares with `base` when asked about `start`. */
function measuredFrom(inner: Workspace, base: string, start: string): Workspace {
  return {
    head: () => inner.head(),
    commitIteration: (runId, iteration) => inner.commitIteration(runId, iteration),
    commitFeaturesFile: (runId, iteration, judged) => inner.commitFeaturesFile(runId, iteration, judged),
    hasChangesSince: (commit) => inner.hasChangesSince(commit === start ? base : commit)
  }
}
// --- end state ---

export function defaultTempDir(env: NodeJS.ProcessEnv): string {
  return env.RUNNER_TEMP || os.tmpdir()
}

export function defaultRunId(env: NodeJS.ProcessEnv): string {
  if (env.GITHUB_RUN_ID) return `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT || '1'}`
  return `local-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${process.pid}`
}
