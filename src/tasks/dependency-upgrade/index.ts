import { verifiedByTheBump } from '../../upgrade/outcome.js'
import type { UpgradeReady } from '../../upgrade/prepare.js'
import { upgradeTask } from '../../upgrade/task-prompt.js'
import type { DependencyReferenceOptions } from '../../gate/dependencies/dependency-trust.js'
import type { TaskSpec } from '../task-spec.js'

/** loopgate's bump commit as the dependencies the gate trusts, and as the bump the agent fixes forward. */
function bumpReference(ready: UpgradeReady): DependencyReferenceOptions {
  const c = ready.candidate
  return {
    commit: ready.bumpCommit,
    pinned: [c.name],
    bump: { before: ready.baseCommit, package: c.name, label: `loopgate's own bump to ${c.to} in this run` }
  }
}

/**
 * `task: dependency-upgrade`: loopgate picks the next outdated dependency and commits the bump; a
 * bump that passes the gate alone is the verified result, else the agent fixes forward from it.
 */
export const dependencyUpgrade: TaskSpec = {
  name: 'dependency-upgrade',
  prompt: 'Upgrade the next outdated dependency and make the protected gate pass with it.',
  // The baseline decides whether to call the agent at all; it runs on the bump.
  baseline: { alongside: false, onBump: true, fromResumedBase: false },
  bumpCommit: ({ upgrade }) => upgrade?.bumpCommit,
  dependencyReference: ({ upgrade }, resumedBase) => (upgrade ? bumpReference(upgrade) : { commit: resumedBase }),
  passingBump: ({ upgrade }, { head, verdict, records }) =>
    upgrade && verdict.passed
      ? verifiedByTheBump({ ready: upgrade, head, verdict, log: records.log, progress: records.progress, clock: records.clock })
      : undefined,
  loopTask: ({ upgrade }, settings, verdict) =>
    upgrade && verdict
      ? upgradeTask({
          candidate: upgrade.candidate,
          bumpCommit: upgrade.bumpCommit,
          bumpFiles: upgrade.bumpFiles,
          gateCommand: settings.gateCommand,
          verdict,
          releaseNotes: upgrade.releaseNotes
        })
      : settings.prompt
}
