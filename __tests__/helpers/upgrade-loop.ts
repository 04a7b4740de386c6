import { GitRepository } from '../../src/git/repository.js'
import type { Settings } from '../../src/settings.js'
import { DryRunPublisher } from '../../src/publish/dry-run.js'
import { executeRun } from '../../src/run/execute-run.js'
import { type RunReport } from '../../src/run/context.js'
import { openStateSession, type StateSession } from '../../src/state/session.js'
import { workerAgentUser } from './action-runner.js'
import { memoryCache } from './memory-cache.js'
import { tempDir } from './repo.js'
import { settingsFor } from './settings.js'

export interface UpgradeLoop {
  run(inputs: Record<string, string>): Promise<{ report: RunReport; session: StateSession }>
}

/**
 * A dependency-upgrade loop on `ws`, run as the action runs it: the state restored from one cache
 * that all its runs share, the run, the state saved. `env` points the package manager at the
 * tests' local registry; `inputs` are the loop's own (gate, loop id), each run may add more.
 */
export function upgradeLoop(ws: string, env: NodeJS.ProcessEnv, inputs: Record<string, string>): UpgradeLoop {
  const cache = memoryCache()
  const runnerTemp = tempDir('loopgate-runner-')
  let n = 0
  return {
    async run(extra) {
      const settings: Settings = settingsFor(ws, { prompt: '', task: 'dependency-upgrade', 'max-iterations': '2', ...inputs, ...extra })
      const runId = `${settings.loopId}-${process.pid}-${++n}`
      const opened = await openStateSession(settings, { env, tempDir: runnerTemp, runId, cache })
      if (opened.kind !== 'ready') throw new Error(`state: ${opened.kind}`)
      await opened.session.resume(GitRepository.plain(ws))
      const report = await executeRun(settings, {
        env,
        runId,
        tempDir: runnerTemp,
        publisher: new DryRunPublisher(),
        signal: new AbortController().signal,
        report: () => undefined,
        agentUser: workerAgentUser(),
        carry: opened.session.carry()
      })
      await opened.session.save(report)
      return { report, session: opened.session }
    }
  }
}
