import { readSettings } from '../../src/inputs/read-settings.js'
import { type Settings } from '../../src/settings.js'
import { DryRunPublisher } from '../../src/publish/dry-run.js'
import { executeRun } from '../../src/run/execute-run.js'
import { type RunReport } from '../../src/run/context.js'
import { workerAgentUser } from './action-runner.js'
import { tempDir } from './repo.js'

/** Settings for a `command` agent in `repo`, from action-style inputs. */
export function settingsFor(repo: string, inputs: Record<string, string>): Settings {
  const all: Record<string, string> = { agent: 'command', prompt: 'Fix the bug.', 'dry-run': 'true', ...inputs }
  return readSettings((name) => all[name] ?? '', { GITHUB_WORKSPACE: repo })
}

let runCounter = 0

/** executeRun with a dry-run publisher and a fresh runner temp. */
export async function runIn(repo: string, inputs: Record<string, string>, env: NodeJS.ProcessEnv = process.env): Promise<RunReport> {
  return executeRun(settingsFor(repo, inputs), {
    env,
    runId: `test-${process.pid}-${++runCounter}`,
    tempDir: tempDir('loopgate-runner-'),
    publisher: new DryRunPublisher(),
    signal: new AbortController().signal,
    report: () => undefined,
    agentUser: workerAgentUser()
  })
}
