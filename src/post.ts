import * as core from '@actions/core'
import { reclaimWorkspace } from './isolation/agent-user.js'
import { STATE_MAIN_FINISHED, STATE_RUN_DIR, STATE_SESSION, STATE_WORKSPACE, STATE_WORKSPACE_OWNER } from './main.js'
import type { SessionInfo } from './state/session.js'
import { settleKilledRun, type PushWip } from './state/settle.js'

export interface PostDeps {
  /** Pushes the WIP branch; without it the WIP commit stays local to the runner. */
  pushWip?: PushWip
}

/** The post step (`post-if: always()`): finishes a run whose main step did not. */
export async function post(deps: PostDeps = {}): Promise<void> {
  if (core.getState(STATE_MAIN_FINISHED) === 'true') return
  core.warning('loopgate: the main step did not finish; settling the run (charges, progress note, state).')
  const sessionText = core.getState(STATE_SESSION)
  const runDir = core.getState(STATE_RUN_DIR)
  if (!sessionText || !runDir) {
    core.warning('loopgate: the main step ended before the loop started; nothing to settle.')
    return
  }
  const info = JSON.parse(sessionText) as SessionInfo
  const workspace = core.getState(STATE_WORKSPACE) || process.env.GITHUB_WORKSPACE || process.cwd()
  // A killed main left the agent user's processes running and the workspace in its hands.
  const ownerText = core.getState(STATE_WORKSPACE_OWNER)
  for (const note of reclaimWorkspace(workspace, ownerText, runDir)) core.info(`loopgate: ${note}`)
  const [uid, gid] = /^\d+:\d+$/.test(ownerText) ? ownerText.split(':').map(Number) : []
  const result = await settleKilledRun({
    info,
    runDir,
    workspace,
    owner: uid === undefined ? undefined : { uid, gid },
    progressFileName: core.getInput('progress-file') || '.loopgate/progress.md',
    featuresFile: core.getInput('features-file') || undefined,
    pushWip: deps.pushWip
  })
  for (const note of result.notes) core.info(`loopgate: ${note}`)
  core.setOutput('stop-reason', result.stopReason)
  core.setOutput('spend-usd', result.spentUsd.toFixed(2))
  core.setOutput('iterations', String(result.iterations))
  await core.summary
    .addHeading(`loopgate: ${result.stopReason}`, 2)
    .addRaw(
      `The main step ended without finishing. ${result.settledUsd > 0 ? `The call in flight was charged its full budget ($${result.settledUsd.toFixed(2)}). ` : ''}` +
        `Spent: $${result.spentUsd.toFixed(2)} over ${result.iterations} call(s). State ${result.saved ? 'saved' : 'NOT saved'}.`
    )
    .write()
    .catch(() => undefined)
}
