import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { runSession, type SessionEnd } from '../src/session/flow.js'
import { openStateSession } from '../src/state/session.js'
import { workerAgentUser } from './helpers/action-runner.js'
import { memoryCache } from './helpers/memory-cache.js'
import { buggyProject, makeRepo, sharedTempDir, tempDir } from './helpers/repo.js'
import { settingsFor } from './helpers/settings.js'

describe('the baseline is cached in the loop state by what determines it', () => {
  test('a second run on the same tree, gate command and lockfiles does not run the baseline again', async () => {
    const counter = path.join(sharedTempDir('loopgate-gate-count-'), 'runs')
    writeFileSync(counter, '')
    chmodSync(counter, 0o666)
    const cache = memoryCache()
    const inputs = {
      'agent-command': "sed -i 's/a - b/a + b/' src/math.mjs",
      'gate-command': `echo run >> ${counter}; node test/run.mjs`,
      'loop-id': 'baseline-cache'
    }
    const gateRuns = (): number => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length
    const run = async (n: number): Promise<SessionEnd> => {
      const ws = makeRepo(buggyProject())
      const settings = settingsFor(ws, inputs)
      const runnerTemp = tempDir('loopgate-runner-')
      return runSession(settings, {
        env: process.env,
        runId: `bc-${process.pid}-${n}`,
        tempDir: runnerTemp,
        signal: new AbortController().signal,
        report: () => undefined,
        openState: (s) => openStateSession(s, { env: {}, tempDir: runnerTemp, runId: `bc-${process.pid}-${n}`, cache }),
        integrate: async (s) => ({ settings: s, publisher: new DryRunPublisher() }),
        agentUser: workerAgentUser()
      })
    }

    const first = await run(1)
    expect(first.kind === 'ran' && first.report.stopReason).toBe('verified')
    expect(gateRuns()).toBe(2) // the baseline, then the agent's commit
    const second = await run(2)
    expect(second.kind === 'ran' && second.report.stopReason).toBe('verified')
    expect(gateRuns()).toBe(3) // only the agent's commit
    expect(second.kind === 'ran' && second.report.notes.join('\n')).toContain('from an earlier run on the same tree')
  })
})
