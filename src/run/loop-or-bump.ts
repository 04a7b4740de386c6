import type { Settings } from '../settings.js'
import { runLoop } from '../loop/engine.js'
import type { RunOutcome } from '../loop/engine-types.js'
import { taskSpec } from '../tasks/task-registry.js'
import type { BeforeLoop } from './before-loop.js'
import type { RunContext } from './context.js'
import type { Protection } from '../gate/open.js'
import type { LoopWiring } from './wiring.js'
import { judgeBumpForLoop } from '../tasks/bump-verdict.js'

/** A run wired for the loop: its settings, context, what ran before, its protection and its ports. */
interface WiredRun {
  settings: Settings
  ctx: RunContext
  before: BeforeLoop
  protection: Protection
  wiring: LoopWiring
}

/**
 * The loop on the task's words, or for a task whose bump (loopgate's own, or a bot's) already passes
 * the baseline gate, the task's outcome for that bump with no agent call.
 */
export async function loopOrBump({ settings, ctx, before, protection, wiring }: WiredRun): Promise<{ run: RunOutcome; flaky: string[] }> {
  const task = taskSpec(settings.task)
  const work = { upgrade: before.upgrade?.kind === 'ready' ? before.upgrade : null, botBump: before.botBump }
  const bumpCommit = task.bumpCommit(work)
  const judged = bumpCommit ? await judgeBumpForLoop(wiring.deps, bumpCommit, protection.baseline?.verdict ?? null) : null
  const bumpVerdict = judged?.verdict ?? null
  const flaky = judged?.flaky ?? []
  if (bumpVerdict?.passed && task.passingBump) {
    const run = task.passingBump(work, { head: await wiring.gitWorkspace.head(), verdict: bumpVerdict, records: wiring.deps })
    if (run) return { run, flaky }
  }
  const carry = ctx.carry ?? {}
  const run = await runLoop(
    {
      runId: ctx.runId,
      task: task.loopTask(work, settings, bumpVerdict),
      maxIterations: settings.maxIterations,
      callBudgetUsd: settings.callBudgetUsd,
      spendCeilingUsd: settings.spendCeilingUsd,
      callTimeoutMs: settings.callTimeoutMs,
      timeLimitMs: settings.timeLimitMs,
      noProgressLimit: settings.noProgressLimit,
      sameFailureLimit: settings.sameFailureLimit,
      progressFileName: settings.progressFile,
      packageDir: settings.packageDir || undefined,
      period: carry.period,
      initialEvidence: carry.initialEvidence,
      seedFingerprint: carry.seedFingerprint
    },
    wiring.deps
  )
  return { run, flaky }
}
