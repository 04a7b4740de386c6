import type { Settings } from '../settings.js'
import { runLoop } from '../loop/engine.js'
import type { RunOutcome } from '../loop/engine-types.js'
import { verifiedByTheBump } from '../upgrade/outcome.js'
import { upgradeTask } from '../upgrade/task-prompt.js'
import { gatePassesOnTheBump } from '../bot-pr/bot-outcome.js'
import type { BeforeLoop } from './before-loop.js'
import type { RunContext } from './context.js'
import type { Protection } from '../gate/open.js'
import type { LoopWiring } from './wiring.js'
import { judgeBumpForLoop } from './bump-verdict.js'

/** A run wired for the loop: its settings, context, what ran before, its protection and its ports. */
export interface WiredRun {
  settings: Settings
  ctx: RunContext
  before: BeforeLoop
  protection: Protection
  wiring: LoopWiring
}

/**
 * The loop, or for a dependency upgrade whose bump alone passes the baseline gate, that bump as the
 * verified result with no agent call.
 */
export async function loopOrBump({ settings, ctx, before, protection, wiring }: WiredRun): Promise<{ run: RunOutcome; flaky: string[] }> {
  const ready = before.upgrade?.kind === 'ready' ? before.upgrade : null
  const bumpCommit = ready?.bumpCommit ?? before.botBump?.headCommit
  const judged = bumpCommit ? await judgeBumpForLoop(wiring.deps, bumpCommit, protection.baseline?.verdict ?? null) : null
  const bumpVerdict = judged?.verdict ?? null
  const flaky = judged?.flaky ?? []
  // A bot's pull request whose gate passes already: the failed check was not the gate's.
  if (before.botBump && bumpVerdict?.passed)
    return {
      run: gatePassesOnTheBump({ bump: before.botBump, head: await wiring.gitWorkspace.head(), verdict: bumpVerdict, records: wiring.deps }),
      flaky
    }
  if (ready && bumpVerdict?.passed) {
    const run = verifiedByTheBump({
      ready,
      head: await wiring.gitWorkspace.head(),
      verdict: bumpVerdict,
      log: wiring.deps.log,
      progress: wiring.deps.progress,
      clock: wiring.deps.clock
    })
    return { run, flaky }
  }
  const carry = ctx.carry ?? {}
  const run = await runLoop(
    {
      runId: ctx.runId,
      task:
        ready && bumpVerdict
          ? upgradeTask({
              candidate: ready.candidate,
              bumpCommit: ready.bumpCommit,
              bumpFiles: ready.bumpFiles,
              gateCommand: settings.gateCommand,
              verdict: bumpVerdict,
              releaseNotes: ready.releaseNotes
            })
          : settings.prompt,
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
