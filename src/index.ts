import * as core from '@actions/core'
import { run } from './main.js'
import { post } from './post.js'

const IS_POST = 'isPost'

async function entry(): Promise<void> {
  if (core.getState(IS_POST) === 'true') {
    await post()
    return
  }
  core.saveState(IS_POST, 'true')
  await run()
}

entry().catch((err: unknown) => {
  core.setFailed(err instanceof Error ? (err.stack ?? err.message) : String(err))
})
