import * as core from '@actions/core'
import { fileURLToPath } from 'node:url'
import { postStepWipPusher } from './publish/github/wip.js'
import { isTrueInput } from './inputs/values.js'
import { relaunchElevated, shouldElevate } from './isolation/elevate.js'
import { run } from './main.js'
import { post } from './post.js'

const IS_POST = 'isPost'

async function entry(): Promise<void> {
  // Hosted runners: become root through passwordless sudo, so the agent gets a user of its own.
  if (shouldElevate(process.env)) {
    process.exitCode = await relaunchElevated(fileURLToPath(import.meta.url), process.env)
    return
  }
  if (core.getState(IS_POST) === 'true') {
    // The WIP push after a cancellation: from a clean clone, never in a dry run.
    const sign = core.getInput('sign-commits')
    const signCommits = (sign === '' || isTrueInput(sign)) && core.getInput('commit-author') === ''
    await post({ pushWip: postStepWipPusher(process.env, core.getInput('github-token'), { dryRun: isTrueInput(core.getInput('dry-run')), signCommits }) })
    return
  }
  core.saveState(IS_POST, 'true')
  await run()
}

entry().catch((err: unknown) => {
  core.setFailed(err instanceof Error ? (err.stack ?? err.message) : String(err))
})
