import { git } from '../git/git.js'
import type { Clock, GateVerdict, ProgressNotes, RunOutcome } from '../loop/engine-types.js'
import type { AttemptLog } from '../records/attempt-log.js'
import type { UpgradePublishInfo } from '../publish/publisher-types.js'
import { upgradeBranch, type UpgradeReady } from './prepare.js'

/**
 * The run of an upgrade whose bump alone passes the gate: verified on the bumped commit with no
 * agent call, nothing spent.
 */
export function verifiedByTheBump(opts: {
  ready: UpgradeReady
  head: string
  verdict: GateVerdict
  log: Pick<AttemptLog, 'write'>
  progress: ProgressNotes
  clock: Clock
}): RunOutcome {
  const { ready, head, verdict } = opts
  const at = opts.clock.now()
  opts.progress.ensure()
  opts.progress.appendStop('verified')
  opts.log.write({
    type: 'upgrade',
    package: ready.candidate.name,
    from: ready.candidate.from,
    to: ready.candidate.to,
    bumpCommit: ready.bumpCommit,
    gate: { passed: verdict.passed, reason: verdict.reason, testsRun: verdict.testsRun ?? null },
    decision: 'the bump alone passes the gate: no agent call'
  })
  opts.log.write({ type: 'stop', stopReason: 'verified', iterations: 0, spentUsd: 0, verifiedCommit: head, headCommit: head, claimedDone: 0, gateAgreed: 0 })
  return {
    stopReason: 'verified',
    iterations: [],
    spentUsd: 0,
    startCommit: ready.baseCommit,
    headCommit: head,
    verifiedCommit: head,
    lastVerdict: verdict,
    lastEvidence: [],
    claimedDone: 0,
    gateAgreed: 0,
    startedAt: at,
    endedAt: at
  }
}

/** A prepared upgrade and where its run ended: the workspace, the loop, the head commit and the paths left out of the diff. */
export interface UpgradeHead {
  ready: UpgradeReady
  workspace: string
  loopId: string
  head: string
  exclude: readonly string[]
}

/** What the pull request says about the upgrade: the files changed after loopgate's bump commit. */
export async function upgradePublishInfo({ ready, workspace, loopId, head, exclude }: UpgradeHead): Promise<UpgradePublishInfo> {
  const names = async (args: string[]): Promise<string[]> =>
    (await git(['diff', '--name-only', '-z', '--no-renames', ...args], { cwd: workspace })).stdout.split('\0').filter(Boolean)
  const c = ready.candidate
  return {
    name: c.name,
    from: c.from,
    to: c.to,
    kind: c.kind,
    bumpCommit: ready.bumpCommit,
    bumpFiles: ready.bumpFiles,
    branch: upgradeBranch(loopId, c),
    changedAfterBump: await names([ready.bumpCommit, head, '--', '.', ...exclude.map((f) => `:(exclude,literal)${f}`)])
  }
}
