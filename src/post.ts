import * as core from '@actions/core'
import { STATE_MAIN_FINISHED } from './main.js'

/** The post step: runs whatever happened to main. */
export async function post(): Promise<void> {
  if (core.getState(STATE_MAIN_FINISHED) === 'true') return
  core.warning('loopgate: the main step did not finish; the run ended without a verdict.')
}
