import * as core from '@actions/core'
import { MEMO_STATE, STATE_MAIN_FINISHED } from './main.js'
import { settleSession } from './session/settle.js'
import type { PushWip } from './publish/github/wip.js'

interface PostDeps {
  /** Pushes the WIP branch; without it the WIP commit stays local to the runner. */
  pushWip?: PushWip
}

/** The post step (`post-if: always()`): finishes a session whose main step did not. */
export async function post(deps: PostDeps = {}): Promise<void> {
  const end = await settleSession({
    mainFinished: core.getState(STATE_MAIN_FINISHED) === 'true',
    recall: (name) => core.getState(MEMO_STATE[name]),
    defaultWorkspace: process.env.GITHUB_WORKSPACE || process.cwd(),
    progressFile: core.getInput('progress-file') || '.loopgate/progress.md',
    featuresFile: core.getInput('features-file') || undefined,
    pushWip: deps.pushWip,
    report: (line) => core.info(line),
    warn: (line) => core.warning(line)
  })
  if (end.kind === 'stopped') {
    core.setOutput('stop-reason', end.stopReason)
    core.setFailed(`loopgate stopped: ${end.stopReason}: ${end.message}`)
    return
  }
  if (end.kind !== 'settled') return
  const { result } = end
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
