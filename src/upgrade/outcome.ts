import type { GitRepository } from '../git/repository.js'
import type { Clock, GateVerdict, ProgressNotes, RunOutcome } from '../loop/engine-types.js'
import type { AttemptLog } from '../records/attempt-log.js'
import type { UpgradePublishInfo } from '../publish/publisher-types.js'
import type { FileChange } from '../publish/changes.js'
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
    decision: verdict.flaky?.length
      ? `the bump alone passes the gate once its flaky tests ran again (${verdict.flaky.join(', ')}): no agent call`
      : 'the bump alone passes the gate: no agent call'
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

/** A prepared upgrade and where its run ended: the workspace's repository, the loop, the head commit and the paths left out of the diff. */
interface UpgradeHead {
  ready: UpgradeReady
  repository: GitRepository
  loopId: string
  head: string
  exclude: readonly string[]
  /** Tests the gate found flaky on the bump commit (see judgeTheBump). */
  flaky?: readonly string[]
}

/**
 * What the pull request says about the upgrade: the files the agent changed after loopgate's bump
 * commit, with their lines added and removed. The bump's own lines are not among them: the bump
 * guard keeps them as the bump commit left them.
 */
export async function upgradePublishInfo({ ready, repository, loopId, head, exclude, flaky = [] }: UpgradeHead): Promise<UpgradePublishInfo> {
  const pathspecs = ['.', ...exclude.map((f) => `:(exclude,literal)${f}`)]
  const changed: FileChange[] = await repository.diffNumstat(ready.bumpCommit, head, pathspecs)
  const c = ready.candidate
  return {
    name: c.name,
    from: c.from,
    to: c.to,
    kind: c.kind,
    bumpCommit: ready.bumpCommit,
    bumpFiles: ready.bumpFiles,
    branch: upgradeBranch(loopId, c),
    changedAfterBump: changed,
    flakyOnBump: [...flaky]
  }
}
